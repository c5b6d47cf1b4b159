#include "FluidRenderer.h"

#include <texstream/gl/StateGuard.h>
#include <texstream/stream/Reduction.h>

#include <texstream/stream/KernelCache.h>
#include <texstream/stream/Runtime.h>

#include <glad/gl.h>

#include <algorithm>
#include <cmath>

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

// Shared by the field and arrow programs.
const char* kSampling = R"glsl(
vec4 bilinear(sampler2D f, vec2 uv) {
  ivec2 size = textureSize(f, 0);
  vec2 p = uv * vec2(size - 1);
  ivec2 i = clamp(ivec2(floor(p)), ivec2(0), size - 2);
  vec2 w = clamp(p - vec2(i), 0.0, 1.0);
  vec4 a = texelFetch(f, i, 0), b = texelFetch(f, i + ivec2(1, 0), 0);
  vec4 c = texelFetch(f, i + ivec2(0, 1), 0), d = texelFetch(f, i + ivec2(1, 1), 0);
  return mix(mix(a, b, w.x), mix(c, d, w.x), w.y);
}

int nodeType(sampler2D boundary, ivec2 node) {
  ivec2 size = textureSize(boundary, 0);
  return int(texelFetch(boundary, clamp(node, ivec2(0), size - 1), 0).x + 0.5);
}
)glsl";

const char* kFieldFragment = R"glsl(
in vec2 v_uv;
uniform sampler2D u_image;     // node texture (dye grid for dye)
uniform sampler2D u_aux;       // node texture: what a dye ramp colours by (|vorticity| .x, or velocity .xy)
uniform sampler2D u_boundary;  // node texture: .x type, .yz prescribed velocity
uniform sampler2D u_scale;     // 1x1: largest magnitude of the image
uniform sampler2D u_auxScale;  // 1x1: largest magnitude of u_aux
uniform int u_mode;            // 0 dye, 1 velocity, 2 pressure, 3 divergence, 4 vorticity, 5 type
uniform int u_dyeColors;       // 0 splat, 1 single, 2 ramp by vorticity, 3 ramp by speed
uniform vec3 u_dyeColor;
uniform int u_shading;
uniform float u_dim;
out vec4 o_color;

vec3 hsv(float h, float s, float v) {
  vec3 k = clamp(abs(mod(h * 6.0 + vec3(0.0, 4.0, 2.0), 6.0) - 3.0) - 1.0, 0.0, 1.0);
  return v * mix(vec3(1.0), k, s);
}

vec3 diverging(float t) {  // t in [-1, 1]
  vec3 blue = vec3(0.23, 0.30, 0.75), white = vec3(0.95), red = vec3(0.71, 0.02, 0.15);
  return t < 0.0 ? mix(white, blue, min(-t, 1.0)) : mix(white, red, min(t, 1.0));
}

// A temperature ramp, t in [0, 1]: black, purple, red, orange, yellow, white.
vec3 temperature(float t) {
  t = clamp(t, 0.0, 1.0) * 5.0;
  vec3 c0 = vec3(0.02, 0.01, 0.06), c1 = vec3(0.36, 0.07, 0.45), c2 = vec3(0.80, 0.15, 0.25);
  vec3 c3 = vec3(0.98, 0.50, 0.10), c4 = vec3(1.00, 0.85, 0.30), c5 = vec3(1.00, 1.00, 0.92);
  if (t < 1.0) return mix(c0, c1, t);
  if (t < 2.0) return mix(c1, c2, t - 1.0);
  if (t < 3.0) return mix(c2, c3, t - 2.0);
  if (t < 4.0) return mix(c3, c4, t - 3.0);
  return mix(c4, c5, t - 4.0);
}

float density(vec3 dye) { return clamp(max(dye.r, max(dye.g, dye.b)), 0.0, 1.0); }

vec3 dyeColor(vec4 f) {
  float d = density(f.rgb);
  if (u_dyeColors == 0) return clamp(f.rgb, 0.0, 1.0);
  if (u_dyeColors == 1) return u_dyeColor * d;
  vec4 a = bilinear(u_aux, v_uv);
  float scale = max(texelFetch(u_auxScale, ivec2(0), 0).x, 1e-12);
  float q = u_dyeColors == 2 ? abs(a.x) / scale : length(a.xy) / scale;
  // Still dye stays visible (dark red), fast or swirling dye glows.
  return temperature(0.25 + 0.75 * sqrt(clamp(q, 0.0, 1.0))) * d;
}

