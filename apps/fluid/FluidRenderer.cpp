#include "FluidRenderer.h"

#include <texstream/gl/StateGuard.h>
#include <texstream/stream/Reduction.h>

#include <texstream/stream/KernelCache.h>
#include <texstream/stream/Runtime.h>

#include <glad/gl.h>

namespace texstream::app {

namespace {

const char* kQuadVertex = R"glsl(
out vec2 v_uv;
void main() {
  vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
  v_uv = corner;
  gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
)glsl";

const char* kFieldFragment = R"glsl(
in vec2 v_uv;
uniform sampler2D u_image;     // node texture (dye grid for dye)
uniform sampler2D u_boundary;  // node texture: .x type
uniform sampler2D u_scale;     // 1x1: largest magnitude of the image
uniform int u_mode;            // 0 dye, 1 velocity, 2 pressure, 3 divergence, 4 vorticity, 5 type
uniform float u_dim;
out vec4 o_color;

vec4 bilinear(sampler2D f, vec2 uv) {
  ivec2 size = textureSize(f, 0);
  vec2 p = uv * vec2(size - 1);
  ivec2 i = clamp(ivec2(floor(p)), ivec2(0), size - 2);
  vec2 w = clamp(p - vec2(i), 0.0, 1.0);
  vec4 a = texelFetch(f, i, 0), b = texelFetch(f, i + ivec2(1, 0), 0);
  vec4 c = texelFetch(f, i + ivec2(0, 1), 0), d = texelFetch(f, i + ivec2(1, 1), 0);
  return mix(mix(a, b, w.x), mix(c, d, w.x), w.y);
}

vec3 hsv(float h, float s, float v) {
  vec3 k = clamp(abs(mod(h * 6.0 + vec3(0.0, 4.0, 2.0), 6.0) - 3.0) - 1.0, 0.0, 1.0);
  return v * mix(vec3(1.0), k, s);
}

vec3 diverging(float t) {  // t in [-1, 1]
  vec3 blue = vec3(0.23, 0.30, 0.75), white = vec3(0.95), red = vec3(0.71, 0.02, 0.15);
  return t < 0.0 ? mix(white, blue, min(-t, 1.0)) : mix(white, red, min(t, 1.0));
}

void main() {
  vec4 f = bilinear(u_image, v_uv);
  float scale = max(texelFetch(u_scale, ivec2(0), 0).x, 1e-12);
  vec3 color;
  if (u_mode == 0) color = clamp(f.rgb, 0.0, 1.0);
  else if (u_mode == 1) color = hsv(atan(f.y, f.x) / 6.2831853 + 0.5, 0.85, clamp(length(f.xy) / scale, 0.0, 1.0));
  else if (u_mode == 5) color = vec3(f.x / 2.0);
  else color = diverging(f.x / scale);
  ivec2 size = textureSize(u_boundary, 0);
  int type = int(texelFetch(u_boundary, ivec2(v_uv * vec2(size - 1) + 0.5), 0).x + 0.5);
  if (type == 1) color = vec3(0.35);
  if (type == 2) color = mix(color, vec3(0.2, 0.6, 0.3), 0.5);
  o_color = vec4(color * u_dim, 1.0);
}
)glsl";

const char* kPointsVertex = R"glsl(
uniform sampler2D u_particles;  // .xy in node coordinates
uniform vec2 u_extent;          // (nx - 1, ny - 1)
out float v_age;
void main() {
  int width = textureSize(u_particles, 0).x;
  vec4 p = texelFetch(u_particles, ivec2(gl_VertexID % width, gl_VertexID / width), 0);
  v_age = p.z;
  gl_Position = vec4(p.xy / u_extent * 2.0 - 1.0, 0.0, 1.0);
  gl_PointSize = 2.0;
}
)glsl";

const char* kPointsFragment = R"glsl(
in float v_age;
out vec4 o_color;
void main() {
  if (v_age < 0.0) discard;  // waiting to be reborn
  o_color = vec4(1.0, 0.95, 0.8, 0.8);
}
)glsl";

gl::Program program(const char* name, const char* vertex, const char* fragment) {
  return stream::rasterProgram(name, {{std::string("<") + name + " vertex>", vertex, 1}},
                               {{std::string("<") + name + " fragment>", fragment, 1}});
}

}  // namespace

FluidRenderer::FluidRenderer()
    : m_field(program("fluid display", kQuadVertex, kFieldFragment)),
      m_points(program("fluid particles", kPointsVertex, kPointsFragment)),
      m_vao("fluid.display.vao"),
      m_scale("fluid.display.scale", 1.0f) {}

void FluidRenderer::draw(fluid::FluidSolver& solver, fluid::Field field, bool particles) {
  // The field image and its scale are texstream passes (they keep GL state as they found it).
  solver.fieldImage(field, m_image);
  if (field != fluid::Field::Dye && field != fluid::Field::Type) {
    if (solver.projects()) {
      stream::maxAbs(m_image, m_scale);
    } else {
      // The reduction needs RGBA32F targets: a fixed scale, two cells a step.
      const double speed = 2.0 * solver.h() / solver.dt();
      m_scale.write(float(field == fluid::Field::Velocity ? speed : speed / solver.h()));
    }
  }

  gl::StateGuard guard;  // restores the host's state after the draws below
  glDisable(GL_DEPTH_TEST);
  glBindVertexArray(m_vao.id());
  glUseProgram(m_field.id());
  gl::StateGuard::bindTexture(0, GL_TEXTURE_2D, m_image.texture().id());
  gl::StateGuard::bindTexture(1, GL_TEXTURE_2D, solver.boundary().texture().id());
  gl::StateGuard::bindTexture(2, GL_TEXTURE_2D, m_scale.texture().id());
  glUniform1i(m_field.uniformLocation("u_image"), 0);
  glUniform1i(m_field.uniformLocation("u_boundary"), 1);
  glUniform1i(m_field.uniformLocation("u_scale"), 2);
  glUniform1i(m_field.uniformLocation("u_mode"), int(field));
  glUniform1f(m_field.uniformLocation("u_dim"), particles && field == fluid::Field::Dye ? 0.55f : 1.0f);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);

  if (particles && solver.particleCount() > 0) {
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    const bool pointSizeSwitch = stream::Runtime::current().caps().programPointSize;  // always on in ES
    if (pointSizeSwitch) glEnable(GL_PROGRAM_POINT_SIZE);
    glUseProgram(m_points.id());
    gl::StateGuard::bindTexture(0, GL_TEXTURE_2D, solver.particles().id());
    glUniform1i(m_points.uniformLocation("u_particles"), 0);
    glUniform2f(m_points.uniformLocation("u_extent"), float(solver.nx() - 1), float(solver.ny() - 1));
    glDrawArrays(GL_POINTS, 0, solver.particleCount());
    if (pointSizeSwitch) glDisable(GL_PROGRAM_POINT_SIZE);
    glDisable(GL_BLEND);
  }
}

}  // namespace texstream::app
