#include <texstream/stream/KernelCache.h>

#include <texstream/gl/Capabilities.h>
#include <texstream/gl/Error.h>
#include <texstream/stream/Runtime.h>

#include <glad/gl.h>

#include <cstdlib>
#include <fstream>
#include <atomic>
#include <map>
#include <mutex>
#include <sstream>

namespace texstream::stream {

// Capabilities::compute promises GLs whose workgroups hold the generic kernels' 16 x 16.
static_assert(kWorkgroupSize == gl::kComputeWorkgroupSide &&
              kWorkgroupSize * kWorkgroupSize == gl::kComputeWorkgroupInvocations);

const std::map<std::string, std::string>& embeddedShaders();  // generated at build time

namespace {

std::mutex g_registeredMutex;
struct RegisteredSource {
  std::string text;
  std::uint64_t version = 0;  // g_registeredVersion when registered
};
std::map<std::string, RegisteredSource>& registeredSources() {
  static std::map<std::string, RegisteredSource> sources;  // "shaders/x.glsl" -> text
  return sources;
}
// Counts registrations: a compiled variant older than the registration of its kernel's
// source is compiled again (in whichever share group holds it).
std::atomic<std::uint64_t> g_registeredVersion{0};

// The version of the registration of shaders/<kernel>.glsl (0: not registered).
std::uint64_t registrationVersion(const std::string& kernel) {
  std::lock_guard<std::mutex> lock(g_registeredMutex);
  auto it = registeredSources().find("shaders/" + kernel + ".glsl");
  return it == registeredSources().end() ? 0 : it->second.version;
}

std::string readSource(const std::string& path) {
  // path is "shaders/x.glsl"
  {
    std::lock_guard<std::mutex> lock(g_registeredMutex);
    auto it = registeredSources().find(path);
    if (it != registeredSources().end()) return it->second.text;
  }
  if (const char* dir = std::getenv("TEXSTREAM_SHADER_DIR"); dir && *dir) {
    const std::string rel = path.substr(std::string("shaders/").size());
    std::ifstream in(std::string(dir) + "/" + rel);
    if (in) {
      std::stringstream ss;
      ss << in.rdbuf();
      return ss.str();
    }
  }
  const auto& table = embeddedShaders();
  auto it = table.find(path);
  if (it == table.end()) throw gl::Error("loadShaderPieces: no kernel source \"" + path + "\" (not in shaders/)");
  return it->second;
}

void expand(const std::string& path, std::vector<gl::ShaderPiece>& out, int depth) {
  if (depth > 16) throw gl::Error("loadShaderPieces: #include nesting too deep at \"" + path + "\"");
  const std::string text = readSource(path);
  std::istringstream in(text);
  std::string line, current;
  int lineNo = 0, pieceStart = 1;
  while (std::getline(in, line)) {
    ++lineNo;
    const auto first = line.find_first_not_of(" \t");
    if (first != std::string::npos && line.compare(first, 8, "#include") == 0) {
      const auto q1 = line.find('"', first);
      const auto q2 = q1 == std::string::npos ? q1 : line.find('"', q1 + 1);
      if (q2 == std::string::npos) {
        throw gl::Error(path + ":" + std::to_string(lineNo) + ": malformed #include (expected #include \"file.glsl\")");
      }
      out.push_back({path, current, pieceStart});
      current.clear();
      try {
        expand("shaders/" + line.substr(q1 + 1, q2 - q1 - 1), out, depth + 1);
      } catch (const gl::Error& e) {
        throw gl::Error(path + ":" + std::to_string(lineNo) + ": in #include: " + e.what());
      }
      pieceStart = lineNo + 1;
      continue;
    }
    current += line;
    current += '\n';
  }
  out.push_back({path, current, pieceStart});
}

std::string outputDeclarations(const KernelVariant& v) {
  std::string s;
  for (std::size_t i = 0; i < v.outputs.size(); ++i) {
    const std::string idx = std::to_string(i);
    if (v.backend == Backend::Fragment) {
      s += "layout(location = " + idx + ") out vec4 o_out" + idx + ";\n";
    } else {
      // The unit is fixed in the shader: GLSL ES 3.10 images take no glUniform1i.
      s += std::string("layout(binding = ") + idx + ", " + gl::imageFormatQualifier(v.outputs[i]) +
           ") writeonly uniform highp image2D u_image" + idx + ";\n";
      if (!v.raw) s += "vec4 o_out" + idx + ";\n";
    }
  }
  return s;
}

}  // namespace

void registerKernelSource(const std::string& name, std::string source) {
  {
    std::lock_guard<std::mutex> lock(g_registeredMutex);
    const std::uint64_t version = g_registeredVersion.fetch_add(1) + 1;
    registeredSources()["shaders/" + name + ".glsl"] = {std::move(source), version};
  }
  // The current group's variants go now; other groups' on their next use (KernelCache::get).
  if (Runtime::exists()) Runtime::current().kernels().forget(name);
}

void KernelCache::forget(const std::string& kernel) {
  const std::string prefix = kernel + "|";
  for (auto it = m_programs.begin(); it != m_programs.end();) {
    it = it->first.compare(0, prefix.size(), prefix) == 0 ? m_programs.erase(it) : std::next(it);
  }
}

std::vector<gl::ShaderPiece> loadShaderPieces(const std::string& path) {
  std::vector<gl::ShaderPiece> pieces;
  expand(path, pieces, 0);
  return pieces;
}

std::string KernelVariant::key() const {
  std::string k = kernel + "|" + backendName(backend) + (raw ? "|raw|" : "|");
  for (const auto& [n, v] : defines) k += n + "=" + v + ";";
  k += "|";
  for (gl::TextureFormat f : outputs) k += std::to_string(int(f)) + ",";
  return k;
}

std::string KernelVariant::title() const {
  std::string t = kernel;
  for (const auto& [n, v] : defines) t += " " + n + (v == "1" ? "" : "=" + v);
  return t + " [" + backendName(backend) + "]";
}


const gl::Program& KernelCache::get(const KernelVariant& v) {
  const std::string key = v.key();
  const std::uint64_t version = g_registeredVersion.load(std::memory_order_acquire);
  auto it = m_programs.find(key);
  if (it != m_programs.end()) {
    if (it->second.sources == version) return it->second.program;
    if (registrationVersion(v.kernel) <= it->second.sources) {
      it->second.sources = version;
      return it->second.program;
    }
    m_programs.erase(it);  // its source was registered again since it was compiled
  }

  const gl::Capabilities& caps = Runtime::current().caps();
  std::string header;
  for (const auto& [n, val] : v.defines) header += "#define " + n + " " + val + "\n";
  header += "#define OUTPUTS " + std::to_string(v.outputs.size()) + "\n";
  header += v.backend == Backend::Fragment ? "#define TEXSTREAM_FRAGMENT 1\n" : "#define TEXSTREAM_COMPUTE 1\n";
  // KEEP_TEXEL(): an in-place pass (Pass::inPlace) leaves the invocation's texel as it is.
  if (v.backend == Backend::Fragment) {
    header += "#define KEEP_TEXEL() discard\n";
  } else if (!v.raw) {
    header += "bool t_keepTexel = false;\n#define KEEP_TEXEL() { t_keepTexel = true; return; }\n";
  }
  if (v.backend == Backend::Compute && !v.raw) {
    header += "layout(local_size_x = " + std::to_string(kWorkgroupSize) + ", local_size_y = " +
              std::to_string(kWorkgroupSize) + ") in;\n";
  }
  header += outputDeclarations(v);

  std::vector<gl::ShaderPiece> pieces{{"<generated header>", header, 1}};
  for (auto& p : loadShaderPieces("shaders/common/prelude.glsl")) pieces.push_back(std::move(p));
  for (auto& p : loadShaderPieces("shaders/" + v.kernel + ".glsl")) pieces.push_back(std::move(p));

  std::vector<gl::ShaderStage> stages;
  if (v.raw) {
    if (v.backend != Backend::Compute) throw gl::Error("kernel \"" + v.kernel + "\" runs on the compute backend only");
    stages.push_back({GL_COMPUTE_SHADER, caps.glslHeader(430, 310), std::move(pieces)});
  } else if (v.backend == Backend::Fragment) {
    pieces.push_back({"<generated main>", "void main() { kernel(ivec2(gl_FragCoord.xy)); }\n", 1});
    const std::string vertex =
        "uniform vec4 u_rect;        // x, y, w, h in output texels\n"
        "uniform vec2 u_targetSize;  // output texture size\n"
        "void main() {\n"
        "  vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));\n"
        "  vec2 p = (u_rect.xy + corner * u_rect.zw) / u_targetSize * 2.0 - 1.0;\n"
        "  gl_Position = vec4(p, 0.0, 1.0);\n"
        "}\n";
    stages.push_back({GL_VERTEX_SHADER, caps.glslHeader(330, 300), {{"<generated rectangle vertex shader>", vertex, 1}}});
    stages.push_back({GL_FRAGMENT_SHADER, caps.glslHeader(330, 300), std::move(pieces)});
  } else {
    std::string main =
        "uniform ivec4 u_rect;  // x, y, w, h in output texels\n"
        "void main() {\n"
        "  ivec2 texel = u_rect.xy + ivec2(gl_GlobalInvocationID.xy);\n"
        "  if (texel.x >= u_rect.x + u_rect.z || texel.y >= u_rect.y + u_rect.w) return;\n";
    for (std::size_t i = 0; i < v.outputs.size(); ++i) main += "  o_out" + std::to_string(i) + " = vec4(0.0);\n";
    main += "  kernel(texel);\n  if (t_keepTexel) return;\n";
    for (std::size_t i = 0; i < v.outputs.size(); ++i) {
      main += "  imageStore(u_image" + std::to_string(i) + ", texel, o_out" + std::to_string(i) + ");\n";
    }
    main += "}\n";
    pieces.push_back({"<generated main>", main, 1});
    stages.push_back({GL_COMPUTE_SHADER, caps.glslHeader(430, 310), std::move(pieces)});
  }
  auto [pos, inserted] = m_programs.emplace(key, Entry{gl::Program(v.title(), stages), version});
  return pos->second.program;
}

gl::Program rasterProgram(std::string name, std::vector<gl::ShaderPiece> vertex, std::vector<gl::ShaderPiece> fragment) {
  const gl::Capabilities& caps = Runtime::current().caps();
  return gl::Program(std::move(name), {{GL_VERTEX_SHADER, caps.glslHeader(330, 300), std::move(vertex)},
                                       {GL_FRAGMENT_SHADER, caps.glslHeader(330, 300), std::move(fragment)}});
}

}  // namespace texstream::stream
