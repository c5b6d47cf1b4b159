#include "HeightFieldRenderer.h"

#include <texstream/gl/Error.h>
#include <texstream/stream/Vector.h>

#include <glad/gl.h>

namespace texstream::app {

namespace {

const char* kVertex = R"glsl(
uniform sampler2D u_heights;  // the vector's RGBA32F texture
uniform ivec2 u_grid;         // W, H nodes
uniform mat4 u_viewProjection;
uniform float u_spacing;      // h
uniform float u_heightScale;
out vec3 v_world;
out vec3 v_normal;
out float v_height;

// Node (x, y) is element y W + x: texel t = i / 4, channel i % 4, at (t % width, t / width).
float heightAt(int x, int y) {
  if (x < 0 || y < 0 || x >= u_grid.x || y >= u_grid.y) return 0.0;  // Dirichlet rim
  int i = y * u_grid.x + x;
  int t = i / 4;
  int width = textureSize(u_heights, 0).x;
  return texelFetch(u_heights, ivec2(t % width, t / width), 0)[i % 4];
}

void main() {
  // Instance r draws the strip between vertex rows r and r + 1; rows and columns include
  // the rim, so vertex (gx, gy) is node (gx - 1, gy - 1).
  int gx = gl_VertexID / 2;
  int gy = gl_InstanceID + 1 - gl_VertexID % 2;
  int x = gx - 1, y = gy - 1;
  float s = u_heightScale;
  float hc = heightAt(x, y) * s;
  float hl = heightAt(x - 1, y) * s, hr = heightAt(x + 1, y) * s;
  float hd = heightAt(x, y - 1) * s, hu = heightAt(x, y + 1) * s;
  v_normal = vec3(hl - hr, 2.0 * u_spacing, hd - hu);
  v_world = vec3(float(gx) * u_spacing, hc, float(gy) * u_spacing);
  v_height = hc / max(s, 1e-6);
  gl_Position = u_viewProjection * vec4(v_world, 1.0);
}
)glsl";

const char* kFragment = R"glsl(
in vec3 v_world;
in vec3 v_normal;
in float v_height;
uniform vec3 u_eye;
uniform float u_colorScale;
out vec4 o_color;

void main() {
  vec3 n = normalize(v_normal);
  vec3 v = normalize(u_eye - v_world);
  if (dot(n, v) < 0.0) n = -n;  // seen from below
  vec3 l = normalize(vec3(-0.4, 1.0, 0.3));
  float t = clamp(0.5 + 0.5 * v_height * u_colorScale, 0.0, 1.0);
  vec3 base = mix(vec3(0.02, 0.16, 0.36), vec3(0.50, 0.85, 1.00), t);
  float diffuse = max(dot(n, l), 0.0);
  float specular = pow(max(dot(n, normalize(l + v)), 0.0), 80.0);
  float fresnel = pow(1.0 - max(dot(n, v), 0.0), 4.0);
  vec3 sky = vec3(0.75, 0.85, 0.95);
  vec3 c = base * (0.30 + 0.70 * diffuse) + 0.6 * specular + 0.35 * fresnel * sky;
  o_color = vec4(c, 1.0);
}
)glsl";

}  // namespace

HeightFieldRenderer::HeightFieldRenderer()
    : m_surface("wave.heightfield", {"apps/wave/heightfield.vert", kVertex}, {"apps/wave/heightfield.frag", kFragment}) {}

void HeightFieldRenderer::draw(const stream::Vector& heights, int gridWidth, int gridHeight, float spacing,
                               const HeightFieldView& view) {
  if (std::size_t(gridWidth) * std::size_t(gridHeight) != heights.size())
    throw gl::Error("HeightFieldRenderer::draw(\"" + heights.name() + "\"): vector has n=" +
                    std::to_string(heights.size()) + ", grid is " + std::to_string(gridWidth) + "x" +
                    std::to_string(gridHeight));
  m_surface.begin(view, {{"u_heights", heights.texture().id()}});
  glUniform2i(m_surface.uniform("u_grid"), gridWidth, gridHeight);
  glUniform1f(m_surface.uniform("u_spacing"), spacing);
  glUniform1f(m_surface.uniform("u_heightScale"), view.heightScale);
  glUniform1f(m_surface.uniform("u_colorScale"), view.colorScale);
  // (W + 2) x (H + 2) vertices with the rim: H + 1 strips of 2 (W + 2) vertices.
  glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 2 * (gridWidth + 2), gridHeight + 1);
  m_surface.end();
}

}  // namespace texstream::app