// Light from the upper left on the dye's density seen as a height field.
float shade() {
  ivec2 size = textureSize(u_image, 0);
  vec2 texel = 1.0 / vec2(size - 1);
  float l = density(bilinear(u_image, v_uv - vec2(texel.x, 0.0)).rgb);
  float r = density(bilinear(u_image, v_uv + vec2(texel.x, 0.0)).rgb);
  float b = density(bilinear(u_image, v_uv - vec2(0.0, texel.y)).rgb);
  float t = density(bilinear(u_image, v_uv + vec2(0.0, texel.y)).rgb);
  vec3 n = normalize(vec3(l - r, b - t, 0.08));
  return clamp(0.55 + 0.6 * dot(n, normalize(vec3(-0.5, 0.5, 0.7))), 0.45, 1.15);
}

void main() {
  vec4 f = bilinear(u_image, v_uv);
  float scale = max(texelFetch(u_scale, ivec2(0), 0).x, 1e-12);
  vec3 color;
  if (u_mode == 0) {
    color = dyeColor(f);
    if (u_shading == 1) color *= shade();
  } else if (u_mode == 1) {
    color = hsv(atan(f.y, f.x) / 6.2831853 + 0.5, 0.85, clamp(length(f.xy) / scale, 0.0, 1.0));
  } else if (u_mode == 5) {
    color = vec3(f.x / 2.0);
  } else {
    color = diverging(f.x / scale);
  }
  // Solid nodes: hatched grey with a light rim where fluid is next to them; solids that move
  // (a lid, an inlet) amber; outlets green.
  ivec2 size = textureSize(u_boundary, 0);
  ivec2 node = ivec2(v_uv * vec2(size - 1) + 0.5);
  vec4 here = texelFetch(u_boundary, node, 0);
  int type = int(here.x + 0.5);
  if (type == 1) {
    float stripe = step(0.5, fract((gl_FragCoord.x + gl_FragCoord.y) / 10.0));
    color = mix(vec3(0.24, 0.26, 0.30), vec3(0.33, 0.35, 0.40), stripe);
    if (length(here.yz) > 0.0) color = mix(color, vec3(0.95, 0.62, 0.18), 0.65);
    bool rim = nodeType(u_boundary, node + ivec2(1, 0)) == 0 || nodeType(u_boundary, node - ivec2(1, 0)) == 0 ||
               nodeType(u_boundary, node + ivec2(0, 1)) == 0 || nodeType(u_boundary, node - ivec2(0, 1)) == 0;
    if (rim) color = mix(color, vec3(0.85, 0.88, 0.95), 0.6);
  }
  if (type == 2) color = mix(color, vec3(0.2, 0.7, 0.35), 0.5);
  o_color = vec4(color * u_dim, 1.0);
}
)glsl";

// One arrow per cell of a grid over the view: six vertices (shaft, two head strokes), the
// velocity sampled at the cell's centre; arrows at solid nodes or at rest collapse to a point.
const char* kArrowsVertex = R"glsl(
uniform sampler2D u_velocity;  // node texture .xy
uniform sampler2D u_boundary;
uniform sampler2D u_scale;     // 1x1: the largest |u| or |v|
uniform ivec2 u_count;         // arrows per row and column
uniform vec2 u_pixel;          // the size of a pixel in clip units (2 / viewport)
uniform float u_spacing;       // pixels between arrows
void main() {
  int arrow = gl_VertexID / 6, corner = gl_VertexID - 6 * arrow;
  ivec2 a = ivec2(arrow % u_count.x, arrow / u_count.x);
  vec2 uv = (vec2(a) + 0.5) / vec2(u_count);
  vec2 center = uv * 2.0 - 1.0;
  vec2 velocity = bilinear(u_velocity, uv).xy;
  float scale = max(texelFetch(u_scale, ivec2(0), 0).x, 1e-12);
  vec2 v = velocity / scale;
  float len = min(length(v), 1.0);
  ivec2 size = textureSize(u_boundary, 0);
  bool solid = nodeType(u_boundary, ivec2(uv * vec2(size - 1) + 0.5)) == 1;
  if (solid || len < 0.03) {
    gl_Position = vec4(center, 0.0, 1.0);
    return;
  }
  // In pixels: the view keeps the grid's aspect, so directions carry over unscaled.
  vec2 dir = normalize(v), side = vec2(-dir.y, dir.x);
  float shaft = len * 0.9 * u_spacing, head = min(0.35 * shaft, 0.3 * u_spacing);
  vec2 tail = -0.5 * shaft * dir, tip = 0.5 * shaft * dir;
  vec2 p = tail;
  if (corner == 1 || corner == 2 || corner == 4) p = tip;
  if (corner == 3) p = tip - head * (dir + 0.6 * side);
  if (corner == 5) p = tip - head * (dir - 0.6 * side);
  gl_Position = vec4(center + p * u_pixel, 0.0, 1.0);
}
)glsl";

