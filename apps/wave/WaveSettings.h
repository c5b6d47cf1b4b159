#pragma once
// The wave demo's settings: the grid, the scheme and its parameters (wave::WaveParameters),
// and how the surface is drawn and disturbed, as one table of named settings (Settings.h)
// that the command line, presets and the panel share.
#include "Settings.h"

#include <texstream/wave/WaveEquation.h>

namespace texstream::app {

struct WaveSettings {
  wave::WaveParameters params{.dt = 0.0f};  ///< dt 0: 0.5 h / c (CFL 0.5) for the grid
  int width = 256, height = 256;
  bool autoDt = true;  ///< dt follows the grid and the speed (what dt 0 asks for)
  float heightScale = 2.0f;
  float rippleRadius = 0.03f, rippleAmplitude = 0.04f;
};

/// Fills `table` with the settings of `s` (names = command-line options = preset keys).
void describeWaveSettings(SettingTable& table, WaveSettings& s);
/// What follows from the settings (autoDt from whether a time step was given).
void finishWaveSettings(WaveSettings& s);

}  // namespace texstream::app
