#include "ParamRenderer.h"

#include <texstream/geometry/Mesh.h>

#include <glad/gl.h>

#include <algorithm>
#include <vector>

namespace texstream::app {

namespace {

// u_mode: 0 the surface in 3D, 1 the (u, v) plane, 2 the pins (6 vertices a square).
const char* kVertex = R"glsl(
uniform sampler2D u_positions;  // (x, y, z, 0) per vertex texel
uniform sampler2D u_triangles;  // (a, b, c, 0) per triangle texel
uniform sampler2D u_uv;         // (u, v) per vertex, two vertices a texel
uniform int u_mode;
uniform mat4 u_viewProjection;
uniform vec2 u_uvScale;
uniform vec2 u_uvOffset;
uniform vec2 u_pins[2];
uniform vec2 u_pinSize;         // half the square, in clip units
out vec3 v_world;
out vec2 v_uv;
out vec3 v_barycentric;
flat out int v_pin;

ivec2 texelOf(sampler2D s, int i) {
  int w = textureSize(s, 0).x;
  return ivec2(i % w, i / w);
}

void main() {
  v_pin = -1;
  if (u_mode == 2) {
    int pin = gl_VertexID / 6;
    int corner = gl_VertexID - 6 * pin;
    vec2 offsets[6] = vec2[6](vec2(-1, -1), vec2(1, -1), vec2(1, 1), vec2(-1, -1), vec2(1, 1), vec2(-1, 1));
    v_pin = pin;
    v_world = vec3(0.0);
    v_uv = u_pins[pin];
    v_barycentric = vec3(1.0);
    gl_Position = vec4(u_pins[pin] * u_uvScale + u_uvOffset + offsets[corner] * u_pinSize, 0.0, 1.0);
    return;
  }
  int t = gl_VertexID / 3;
  int k = gl_VertexID - 3 * t;
  ivec3 triangle = ivec3(texelFetch(u_triangles, texelOf(u_triangles, t), 0).xyz);
  int v = triangle[k];
  vec3 p = texelFetch(u_positions, texelOf(u_positions, v), 0).xyz;
  vec4 pair = texelFetch(u_uv, texelOf(u_uv, v / 2), 0);
  vec2 uv = (v % 2 == 0) ? pair.xy : pair.zw;
  v_world = p;
  v_uv = uv;
  v_barycentric = vec3(k == 0 ? 1.0 : 0.0, k == 1 ? 1.0 : 0.0, k == 2 ? 1.0 : 0.0);
  gl_Position = u_mode == 0 ? u_viewProjection * vec4(p, 1.0) : vec4(uv * u_uvScale + u_uvOffset, 0.0, 1.0);
}
)glsl";

const char* kFragment = R"glsl(
in vec3 v_world;
in vec2 v_uv;
in vec3 v_barycentric;
flat in int v_pin;
uniform int u_mode;
uniform vec3 u_eye;
uniform float u_checkerFrequency;
uniform int u_wireframe;
uniform int u_activePin;
out vec4 o_color;

void main() {
  if (u_mode == 2) {
    o_color = v_pin == u_activePin ? vec4(1.0, 0.55, 0.1, 1.0) : vec4(1.0, 0.9, 0.2, 1.0);
    return;
  }
  vec2 cell = floor(v_uv * u_checkerFrequency);
  float checker = mod(cell.x + cell.y, 2.0);
  vec3 base = mix(vec3(0.92, 0.92, 0.9), vec3(0.2, 0.45, 0.75), checker);
  vec3 c = base;
  if (u_mode == 0) {
    vec3 n = normalize(cross(dFdx(v_world), dFdy(v_world)));
    vec3 v = normalize(u_eye - v_world);
    if (dot(n, v) < 0.0) n = -n;
    vec3 key = normalize(vec3(-0.4, 0.8, 0.45));
    c = base * (0.3 + 0.45 * max(dot(n, key), 0.0) + 0.35 * max(dot(n, v), 0.0));
  } else if (!gl_FrontFacing) {
    c = mix(c, vec3(0.9, 0.1, 0.1), 0.75);  // a flipped triangle
  }
  if (u_wireframe != 0) c = mix(c, vec3(0.1, 0.1, 0.12), 0.5 * wireframeEdge(v_barycentric));
  o_color = vec4(c, 1.0);
}
)glsl";

}  // namespace

