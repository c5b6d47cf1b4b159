#include <texstream/gl/Program.h>

#include <texstream/gl/Debug.h>
#include <texstream/gl/Error.h>

#include <glad/gl.h>

#include <algorithm>
#include <regex>
#include <sstream>
#include <utility>

namespace texstream::gl {

std::string rewriteShaderLog(const std::string& log, const std::vector<LineOrigin>& origins) {
  // Mesa: "0:17(5): error: msg"; NVIDIA: "0(17) : error C1008: msg"; AMD/others:
  // "ERROR: 0:17: msg".
  static const std::regex mesa(R"(^\s*(\d+):(\d+)\(\d+\):\s*(.*)$)");
  static const std::regex nvidia(R"(^\s*(\d+)\((\d+)\)\s*:\s*(.*)$)");
  static const std::regex generic(R"(^\s*(?:ERROR|WARNING):\s*(\d+):(\d+):\s*(.*)$)");
  std::istringstream in(log);
  std::string line, out;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_match(line, m, mesa) || std::regex_match(line, m, nvidia) ||
        std::regex_match(line, m, generic)) {
      const std::size_t line = std::stoul(m[2]);
      const std::string where = line >= 1 && line <= origins.size()
                                    ? origins[line - 1].file + ":" + std::to_string(origins[line - 1].line)
                                    : "<line " + m[2].str() + ">";
      out += where + ": " + m[3].str() + "\n";
    } else if (!line.empty()) {
      out += line + "\n";
    }
  }
  if (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

namespace {
const char* stageName(unsigned int type) {
  switch (type) {
    case GL_VERTEX_SHADER: return "vertex";
    case GL_FRAGMENT_SHADER: return "fragment";
    case GL_COMPUTE_SHADER: return "compute";
    default: return "shader";
  }
}

/// The info log of a shader (glGetShaderiv / glGetShaderInfoLog) or a program
/// (glGetProgramiv / glGetProgramInfoLog), without its terminating zero.
template <class GetIv, class GetLog>
std::string infoLog(GLuint id, GetIv getIv, GetLog getLog) {
  GLint len = 0;
  getIv(id, GL_INFO_LOG_LENGTH, &len);
  std::string log(std::size_t(len > 0 ? len : 1), '\0');
  getLog(id, len, nullptr, log.data());
  return log.c_str();
}
}  // namespace

Program::Program(std::string name, const std::vector<ShaderStage>& stages) : m_name(std::move(name)) {
  // A failure below throws; m_id then releases the program (ObjectOwner::release).
  ObjectOwner owner = ObjectOwner::currentGroup();
  m_id = ObjectName(std::move(owner), ObjectKind::Program, glCreateProgram());
  const GLuint id = m_id.get();
  std::vector<GLuint> shaders;
  auto cleanup = [&] {
    for (GLuint s : shaders) glDeleteShader(s);
  };
  for (const ShaderStage& stage : stages) {
    // The version line may carry more lines (ES precision statements): one origin each.
    std::vector<LineOrigin> origins;
    std::string text = stage.version + "\n";
    for (int line = 1; line <= int(std::count(text.begin(), text.end(), '\n')); ++line) origins.push_back({"<version>", line});
    for (const ShaderPiece& piece : stage.pieces) {
      std::string body = piece.text;
      if (body.empty() || body.back() != '\n') body += '\n';
      int local = piece.firstLine;
      for (char ch : body) {
        if (ch == '\n') origins.push_back({piece.file, local++});
      }
      text += body;
    }
    GLuint s = glCreateShader(stage.type);
    shaders.push_back(s);
    const char* src = text.c_str();
    glShaderSource(s, 1, &src, nullptr);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
      const std::string log = infoLog(s, glGetShaderiv, glGetShaderInfoLog);
      cleanup();
      throw Error("Program(\"" + m_name + "\"): " + stageName(stage.type) + " stage:\n" +
                  rewriteShaderLog(log.c_str(), origins));
    }
    glAttachShader(id, s);
  }
  glLinkProgram(id);
  cleanup();
  GLint ok = 0;
  glGetProgramiv(id, GL_LINK_STATUS, &ok);
  if (!ok) {
    const std::string log = infoLog(id, glGetProgramiv, glGetProgramInfoLog);
    throw Error("Program(\"" + m_name + "\"): link failed: " + log);
  }
  label(GL_PROGRAM, id, m_name);
}

int Program::uniformLocation(const std::string& uniform) const {
  auto it = m_locations.find(uniform);
  if (it != m_locations.end()) return it->second;
  const int loc = glGetUniformLocation(m_id.get(), uniform.c_str());
  m_locations.emplace(uniform, loc);
  return loc;
}

}  // namespace texstream::gl
