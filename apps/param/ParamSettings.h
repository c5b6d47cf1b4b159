#pragma once
// The param demo's settings: the mesh, its noise, the pins and how LSCM's least-squares
// system is solved, as one table of named settings (Settings.h) that the command line,
// presets and the panel share.
#include "Settings.h"

#include <texstream/solvers/systems/SystemSolver.h>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace texstream::geometry {
struct Mesh;
}

namespace texstream::app {

struct ParamSettings {
  /// A mesh file (.obj, .off, .ply) or "builtin:patch[:VERTICES]" (2000 vertices by default).
  std::string mesh = "builtin:patch";
  double noise = 0;  ///< normal noise in mean edge lengths
  long long seed = 1;
  /// The two pinned vertices as "A,B" (0-based); empty: the boundary vertices farthest apart.
  std::string pins;
  solvers::SystemSolverOptions solver;
  /// Filled when the demo ends (for --out): the mesh and its (u, v).
  std::shared_ptr<geometry::Mesh> resultMesh;
  std::shared_ptr<std::vector<double>> resultUv;
  /// Written before the first solve when set: the normal equations as Matrix Market or PETSc.
  std::string exportDirectory;
  bool exportPetsc = false;
};

/// Fills `table` with the settings of `s` (names = command-line options = preset keys).
void describeParamSettings(SettingTable& table, ParamSettings& s);
/// "A,B" as two vertex indices; empty text: none. Throws UsageError naming `option`.
std::optional<std::array<std::int32_t, 2>> parsePins(const std::string& option, const std::string& text);
/// What one setting cannot say alone (CGLS with multigrid): throws UsageError.
void checkParamSettings(const ParamSettings& s);

}  // namespace texstream::app
