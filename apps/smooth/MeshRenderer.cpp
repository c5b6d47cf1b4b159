#include "MeshRenderer.h"

#include <texstream/geometry/CurvatureFlow.h>

#include <glad/gl.h>

namespace texstream::app {

namespace {

const char* kVertex = R"glsl(
uniform sampler2D u_positions;  // CurvatureFlow::positions(): (x, y, z, 0) per vertex texel
uniform sampler2D u_shading;    // CurvatureFlow::shading(): (normal, H) per vertex texel
uniform sampler2D u_triangles;  // CurvatureFlow::triangleTexture(): (a, b, c) per triangle
uniform int u_vertexShift;      // log2 of the vertex textures' width
uniform int u_triangleShift;    // log2 of the triangle texture's width
uniform mat4 u_viewProjection;
out vec3 v_world;
out vec3 v_normal;
out float v_curvature;
out vec3 v_barycentric;

ivec2 texelOf(int i, int shift) { return ivec2(i & ((1 << shift) - 1), i >> shift); }

void main() {
  int t = gl_VertexID / 3;
  int k = gl_VertexID - 3 * t;
  ivec3 triangle = ivec3(texelFetch(u_triangles, texelOf(t, u_triangleShift), 0).xyz);
  int v = triangle[k];
  vec3 p = texelFetch(u_positions, texelOf(v, u_vertexShift), 0).xyz;
  vec4 s = texelFetch(u_shading, texelOf(v, u_vertexShift), 0);
  v_world = p;
  v_normal = s.xyz;
  v_curvature = s.w;
  v_barycentric = vec3(k == 0 ? 1.0 : 0.0, k == 1 ? 1.0 : 0.0, k == 2 ? 1.0 : 0.0);
  gl_Position = u_viewProjection * vec4(p, 1.0);
}
)glsl";

const char* kFragment = R"glsl(
in vec3 v_world;
in vec3 v_normal;
in float v_curvature;
in vec3 v_barycentric;
uniform vec3 u_eye;
uniform int u_colorByCurvature;
uniform float u_curvatureScale;
uniform int u_wireframe;
out vec4 o_color;

void main() {
  vec3 n = v_normal;
  // Vertices without a normal (unused, or all triangles flat): the face's own.
  if (dot(n, n) < 1e-12) n = cross(dFdx(v_world), dFdy(v_world));
  n = normalize(n);
  vec3 v = normalize(u_eye - v_world);
  if (dot(n, v) < 0.0) n = -n;  // open meshes are seen from both sides
  vec3 base = vec3(0.78, 0.76, 0.72);
  if (u_colorByCurvature != 0) {
    float h = clamp(v_curvature * u_curvatureScale, -1.0, 1.0);
    vec3 cold = vec3(0.15, 0.35, 0.85), warm = vec3(0.85, 0.22, 0.15), mid = vec3(0.86, 0.86, 0.84);
    base = h < 0.0 ? mix(mid, cold, -h) : mix(mid, warm, h);
  }
  vec3 key = normalize(vec3(-0.4, 0.8, 0.45));
  float diffuse = 0.55 * max(dot(n, key), 0.0) + 0.35 * max(dot(n, v), 0.0);
  float specular = 0.25 * pow(max(dot(n, normalize(key + v)), 0.0), 40.0);
  vec3 c = base * (0.22 + diffuse) + specular;
  if (u_wireframe != 0) c = mix(c, vec3(0.08, 0.09, 0.11), 0.85 * wireframeEdge(v_barycentric));
  o_color = vec4(c, 1.0);
}
)glsl";

}  // namespace

MeshRenderer::MeshRenderer()
    : m_surface("smooth.mesh", {"apps/smooth/mesh.vert", kVertex}, {"apps/smooth/mesh.frag", kFragment}) {}

void MeshRenderer::draw(const geometry::CurvatureFlow& flow, const MeshView& view) {
  m_surface.begin(view, {{"u_positions", flow.positions().texture().id()},
                         {"u_shading", flow.shading().texture().id()},
                         {"u_triangles", flow.triangleTexture().id()}});
  glUniform1i(m_surface.uniform("u_vertexShift"), flow.vertexShift());
  glUniform1i(m_surface.uniform("u_triangleShift"), flow.triangleShift());
  glUniform1i(m_surface.uniform("u_colorByCurvature"), view.colorByCurvature ? 1 : 0);
  glUniform1f(m_surface.uniform("u_curvatureScale"), view.curvatureScale);
  glUniform1i(m_surface.uniform("u_wireframe"), view.wireframe ? 1 : 0);
  glDrawArrays(GL_TRIANGLES, 0, GLsizei(3 * flow.sourceMesh().triangleCount()));
  m_surface.end();
}

}  // namespace texstream::app