ParamRenderer::ParamRenderer(const geometry::Mesh& mesh)
    : m_surface("param.mesh", {"apps/param/mesh.vert", kVertex}, {"apps/param/mesh.frag", kFragment}),
      m_triangleCount(int(mesh.triangleCount())) {
  // Positions relative to the mesh's centre keep float precision far from the origin.
  const std::vector<double> b = mesh.bounds();
  const double center[3] = {(b[0] + b[3]) / 2, (b[1] + b[4]) / 2, (b[2] + b[5]) / 2};
  std::vector<float> positions(4 * mesh.vertexCount(), 0.0f), triangles(4 * mesh.triangleCount(), 0.0f);
  for (std::size_t v = 0; v < mesh.vertexCount(); ++v)
    for (int c = 0; c < 3; ++c) positions[4 * v + std::size_t(c)] = float(mesh.positions[3 * v + std::size_t(c)] - center[c]);
  for (std::size_t t = 0; t < mesh.triangleCount(); ++t)
    for (int c = 0; c < 3; ++c) triangles[4 * t + std::size_t(c)] = float(mesh.triangles[3 * t + std::size_t(c)]);
  m_positions = stream::Vector(positions.size(), "param.positions");
  m_positions.upload(positions);
  m_triangles = stream::Vector(triangles.size(), "param.triangles");
  m_triangles.upload(triangles);
}

void ParamRenderer::begin(const stream::Vector& uv, const ParamView& view, int mode) {
  m_surface.begin(view,
                  {{"u_positions", m_positions.texture().id()}, {"u_triangles", m_triangles.texture().id()},
                   {"u_uv", uv.texture().id()}},
                  mode == 0);
  glUniform1i(m_surface.uniform("u_mode"), mode);
  glUniform2f(m_surface.uniform("u_uvScale"), view.uvScale.x, view.uvScale.y);
  glUniform2f(m_surface.uniform("u_uvOffset"), view.uvOffset.x, view.uvOffset.y);
  const float pins[4] = {view.pins[0].x, view.pins[0].y, view.pins[1].x, view.pins[1].y};
  glUniform2fv(m_surface.uniform("u_pins"), 2, pins);
  glUniform1f(m_surface.uniform("u_checkerFrequency"), view.checkerFrequency);
  glUniform1i(m_surface.uniform("u_wireframe"), view.wireframe ? 1 : 0);
  glUniform1i(m_surface.uniform("u_activePin"), view.activePin);
}

void ParamRenderer::drawSurface(const stream::Vector& uv, const ParamView& view) {
  begin(uv, view, 0);
  glDrawArrays(GL_TRIANGLES, 0, GLsizei(3 * m_triangleCount));
  m_surface.end();
}

void ParamRenderer::drawPlane(const stream::Vector& uv, const ParamView& view) {
  begin(uv, view, 1);
  glDrawArrays(GL_TRIANGLES, 0, GLsizei(3 * m_triangleCount));
  GLint viewport[4];
  glGetIntegerv(GL_VIEWPORT, viewport);
  glUniform1i(m_surface.uniform("u_mode"), 2);
  glUniform2f(m_surface.uniform("u_pinSize"), 6.0f / float(std::max(viewport[2], 1)),
              6.0f / float(std::max(viewport[3], 1)));
  glDrawArrays(GL_TRIANGLES, 0, 12);
  m_surface.end();
}

}  // namespace texstream::app
