#pragma once
// The fluid demo's settings: the solver's parameters (fluid::FluidParameters) and how the
// demo draws and stirs the fluid, as one table of named settings (Settings.h) that the
// command line, presets and the panel share.
#include "Settings.h"

#include <texstream/fluid/FluidSolver.h>

#include <span>
#include <string>

namespace texstream::app {

/// How the dye is coloured (the renderer's choice; the simulation carries RGB dye).
enum class DyeColors {
  Splat,      ///< the dye's own colour: each splat its hue, each scene source its colour
  Single,     ///< one colour, the dye's density as its strength
  Vorticity,  ///< a temperature ramp by |vorticity|, the dye's density as brightness
  Speed,      ///< a temperature ramp by speed, the dye's density as brightness
};
std::span<const stream::EnumName<DyeColors>> dyeColorNames();

struct FluidSettings {
  fluid::FluidParameters params;
  // Display.
  fluid::Field display = fluid::Field::Dye;
  DyeColors dyeColors = DyeColors::Splat;
  float dyeColor[3] = {0.95f, 0.55f, 0.18f};  ///< DyeColors::Single
  bool shading = false;     ///< light the dye by its gradient (relief)
  bool particles = false;   ///< draw the display particles
  bool arrows = false;      ///< velocity arrows over the field
  int arrowSpacing = 28;    ///< pixels between arrows
  // Stirring.
  int splats = 0;           ///< random coloured splats at the start and at each reset
  float brushRadius = 0;    ///< in nodes; 0: a fortieth of the smaller side
  float brushForce = 1.0f;
  // Outputs (not settings of a preset).
  std::string exportFields;      ///< CSV written after the last step ("" = none)
  long long exportAfter = -1;    ///< the step count after which to write it (-1: on exit)
};

/// Fills `table` with the settings of `s` (names = command-line options = preset keys).
void describeFluidSettings(SettingTable& table, FluidSettings& s);
/// What follows from the settings (the iteration cap of a tolerance-driven solve).
void finishFluidSettings(FluidSettings& s);

}  // namespace texstream::app