const char* kArrowsFragment = R"glsl(
uniform vec4 u_color;
out vec4 o_color;
void main() { o_color = u_color; }
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

gl::Program program(const char* name, std::vector<const char*> vertex, std::vector<const char*> fragment) {
  auto pieces = [&](const char* stage, const std::vector<const char*>& parts) {
    std::vector<gl::ShaderPiece> out;
    for (std::size_t k = 0; k < parts.size(); ++k)
      out.push_back({std::string("<") + name + " " + stage + " " + std::to_string(k) + ">", parts[k], 1});
    return out;
  };
  return stream::rasterProgram(name, pieces("vertex", vertex), pieces("fragment", fragment));
}

}  // namespace

FluidRenderer::FluidRenderer()
    : m_field(program("fluid display", {kQuadVertex}, {kSampling, kFieldFragment})),
      m_points(program("fluid particles", {kPointsVertex}, {kPointsFragment})),
      m_arrows(program("fluid arrows", {kSampling, kArrowsVertex}, {kArrowsFragment})),
      m_vao("fluid.display.vao"),
      m_scale("fluid.display.scale", 1.0f),
      m_auxScale("fluid.display.aux_scale", 1.0f),
      m_velocityScale("fluid.display.velocity_scale", 1.0f) {}

std::optional<float> FluidRenderer::range() {
  if (m_hasRange && m_fixedRange) return m_fixedRange;
  if (m_readback.pending() && m_readback.ready()) {
    const float v = m_readback.value()[0];
    m_range = v;
  }
  return m_hasRange ? m_range : std::nullopt;
}

