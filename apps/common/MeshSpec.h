#pragma once
// A demo's --mesh value (and a preset's "mesh"): a mesh file, or builtin:NAME[:VERTICES] for
// one of geometry::builtinMeshNames(). The smoothing and parameterisation demos read it.
#include <cstddef>
#include <string>

namespace texstream::app {

/// A parsed mesh specification.
struct MeshSpec {
  bool builtin = false;
  std::string name;  ///< built-in name or file path
  std::size_t vertices = 10000;
};
/// "builtin:NAME[:VERTICES]" or a path; throws UsageError for an unknown built-in or a
/// bad vertex count, naming `option`.
MeshSpec parseMeshSpec(const std::string& option, const std::string& text);
/// parseMeshSpec, and for a file: a known format (by the extension) that exists; throws
/// UsageError naming `option` (the command line's --mesh, a preset's key).
MeshSpec checkMeshSpec(const std::string& option, const std::string& text);

}  // namespace texstream::app
