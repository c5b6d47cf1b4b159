#pragma once
// texstream::stream::KernelCache: compiled kernel variants by (kernel, #defines, backend,
// output formats), and the loading of shader sources: embedded in the library at build
// time, or read from the folder TEXSTREAM_SHADER_DIR names (live editing). `#include
// "file.glsl"` inside a kernel pulls in another file of shaders/ with correct line
// numbers in errors.
#include <texstream/gl/Program.h>
#include <texstream/gl/Texture.h>
#include <texstream/stream/Backend.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace texstream::stream {

struct KernelVariant {
  std::string kernel;  ///< "axpy"
  std::vector<std::pair<std::string, std::string>> defines;
  Backend backend = Backend::Fragment;
  std::vector<gl::TextureFormat> outputs;
  /// Compute only: the kernel file brings its own layout(local_size...) and main() (for
  /// work that needs shared memory, like the one-dispatch reduction); the generated header
  /// still declares the #defines and the output images u_image0, u_image1, ...
  bool raw = false;
  std::string key() const;
  /// "axpy K=7 [compute]"
  std::string title() const;
};

/// One per share group (stream::Runtime): its programs serve every context of the group.
class KernelCache {
 public:
  const gl::Program& get(const KernelVariant& variant);
  std::size_t size() const { return m_programs.size(); }
  /// Drops the compiled variants of one kernel (after its source changed).
  void forget(const std::string& kernel);
  void clear() { m_programs.clear(); }

 private:
  struct Entry {
    gl::Program program;
    std::uint64_t sources = 0;  // registeredSourcesVersion() when compiled or last checked
  };
  std::map<std::string, Entry> m_programs;
};

/// Makes `source` the text of kernel `name` (as if it were shaders/<name>.glsl), for
/// kernels generated at run time (src/codegen). A later registration of the same name
/// replaces it: every share group's compiled variants of that name are compiled again
/// on their next use.
void registerKernelSource(const std::string& name, std::string source);

/// The source of shaders/<path> (registered, from TEXSTREAM_SHADER_DIR, or embedded), split into pieces
/// at #include lines. Throws gl::Error naming the file (and the including line) if missing.
std::vector<gl::ShaderPiece> loadShaderPieces(const std::string& path);
/// A vertex + fragment program with the current context's GLSL headers (3.30 core or 3.00
/// ES, Capabilities::glslHeader): for raster passes outside the kernel model (PointMatrix's
/// scatter, the demos' renderers). Throws gl::Error as gl::Program does.
gl::Program rasterProgram(std::string name, std::vector<gl::ShaderPiece> vertex, std::vector<gl::ShaderPiece> fragment);
/// Compute-shader workgroup edge (16: 16 x 16 invocations).
constexpr int kWorkgroupSize = 16;

}  // namespace texstream::stream