void FluidRenderer::draw(fluid::FluidSolver& solver, const FluidSettings& settings) {
  const fluid::Field field = settings.display;
  const bool dye = field == fluid::Field::Dye;
  const bool ramp = dye && (settings.dyeColors == DyeColors::Vorticity || settings.dyeColors == DyeColors::Speed);
  // The images and their scales are texstream passes (they keep GL state as they found it).
  solver.fieldImage(field, m_image);
  // Each map's scale is its field's largest magnitude, a GPU reduction; without RGBA32F
  // targets (the half-float mode) reductions cannot run: a fixed scale from a speed of two
  // cells a step, c: c for the velocity, c / h for the vorticity, and for the pressure c^2 / 4
  // and the divergence the projection leaves c / (50 h), of the order of their largest
  // values in the scenes.
  const double cellSpeed = 2.0 * solver.h() / solver.dt();
  auto fixedScale = [&](fluid::Field shown) {
    switch (shown) {
      case fluid::Field::Velocity: return float(cellSpeed);
      case fluid::Field::Pressure: return float(0.25 * cellSpeed * cellSpeed);
      case fluid::Field::Divergence: return float(0.02 * cellSpeed / solver.h());
      default: return float(cellSpeed / solver.h());
    }
  };
  auto scaleOf = [&](const stream::GridField& image, fluid::Field shown, stream::Scalar& scale) {
    if (!solver.halfFloatMode()) stream::maxAbs(image, scale);
    else scale.write(fixedScale(shown));
  };
  const fluid::Field rampBy = settings.dyeColors == DyeColors::Vorticity ? fluid::Field::Vorticity : fluid::Field::Velocity;
  if (!dye && field != fluid::Field::Type) scaleOf(m_image, field, m_scale);
  if (ramp) {
    solver.fieldImage(rampBy, m_aux);
    scaleOf(m_aux, rampBy, m_auxScale);
  }
  if (settings.arrows) {
    solver.fieldImage(fluid::Field::Velocity, m_velocity);
    scaleOf(m_velocity, fluid::Field::Velocity, m_velocityScale);
  }
  // The legend's range: one read-back in flight at a time, never waited for (a fixed scale
  // is known already).
  const bool hadRange = m_hasRange;
  m_hasRange = ramp || (!dye && field != fluid::Field::Type);
  if (m_hasRange != hadRange) m_range.reset();
  m_fixedRange.reset();
  if (m_hasRange && solver.halfFloatMode()) m_fixedRange = fixedScale(ramp ? rampBy : field);
  if (m_hasRange && !m_fixedRange && !m_readback.pending()) m_readback.start(ramp ? m_auxScale : m_scale);

  gl::StateGuard guard;  // restores the host's state after the draws below
  glDisable(GL_DEPTH_TEST);
  glBindVertexArray(m_vao.id());
  glUseProgram(m_field.id());
  gl::StateGuard::bindTexture(0, GL_TEXTURE_2D, m_image.texture().id());
  gl::StateGuard::bindTexture(1, GL_TEXTURE_2D, solver.boundary().texture().id());
  gl::StateGuard::bindTexture(2, GL_TEXTURE_2D, m_scale.texture().id());
  gl::StateGuard::bindTexture(3, GL_TEXTURE_2D, (ramp ? m_aux : m_image).texture().id());
  gl::StateGuard::bindTexture(4, GL_TEXTURE_2D, m_auxScale.texture().id());
  glUniform1i(m_field.uniformLocation("u_image"), 0);
  glUniform1i(m_field.uniformLocation("u_boundary"), 1);
  glUniform1i(m_field.uniformLocation("u_scale"), 2);
  glUniform1i(m_field.uniformLocation("u_aux"), 3);
  glUniform1i(m_field.uniformLocation("u_auxScale"), 4);
  glUniform1i(m_field.uniformLocation("u_mode"), int(field));
  glUniform1i(m_field.uniformLocation("u_dyeColors"), int(settings.dyeColors));
  glUniform3f(m_field.uniformLocation("u_dyeColor"), settings.dyeColor[0], settings.dyeColor[1], settings.dyeColor[2]);
  glUniform1i(m_field.uniformLocation("u_shading"), settings.shading ? 1 : 0);
  glUniform1f(m_field.uniformLocation("u_dim"), settings.particles && dye ? 0.55f : 1.0f);
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);

  if (settings.arrows) {
    GLint viewport[4] = {0, 0, 1, 1};
    glGetIntegerv(GL_VIEWPORT, viewport);
    const float spacing = float(std::max(settings.arrowSpacing, 4));
    const int countX = std::max(1, int(float(viewport[2]) / spacing));
    const int countY = std::max(1, int(float(viewport[3]) / spacing));
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glUseProgram(m_arrows.id());
    gl::StateGuard::bindTexture(0, GL_TEXTURE_2D, m_velocity.texture().id());
    gl::StateGuard::bindTexture(1, GL_TEXTURE_2D, solver.boundary().texture().id());
    gl::StateGuard::bindTexture(2, GL_TEXTURE_2D, m_velocityScale.texture().id());
    glUniform1i(m_arrows.uniformLocation("u_velocity"), 0);
    glUniform1i(m_arrows.uniformLocation("u_boundary"), 1);
    glUniform1i(m_arrows.uniformLocation("u_scale"), 2);
    glUniform2i(m_arrows.uniformLocation("u_count"), countX, countY);
    glUniform2f(m_arrows.uniformLocation("u_pixel"), 2.0f / float(std::max(viewport[2], 1)),
                2.0f / float(std::max(viewport[3], 1)));
    glUniform1f(m_arrows.uniformLocation("u_spacing"), spacing);
    // Dark arrows on the light middle of the diverging maps, light ones elsewhere.
    const bool diverging = field == fluid::Field::Pressure || field == fluid::Field::Divergence ||
                           field == fluid::Field::Vorticity;
    if (diverging) glUniform4f(m_arrows.uniformLocation("u_color"), 0.05f, 0.05f, 0.08f, 0.85f);
    else glUniform4f(m_arrows.uniformLocation("u_color"), 1.0f, 1.0f, 1.0f, 0.85f);
    glDrawArrays(GL_LINES, 0, 6 * countX * countY);
    glDisable(GL_BLEND);
  }

  if (settings.particles && solver.particleCount() > 0) {
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
