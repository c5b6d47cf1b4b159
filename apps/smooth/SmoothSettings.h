#pragma once
// The smooth demo's settings: the mesh, its noise, the flow's time step, CG and boundary
// options, and how the mesh is drawn, as one table of named settings (Settings.h) that the
// command line, presets and the panel share.
#include "DsiMethod.h"
#include "MeshSpec.h"
#include "Settings.h"

#include <texstream/geometry/CurvatureFlow.h>
#include <texstream/geometry/Mesh.h>

#include <cstddef>
#include <memory>
#include <string>

namespace texstream::app {

struct SmoothSettings {
  /// A mesh file (.obj, .off, .ply) or "builtin:NAME[:VERTICES]".
  std::string mesh = "builtin:cube";
  /// Normal noise in mean edge lengths; < 0: 0.3 for built-in meshes, 0 for files.
  double noise = -1;
  long long seed = 1;
  /// λΔt per step in the mesh's own units; < 0: the squared mean edge length.
  double lambdaDt = -1;
  float cgTolerance = 1e-5f;
  int cgMaxIterations = 500;
  bool fixBoundary = true;
  geometry::Rescale rescale = geometry::Rescale::None;
  bool jacobi = true;
  /// DSI smoothing instead of curvature flow (DsiMethod.h).
  DsiSettings dsi;
  geometry::Flow flow = geometry::Flow::MeanCurvature;
  /// Auto: float CG, and a step it cannot bring to the tolerance again in mixed precision.
  solvers::Precision precision = solvers::Precision::Auto;
  float innerTolerance = 1e-3f;
  int stepsPerFrame = 1;
  // Display.
  bool wireframe = false;
  bool curvatureColors = true;
  float curvatureRange = 4.0f;  ///< |H| R mapped to full colour (R: the mesh's bounding radius)
  /// The smoothed mesh, filled when the demo ends (for --out), in the input's vertex order.
  std::shared_ptr<geometry::Mesh> result;
};

/// Fills `table` with the settings of `s` (names = command-line options = preset keys).
void describeSmoothSettings(SettingTable& table, SmoothSettings& s);

}  // namespace texstream::app
