#pragma once
// The 3D fluid demo's settings: the simulation's parameters (fluid::FluidParameters3D) and
// how the demo draws the smoke, the liquid and the obstacles, as one table of named settings
// (Settings.h) that the command line, presets and the panel share. Knobs the 2D fluid demo
// has keep its spellings (scene, size, dt, advection, vorticity, buoyancy, tolerance,
// iterations, statistics), the CG preconditioner the smooth demo's (precond) and the cap of a
// tolerance-driven solve the wave demo's (max-iterations).
#include "Settings.h"

#include <texstream/fluid/FluidSolver3D.h>

namespace texstream::app {

struct Fluid3DSettings {
  fluid::FluidParameters3D params;
  // Display.
  bool shadows = true;       ///< smoke: light attenuated by the smoke and the obstacles on its way
  bool fire = true;          ///< smoke: temperature glows as fire (a black-body ramp)
  float opacity = 0.35f;     ///< smoke: the optical depth of a cell of density 1
  float rayStep = 0.6f;      ///< ray-marching step in cells
  float smokeColor[3] = {0.86f, 0.87f, 0.90f};
  float liquidColor[3] = {0.10f, 0.42f, 0.72f};
  bool obstacles = true;     ///< draw the solids and the moving sphere
  bool box = true;           ///< draw the domain's edges
  // Command line only (not a preset key): where the run's last projection is written for
  // other solvers (--export-system DIR, --export-format mtx|petsc), as texstream-param's.
  std::string exportDirectory;
  bool exportPetsc = false;
};

/// Fills `table` with the settings of `s` (names = command-line options = preset keys).
void describeFluid3DSettings(SettingTable& table, Fluid3DSettings& s);

}  // namespace texstream::app
