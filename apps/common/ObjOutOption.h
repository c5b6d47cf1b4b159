#pragma once
// The --out PATH.obj of the mesh demos (texstream-smooth, texstream-param): checked before
// the run like every output (OutputPath.h), written after a run that succeeded, and said so
// on stderr:
//   texstream-smooth: wrote smoothed.obj
#include <texstream/geometry/Mesh.h>

#include <string>
#include <vector>

namespace CLI {
class App;
}  // namespace CLI

namespace texstream::app {

class ObjOutOption {
 public:
  /// Adds --out PATH.obj; `help` says what the file holds.
  void addTo(CLI::App& cli, const std::string& help);
  /// After parsing: throws UsageError naming --out unless its path can be written;
  /// returns whether --out was given.
  bool check() const;
  /// Writes `mesh`, with `uv` as vt lines where given, and says so on stderr as `program`;
  /// throws std::runtime_error("no <what> to write to PATH") where the run left nothing (no
  /// vertices, or no (u, v) where uv is given).
  void write(const std::string& program, const std::string& what, const geometry::Mesh& mesh,
             const std::vector<double>* uv = nullptr) const;

 private:
  std::string m_path;
};

}  // namespace texstream::app
