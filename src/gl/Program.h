#pragma once
// texstream::gl::Program: move-only owner of a linked GLSL program.
//
// Each stage is a list of source pieces (a file, or generated text). The pieces are joined
// and a table remembers where each line of the joined text came from, so the driver's
// errors ("0:17(5): error: ..." on Mesa, "0(17) : error C1008: ..." on NVIDIA) are
// rewritten to "shaders/axpy.glsl:17: error: ...". (A `#line L N` marker per piece would
// be the textbook way, but Mesa ignores the source-string number N.)
#include <texstream/gl/ContextRecord.h>

#include <string>
#include <unordered_map>
#include <vector>

namespace texstream::gl {

struct ShaderPiece {
  std::string file;  ///< shown in errors ("shaders/axpy.glsl", "<generated>")
  std::string text;
  int firstLine = 1;  ///< line number of text's first line in `file` (after an #include)
};

struct ShaderStage {
  unsigned int type;  ///< GL_VERTEX_SHADER, GL_FRAGMENT_SHADER, GL_COMPUTE_SHADER
  std::string version;  ///< "#version 330 core" (Capabilities::glslHeader); placed before everything
  std::vector<ShaderPiece> pieces;
};

class Program {
 public:
  Program() = default;
  /// Compiles and links; throws Error("Program(\"name\"): shaders/x.glsl:17: ...").
  Program(std::string name, const std::vector<ShaderStage>& stages);
  ~Program();
  Program(Program&& other) noexcept;
  Program& operator=(Program&& other) noexcept;
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;

  unsigned int id() const { return m_id; }
  const std::string& name() const { return m_name; }
  /// Location of a uniform, cached; -1 if the linker removed it or it never existed.
  int uniformLocation(const std::string& uniform) const;

 private:
  unsigned int m_id = 0;
  ObjectOwner m_owner;
  std::string m_name;
  mutable std::unordered_map<std::string, int> m_locations;
};

/// Where line i + 1 of a joined shader came from.
struct LineOrigin {
  std::string file;
  int line = 0;
};
/// Rewrites driver log lines that name joined-text line numbers into file:line form.
std::string rewriteShaderLog(const std::string& log, const std::vector<LineOrigin>& origins);

}  // namespace texstream::gl
