#pragma once
// The host's own GL in the examples that load GL through texstream's glad (EGL, GLFW,
// SDL2): a renderer that draws a texstream vector straight from its texture with the
// host's shader, and the state a host leaves bound between draws, compared before and
// after texstream's calls.
#include <glad/gl.h>

#include <stdexcept>
#include <string>

namespace example {

/// The state a renderer typically leaves set, as text (compared whole, printed on a difference).
inline std::string hostState() {
  auto ints = [](GLenum e, int n) {
    GLint v[4] = {0, 0, 0, 0};
    glGetIntegerv(e, v);
    std::string s;
    for (int i = 0; i < n; ++i) s += (i ? "," : "") + std::to_string(v[i]);
    return s;
  };
  GLint unit = 0;
  glGetIntegerv(GL_ACTIVE_TEXTURE, &unit);
  glActiveTexture(GL_TEXTURE0);
  GLint texture0 = 0;
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &texture0);
  glActiveTexture(GLenum(unit));
  GLfloat clear[4] = {0, 0, 0, 0};
  glGetFloatv(GL_COLOR_CLEAR_VALUE, clear);
  return "draw fbo " + ints(GL_DRAW_FRAMEBUFFER_BINDING, 1) + ", read fbo " + ints(GL_READ_FRAMEBUFFER_BINDING, 1) +
         ", program " + ints(GL_CURRENT_PROGRAM, 1) + ", vao " + ints(GL_VERTEX_ARRAY_BINDING, 1) + ", array buffer " +
         ints(GL_ARRAY_BUFFER_BINDING, 1) + ", active texture " + std::to_string(unit - GL_TEXTURE0) +
         ", texture0 " + std::to_string(texture0) + ", viewport " + ints(GL_VIEWPORT, 4) + ", scissor " +
         ints(GL_SCISSOR_BOX, 4) + ", blend " + std::to_string(int(glIsEnabled(GL_BLEND))) + ", depth " +
         std::to_string(int(glIsEnabled(GL_DEPTH_TEST))) + ", scissor test " +
         std::to_string(int(glIsEnabled(GL_SCISSOR_TEST))) + ", clear colour " + std::to_string(clear[0]) + "," +
         std::to_string(clear[1]) + "," + std::to_string(clear[2]) + "," + std::to_string(clear[3]) +
         ", unpack alignment " + ints(GL_UNPACK_ALIGNMENT, 1);
}

/// Draws an nx x ny grid held in a texstream vector's texture in grey (value / maxValue)
/// over the current viewport: scalar k sits in texel k / 4, channel k % 4, and texel t at
/// (t % textureWidth, t / textureWidth) (texstream::stream::Layout).
class HostRenderer {
 public:
  HostRenderer() {
    const char* vertex =
        "#version 330 core\n"
        "out vec2 v_uv;\n"
        "void main() {\n"
        "  vec2 p = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID >> 1) * 4 - 1));\n"
        "  v_uv = p * 0.5 + 0.5;\n"
        "  gl_Position = vec4(p, 0.0, 1.0);\n"
        "}\n";
    const char* fragment =
        "#version 330 core\n"
        "uniform sampler2D u_field;\n"
        "uniform ivec3 u_grid;  // nx, ny, texture width\n"
        "uniform float u_max;\n"
        "in vec2 v_uv;\n"
        "out vec4 o_colour;\n"
        "void main() {\n"
        "  ivec2 cell = min(ivec2(v_uv * vec2(u_grid.xy)), u_grid.xy - 1);\n"
        "  int k = cell.y * u_grid.x + cell.x, t = k / 4;\n"
        "  float v = texelFetch(u_field, ivec2(t % u_grid.z, t / u_grid.z), 0)[k % 4] / u_max;\n"
        "  o_colour = vec4(v, v, v, 1.0);\n"
        "}\n";
    m_program = glCreateProgram();
    for (auto [type, source] : {std::pair{GLenum(GL_VERTEX_SHADER), vertex}, std::pair{GLenum(GL_FRAGMENT_SHADER), fragment}}) {
      const GLuint s = glCreateShader(type);
      glShaderSource(s, 1, &source, nullptr);
      glCompileShader(s);
      GLint ok = 0;
      glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
      if (!ok) {
        char log[1024] = {};
        glGetShaderInfoLog(s, sizeof log, nullptr, log);
        throw std::runtime_error(std::string("host shader: ") + log);
      }
      glAttachShader(m_program, s);
      glDeleteShader(s);
    }
    glLinkProgram(m_program);
    glGenVertexArrays(1, &m_vao);
  }
  ~HostRenderer() {
    glDeleteProgram(m_program);
    glDeleteVertexArrays(1, &m_vao);
  }
  HostRenderer(const HostRenderer&) = delete;
  HostRenderer& operator=(const HostRenderer&) = delete;

  void draw(GLuint texture, int textureWidth, int nx, int ny, float maxValue) const {
    glUseProgram(m_program);
    glBindVertexArray(m_vao);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, texture);
    glUniform1i(glGetUniformLocation(m_program, "u_field"), 0);
    glUniform3i(glGetUniformLocation(m_program, "u_grid"), nx, ny, textureWidth);
    glUniform1f(glGetUniformLocation(m_program, "u_max"), maxValue);
    glDrawArrays(GL_TRIANGLES, 0, 3);
  }
  GLuint program() const { return m_program; }
  GLuint vertexArray() const { return m_vao; }

 private:
  GLuint m_program = 0, m_vao = 0;
};

/// The grey level (0..255) the renderer drew at window pixel (x, y) of the current framebuffer.
inline int greyAt(int x, int y) {
  unsigned char rgba[4] = {0, 0, 0, 0};
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(x, y, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  return rgba[0];
}

}  // namespace example
