#include "Fluid3DRenderer.h"

#include "OrbitCamera.h"

#include <texstream/gl/Debug.h>
#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/stream/KernelCache.h>
#include <texstream/stream/Profiler.h>
#include <texstream/stream/Runtime.h>

#include <glad/gl.h>
#include <glm/gtc/type_ptr.hpp>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace texstream::app {

namespace {

// The light volume's cells a side at most: shadows are soft, and each cell marches to the
// light through the volume.
constexpr int kLightCells = 64;

const char* kFullScreenVertex = R"glsl(
out vec2 v_ndc;
void main() {
  vec2 corner = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID >> 1) * 4 - 1));
  v_ndc = corner;
  gl_Position = vec4(corner, 0.0, 1.0);
}
)glsl";

// Pass 1: volume cell (x, y, u_layer) from the flat fields, trilinear where the volume is
// coarser than the grid (exactly the cell where it is not).
const char* kCopyFragment = R"glsl(
uniform sampler2D u_scalars;  // one cell a texel: .x density or phi, .y temperature
uniform sampler2D u_solids;   // one cell a texel: .x 1 in solid cells
uniform Grid3 u_grid;
uniform int u_layer;
uniform vec3 u_scale;         // grid cells per volume cell, per axis
uniform int u_liquid;
out vec4 o_color;

vec4 cellOf(sampler2D f, ivec3 c) {
  return texelFetch(f, gridTexel(u_grid, clamp(c, ivec3(0), u_grid.size.xyz - 1)), 0);
}

void main() {
  vec3 c = vec3(gl_FragCoord.xy, float(u_layer) + 0.5) * u_scale - 0.5;
  ivec3 c0 = ivec3(floor(c));
  vec3 f = c - vec3(c0);
  vec4 a = vec4(0.0);
  for (int k = 0; k < 8; ++k) {
    ivec3 o = ivec3(k & 1, (k >> 1) & 1, k >> 2);
    vec3 w3 = mix(1.0 - f, f, vec3(o));
    float w = w3.x * w3.y * w3.z;
    if (w == 0.0) continue;
    a += w * cellOf(u_scalars, c0 + o);
  }
  // Solids through a (1 2 1) / 4 tent a side about the nearest cell: the iso-surface 0.5 of
  // voxels rounded off instead of stair-stepped.
  ivec3 centre = ivec3(floor(c + 0.5));
  float solid = 0.0;
  for (int k = 0; k < 27; ++k) {
    ivec3 o = ivec3(k % 3, (k / 3) % 3, k / 9) - 1;
    vec3 w3 = vec3(0.5) - 0.25 * vec3(abs(o));
    solid += w3.x * w3.y * w3.z * cellOf(u_solids, centre + o).x;
  }
  // Non-finite values (a blow-up the shell reports) are not drawn: air, no smoke.
  bool bad = any(isnan(a.xy)) || any(isinf(a.xy));
  if (u_liquid == 1) a.x = bad ? 1000.0 : clamp(a.x, -1000.0, 1000.0);
  else a.xy = bad ? vec2(0.0) : clamp(a.xy, vec2(-60000.0), vec2(60000.0));
  o_color = vec4(a.x, a.y, (isnan(solid) ? 0.0 : solid), 0.0);
}
)glsl";

// Pieces the light and view passes share.
const char* kCommon = R"glsl(
uniform highp sampler3D u_volume;  // .x density (smoke) or phi in cells (liquid), .y temperature, .z solid fraction
uniform vec3 u_extent;             // the domain's size (sim units, +z up)
uniform float u_h;                 // a grid cell's side
uniform float u_opacity;           // smoke: optical depth of one cell of density 1
uniform int u_liquid;
uniform vec3 u_lightDir;           // towards the light
uniform vec4 u_sphere;             // the moving sphere: centre, radius (0: none)

vec4 field(vec3 p) { return texture(u_volume, p / u_extent); }

// Whether the solid fraction at p belongs to the moving sphere (drawn analytically).
bool onSphere(vec3 p) { return u_sphere.w > 0.0 && length(p - u_sphere.xyz) < u_sphere.w + 1.5 * u_h; }

// [t entering, t leaving] of the ray o + t d through the box [lo, hi]; empty when x > y.
vec2 boxHit(vec3 o, vec3 d, vec3 lo, vec3 hi) {
  vec3 safe = mix(d, vec3(1e-9), lessThan(abs(d), vec3(1e-9)));
  vec3 inv = 1.0 / safe;
  vec3 ta = (lo - o) * inv, tb = (hi - o) * inv;
  vec3 tmin = min(ta, tb), tmax = max(ta, tb);
  return vec2(max(max(tmin.x, tmin.y), tmin.z), min(min(tmax.x, tmax.y), tmax.z));
}

float extinction(float density) { return u_opacity * max(density, 0.0) / u_h; }
)glsl";

// Pass 2: the light reaching each cell of the light volume, through smoke and solids.
const char* kLightFragment = R"glsl(
uniform int u_layer;
uniform vec3 u_cells;  // the light volume's cells a side
out vec4 o_color;

void main() {
  vec3 p = vec3(gl_FragCoord.xy, float(u_layer) + 0.5) / u_cells * u_extent;
  float ds = max(u_h, max(u_extent.x / u_cells.x, max(u_extent.y / u_cells.y, u_extent.z / u_cells.z)));
  float tau = 0.0;
  float tEnd = boxHit(p, u_lightDir, vec3(0.0), u_extent).y;
  for (int i = 0; i < 1024; ++i) {
    float t = (float(i) + 0.5) * ds;
    if (t > tEnd || tau > 12.0) break;
    vec4 v = field(p + t * u_lightDir);
    if (!onSphere(p + t * u_lightDir)) tau += 8.0 * max(v.z - 0.25, 0.0) * ds / u_h;
    if (u_liquid == 0) tau += extinction(v.x) * ds;
  }
  o_color = vec4(exp(-tau), 0.0, 0.0, 1.0);
}
)glsl";

// Pass 3: a ray per pixel.
const char* kMarchFragment = R"glsl(
in vec2 v_ndc;
uniform highp sampler3D u_light;  // .x the light's transmittance
uniform mat4 u_clipToSim;
uniform vec3 u_eye;               // sim coordinates
uniform float u_step;             // ray step (sim units)
uniform int u_shadows;
uniform int u_fire;
uniform int u_obstacles;
uniform vec3 u_smokeColor;
uniform vec3 u_liquidColor;
out vec4 o_color;

const float kAmbient = 0.32;
const float kSun = 0.95;

float hash(vec2 q) { return fract(sin(dot(q, vec2(12.9898, 78.233))) * 43758.5453); }

float lightAt(vec3 p) {
  return u_shadows == 1 ? texture(u_light, clamp(p / u_extent, 0.0, 1.0)).x : 1.0;
}

vec3 sky(vec3 d) {
  float up = clamp(d.z, 0.0, 1.0);
  return mix(vec3(0.060, 0.066, 0.080), vec3(0.010, 0.014, 0.024), pow(up, 0.6));
}

// The floor z = 0, a checkerboard fading into the haze, shadowed where the light's way
// to it crosses the domain.
vec3 floorAt(vec3 q, vec3 d) {
  float tile = 0.125 * max(u_extent.x, u_extent.y);
  vec2 cell = floor(q.xy / tile);
  float checker = mod(cell.x + cell.y, 2.0);
  vec3 base = mix(vec3(0.055, 0.055, 0.060), vec3(0.095, 0.095, 0.10), checker);
  float shadow = 1.0;
  vec2 hit = boxHit(q, u_lightDir, vec3(0.0), u_extent);
  if (hit.y > max(hit.x, 0.0)) shadow = lightAt(q + max(hit.x, 0.0) * u_lightDir + 0.5 * u_h * u_lightDir);
  vec3 lit = base * (kAmbient + 0.7 * kSun * u_lightDir.z * shadow);
  float far = length(q.xy - 0.5 * u_extent.xy) / max(u_extent.x, u_extent.y);
  return mix(sky(vec3(d.xy, 0.0)), lit, exp(-0.35 * far * far));
}

vec3 background(vec3 o, vec3 d) {
  if (d.z < -1e-5 && o.z >= -1e-6) return floorAt(o + max(-o.z / d.z, 0.0) * d, d);
  return sky(d);
}

vec3 gradient(vec3 p, int channel) {
  vec3 e = vec3(u_h, 0.0, 0.0);
  return vec3(field(p + e.xyy)[channel] - field(p - e.xyy)[channel], field(p + e.yxy)[channel] - field(p - e.yxy)[channel],
              field(p + e.yyx)[channel] - field(p - e.yyx)[channel]);
}

vec3 shadeOpaque(vec3 p, vec3 n, vec3 d, vec3 base) {
  float light = lightAt(p + 1.5 * u_h * n);
  float diffuse = max(dot(n, u_lightDir), 0.0) * light;
  float fill = 0.5 + 0.5 * n.z;
  float specular = pow(max(dot(n, normalize(u_lightDir - d)), 0.0), 48.0) * light;
  return base * (kAmbient * fill + kSun * diffuse) + 0.25 * specular;
}

// Where along [a, b] the ray crosses the solid fraction 0.5 (a outside, b inside).
float refineSolid(vec3 o, vec3 d, float a, float b) {
  for (int k = 0; k < 6; ++k) {
    float m = 0.5 * (a + b);
    if (field(o + m * d).z > 0.5) b = m; else a = m;
  }
  return 0.5 * (a + b);
}

float refineSurface(vec3 o, vec3 d, float a, float b) {
  for (int k = 0; k < 8; ++k) {
    float m = 0.5 * (a + b);
    if (field(o + m * d).x <= 0.0) b = m; else a = m;
  }
  return 0.5 * (a + b);
}

float sphereHit(vec3 o, vec3 d) {
  if (u_sphere.w <= 0.0 || u_obstacles == 0) return 1e30;
  vec3 oc = o - u_sphere.xyz;
  float b = dot(oc, d), c = dot(oc, oc) - u_sphere.w * u_sphere.w;
  float disc = b * b - c;
  if (disc < 0.0) return 1e30;
  float t = -b - sqrt(disc);
  return t > 0.0 ? t : 1e30;
}

// Fire: a black-body ramp by temperature (above ambient; the smoke's source is at 1): the
// hot core glows red to yellow-white, the cooled plume not at all.
vec3 fire(float temperature) {
  float x = clamp(temperature, 0.0, 4.0);
  vec3 c = mix(vec3(0.9, 0.12, 0.02), vec3(1.0, 0.5, 0.1), smoothstep(0.3, 0.65, x));
  c = mix(c, vec3(1.0, 0.88, 0.55), smoothstep(0.65, 1.1, x));
  return c * smoothstep(0.15, 0.6, x) * 2.0;
}

const vec3 kSolidColor = vec3(0.56, 0.53, 0.50);
const vec3 kSphereColor = vec3(0.85, 0.45, 0.16);

void main() {
  vec4 far = u_clipToSim * vec4(v_ndc, 1.0, 1.0);
  vec3 o = u_eye;
  vec3 d = normalize(far.xyz / far.w - o);
  vec2 box = boxHit(o, d, vec3(0.0), u_extent);
  vec3 color;
  if (box.x >= box.y || box.y <= 0.0) {
    color = background(o, d);
  } else if (u_liquid == 0) {
    // Smoke, front to back: absorbed and scattered light, and fire's glow.
    float t0 = max(box.x, 0.0), tSphere = sphereHit(o, d), tEnd = min(box.y, tSphere);
    vec3 c = vec3(0.0);
    float T = 1.0;
    bool solid = false;
    float t = t0 + u_step * hash(gl_FragCoord.xy), tPrev = t0;
    for (int i = 0; i < 16384; ++i) {
      if (t >= tEnd || T < 0.004) break;
      vec3 p = o + t * d;
      vec4 v = field(p);
      if (u_obstacles == 1 && v.z > 0.5 && !onSphere(p)) {
        t = refineSolid(o, d, tPrev, t);
        solid = true;
        break;
      }
      float a = 1.0 - exp(-extinction(v.x) * u_step);
      vec3 scatter = u_smokeColor * (kAmbient + kSun * lightAt(p));
      vec3 glow = u_fire == 1 ? fire(v.y) * (u_step / u_h) * 0.12 : vec3(0.0);
      c += T * (a * scatter + glow);
      T *= 1.0 - a;
      tPrev = t;
      t += u_step;
    }
    vec3 behind;
    if (solid) {
      vec3 p = o + t * d;
      behind = shadeOpaque(p, -normalize(gradient(p, 2) + vec3(0.0, 0.0, 1e-6)), d, kSolidColor);
    } else if (tSphere < box.y) {
      vec3 p = o + tSphere * d;
      behind = shadeOpaque(p, normalize(p - u_sphere.xyz), d, kSphereColor);
    } else {
      behind = background(o + box.y * d, d);
    }
    color = c + T * behind;
  } else {
    // Liquid: sphere tracing of phi (cells) to each surface, Fresnel reflection and
    // refraction there, absorption (and a little scattering) inside, up to where phi
    // turns positive again (interpolated) or the ray leaves the box.
    vec3 absorb = 0.2 * (1.0 - u_liquidColor) / u_h;
    float t = max(box.x, 0.0), tBox = box.y, tSphere = sphereHit(o, d), tPrev = t, phiPrev = 0.0;
    float tEnd = min(tBox, tSphere);
    vec3 c = vec3(0.0), w = vec3(1.0);
    bool inside = false;
    int surfaces = 0;
    for (int i = 0; i < 16384; ++i) {
      bool last = t >= tEnd;
      if (last) t = tEnd;
      vec3 p = o + t * d;
      vec4 v = field(p);
      if (u_obstacles == 1 && v.z > 0.5 && !onSphere(p)) {
        float ts = refineSolid(o, d, tPrev, t);
        vec3 q = o + ts * d;
        c += w * shadeOpaque(q, -normalize(gradient(q, 2) + vec3(0.0, 0.0, 1e-6)), d, kSolidColor);
        w = vec3(0.0);
        break;
      }
      float phi = v.x;
      if (inside) {
        float seg = t - tPrev;
        if (phi > 0.0) seg *= clamp(phiPrev / min(phiPrev - phi, -1e-6), 0.0, 1.0);
        vec3 fade = exp(-absorb * seg);
        c += w * (1.0 - fade) * u_liquidColor * (kAmbient + 0.5 * kSun);
        w *= fade;
        inside = phi <= 0.0;
        tPrev = t;
        phiPrev = phi;
        if (last) break;
        t += u_step;
        continue;
      }
      if (phi > 0.0) {
        if (last) break;
        tPrev = t;
        t += clamp(phi * 0.8, 0.3, 3.0) * u_h;
        continue;
      }
      vec3 n;
      if (i == 0 && surfaces == 0) {
        // The liquid reaches the wall the ray enters by: that face is the surface.
        vec3 q = p / u_extent;
        vec3 away = min(q, 1.0 - q);
        n = away.x < away.y && away.x < away.z ? vec3(q.x < 0.5 ? -1.0 : 1.0, 0.0, 0.0)
          : away.y < away.z ? vec3(0.0, q.y < 0.5 ? -1.0 : 1.0, 0.0) : vec3(0.0, 0.0, q.z < 0.5 ? -1.0 : 1.0);
      } else {
        t = refineSurface(o, d, tPrev, t);
        p = o + t * d;
        n = normalize(gradient(p, 0) + vec3(0.0, 0.0, 1e-6));
      }
      if (dot(n, d) > 0.0) n = -n;
      float fresnel = 0.02 + 0.98 * pow(1.0 - clamp(dot(-d, n), 0.0, 1.0), 5.0);
      vec3 r = reflect(d, n);
      float specular = pow(max(dot(r, u_lightDir), 0.0), 200.0) * 2.5 * lightAt(p + 1.5 * u_h * n);
      c += w * (fresnel * background(p, r) + specular);
      w *= 1.0 - fresnel;
      vec3 bent = refract(d, n, 1.0 / 1.33);
      if (dot(bent, bent) > 0.0) d = normalize(bent);
      o = p;
      tBox = boxHit(o, d, vec3(0.0), u_extent).y;
      tSphere = sphereHit(o, d);
      tEnd = min(tBox, tSphere);
      tPrev = 0.0;
      phiPrev = 0.0;
      t = u_step * (0.25 + 0.75 * hash(gl_FragCoord.xy + float(surfaces)));
      inside = true;
      if (++surfaces > 4) {
        w = vec3(0.0);
        break;
      }
    }
    vec3 end = o + tEnd * d;
    if (tSphere < tBox)
      c += w * shadeOpaque(end, normalize(end - u_sphere.xyz), d, kSphereColor);
    else
      c += w * background(end, d);
    color = c;
  }
  // Exposure and display gamma.
  color = 1.0 - exp(-1.25 * color);
  o_color = vec4(pow(color, vec3(1.0 / 2.2)), 1.0);
}
)glsl";

// The domain's twelve edges as lines.
const char* kLinesVertex = R"glsl(
uniform mat4 u_simToClip;
uniform vec3 u_extent;
void main() {
  int edge = gl_VertexID / 2, end = gl_VertexID - 2 * edge;
  int axis = edge / 4, which = edge - 4 * axis;
  vec3 p = vec3(0.0);
  p[axis] = float(end);
  p[(axis + 1) % 3] = float(which & 1);
  p[(axis + 2) % 3] = float(which >> 1);
  gl_Position = u_simToClip * vec4(p * u_extent, 1.0);
}
)glsl";

const char* kLinesFragment = R"glsl(
out vec4 o_color;
void main() { o_color = vec4(0.85, 0.88, 0.95, 0.45); }
)glsl";

std::vector<gl::ShaderPiece> pieces(const std::string& name, std::vector<const char*> parts) {
  std::vector<gl::ShaderPiece> out;
  for (std::size_t k = 0; k < parts.size(); ++k) out.push_back({"<" + name + " " + std::to_string(k) + ">", parts[k], 1});
  return out;
}

gl::Program program(const std::string& name, std::vector<const char*> vertex, std::vector<gl::ShaderPiece> fragment) {
  return stream::rasterProgram(name, pieces(name + " vertex", std::move(vertex)), std::move(fragment));
}

/// Binds a 3D texture on `unit` for the life of the object, then puts the host's back.
class Bind3D {
 public:
  Bind3D(int unit, unsigned int id) : m_unit(unit) {
    glActiveTexture(GLenum(GL_TEXTURE0 + unit));
    glGetIntegerv(GL_TEXTURE_BINDING_3D, &m_previous);
    glBindTexture(GL_TEXTURE_3D, id);
  }
  ~Bind3D() {
    glActiveTexture(GLenum(GL_TEXTURE0 + m_unit));
    glBindTexture(GL_TEXTURE_3D, GLuint(m_previous));
  }
  Bind3D(const Bind3D&) = delete;
  Bind3D& operator=(const Bind3D&) = delete;

 private:
  int m_unit;
  GLint m_previous = 0;
};

/// Times a renderer pass with texstream's profiler where it is on.
class Timed {
 public:
  explicit Timed(const char* label) : m_profiler(stream::Runtime::current().profiler()) { m_profiler.begin(label); }
  ~Timed() { m_profiler.end(); }

 private:
  stream::Profiler& m_profiler;
};

}  // namespace

// ---- VolumeTexture ------------------------------------------------------------------------

VolumeTexture::VolumeTexture(int nx, int ny, int nz, unsigned int internalFormat, const char* name) {
  GLint maxSide = 0;
  glGetIntegerv(GL_MAX_3D_TEXTURE_SIZE, &maxSide);
  if (nx > maxSide || ny > maxSide || nz > maxSide)
    throw gl::Error(std::string("VolumeTexture(\"") + name + "\"): " + std::to_string(nx) + "x" + std::to_string(ny) + "x" +
                    std::to_string(nz) + " exceeds GL_MAX_3D_TEXTURE_SIZE " + std::to_string(maxSide));
  GLint previous = 0;
  glGetIntegerv(GL_TEXTURE_BINDING_3D, &previous);
  glGenTextures(1, &m_id);
  glBindTexture(GL_TEXTURE_3D, m_id);
  // Half floats filter linearly on every GL 3.3 / ES 3.0 context (32-bit floats need an
  // extension). glTexImage3D, not glTexStorage3D: GL 4.1 and 3.3 contexts lack the latter.
  const GLenum format = internalFormat == GL_R16F ? GL_RED : GL_RGBA;
  glTexImage3D(GL_TEXTURE_3D, 0, GLint(internalFormat), nx, ny, nz, 0, format, GL_FLOAT, nullptr);
  glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_3D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  for (GLenum wrap : {GL_TEXTURE_WRAP_S, GL_TEXTURE_WRAP_T, GL_TEXTURE_WRAP_R})
    glTexParameteri(GL_TEXTURE_3D, wrap, GL_CLAMP_TO_EDGE);
  glBindTexture(GL_TEXTURE_3D, GLuint(previous));
  gl::label(GL_TEXTURE, m_id, name);
  m_size = {nx, ny, nz};
}

VolumeTexture::~VolumeTexture() {
  if (m_id) glDeleteTextures(1, &m_id);
}

VolumeTexture::VolumeTexture(VolumeTexture&& o) noexcept : m_id(std::exchange(o.m_id, 0u)), m_size(o.m_size) {}

VolumeTexture& VolumeTexture::operator=(VolumeTexture&& o) noexcept {
  if (this != &o) {
    if (m_id) glDeleteTextures(1, &m_id);
    m_id = std::exchange(o.m_id, 0u);
    m_size = o.m_size;
  }
  return *this;
}

// ---- Fluid3DRenderer ----------------------------------------------------------------------

Fluid3DRenderer::Fluid3DRenderer() : m_vao("fluid3d.view.vao"), m_fbo("fluid3d.volume.fbo") {
  std::vector<gl::ShaderPiece> copy = stream::loadShaderPieces("shaders/grid3d/grid.glsl");
  for (gl::ShaderPiece& p : pieces("fluid3d volume copy", {kCopyFragment})) copy.push_back(std::move(p));
  m_copy = program("fluid3d volume copy", {kFullScreenVertex}, std::move(copy));
  m_light = program("fluid3d light", {kFullScreenVertex}, pieces("fluid3d light", {kCommon, kLightFragment}));
  m_march = program("fluid3d view", {kFullScreenVertex}, pieces("fluid3d view", {kCommon, kMarchFragment}));
  m_lines = stream::rasterProgram("fluid3d box", pieces("fluid3d box vertex", {kLinesVertex}),
                                  pieces("fluid3d box", {kLinesFragment}));
}

glm::vec3 Fluid3DRenderer::lightDirection() { return glm::normalize(glm::vec3(0.55f, 0.35f, 0.8f)); }

void Fluid3DRenderer::copyVolume(const fluid::FluidSolver3D& solver) {
  const int n[3] = {solver.nx(), solver.ny(), solver.nz()};
  GLint maxSide = 0;
  glGetIntegerv(GL_MAX_3D_TEXTURE_SIZE, &maxSide);
  const std::array<int, 3> size{std::min(n[0], int(maxSide)), std::min(n[1], int(maxSide)), std::min(n[2], int(maxSide))};
  if (m_volume.size() != size) m_volume = VolumeTexture(size[0], size[1], size[2], GL_RGBA16F, "fluid3d.volume");
  const stream::GridLayout3D& grid = solver.scalars().grid();

  Timed timed("fluid3d render: volume copy");
  glUseProgram(m_copy.id());
  gl::StateGuard::bindTexture(0, GL_TEXTURE_2D, solver.scalars().texture().id());
  gl::StateGuard::bindTexture(1, GL_TEXTURE_2D, solver.solids().texture().id());
  glUniform1i(m_copy.uniformLocation("u_scalars"), 0);
  glUniform1i(m_copy.uniformLocation("u_solids"), 1);
  glUniform4i(m_copy.uniformLocation("u_grid.size"), grid.nx(), grid.ny(), grid.nz(), grid.tilesX());
  glUniform1i(m_copy.uniformLocation("u_grid.tileWidth"), grid.tileWidth());
  glUniform3f(m_copy.uniformLocation("u_scale"), float(n[0]) / float(size[0]), float(n[1]) / float(size[1]),
              float(n[2]) / float(size[2]));
  glUniform1i(m_copy.uniformLocation("u_liquid"), solver.liquid() ? 1 : 0);
  drawLayers(m_copy, m_volume, true);
}

void Fluid3DRenderer::drawLayers(const gl::Program& program, const VolumeTexture& target, bool checkTarget) {
  const std::array<int, 3> size = target.size();
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, m_fbo.id());
  const GLenum buffer = GL_COLOR_ATTACHMENT0;
  glDrawBuffers(1, &buffer);
  glViewport(0, 0, size[0], size[1]);
  for (int k = 0; k < size[2]; ++k) {
    glFramebufferTextureLayer(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, target.id(), 0, k);
    if (k == 0 && checkTarget) {
      // Fails where half-float targets are not renderable (no EXT_color_buffer_float).
      const GLenum status = glCheckFramebufferStatus(GL_DRAW_FRAMEBUFFER);
      if (status != GL_FRAMEBUFFER_COMPLETE)
        throw gl::Error("Framebuffer(fluid3d.volume.fbo): incomplete: " + gl::framebufferStatusText(status));
    }
    glUniform1i(program.uniformLocation("u_layer"), k);
    glDrawArrays(GL_TRIANGLES, 0, 3);
  }
  glFramebufferTextureLayer(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, 0, 0, 0);
}

void Fluid3DRenderer::lightVolume(const fluid::FluidSolver3D& solver, const Fluid3DSettings& settings) {
  const std::array<int, 3> size{std::min(solver.nx(), kLightCells), std::min(solver.ny(), kLightCells),
                                std::min(solver.nz(), kLightCells)};
  if (m_lightVolume.size() != size) m_lightVolume = VolumeTexture(size[0], size[1], size[2], GL_R16F, "fluid3d.light");
  const double h = solver.h();
  Timed timed("fluid3d render: light volume");
  glUseProgram(m_light.id());
  Bind3D volume(0, m_volume.id());
  glUniform1i(m_light.uniformLocation("u_volume"), 0);
  glUniform3f(m_light.uniformLocation("u_extent"), float(solver.nx() * h), float(solver.ny() * h), float(solver.nz() * h));
  glUniform1f(m_light.uniformLocation("u_h"), float(h));
  glUniform1f(m_light.uniformLocation("u_opacity"), settings.opacity);
  glUniform1i(m_light.uniformLocation("u_liquid"), solver.liquid() ? 1 : 0);
  const glm::vec3 l = lightDirection();
  glUniform3f(m_light.uniformLocation("u_lightDir"), l.x, l.y, l.z);
  const std::array<float, 4> sphere = solver.hasMovingSphere() ? solver.movingSphere() : std::array<float, 4>{0, 0, 0, 0};
  glUniform4f(m_light.uniformLocation("u_sphere"), sphere[0], sphere[1], sphere[2], settings.obstacles ? sphere[3] : 0.0f);
  glUniform3f(m_light.uniformLocation("u_cells"), float(size[0]), float(size[1]), float(size[2]));
  drawLayers(m_light, m_lightVolume, false);
}

void Fluid3DRenderer::draw(const fluid::FluidSolver3D& solver, const Fluid3DSettings& settings, const OrbitCamera& camera,
                           const glm::mat4& simToWorld, int width, int height) {
  gl::StateGuard guard;  // framebuffer, viewport, program, VAO, blend, depth: the host's again afterwards
  GLint viewport[4] = {0, 0, width, height};
  glGetIntegerv(GL_VIEWPORT, viewport);
  GLint target = 0;
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &target);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_BLEND);
  glDisable(GL_SCISSOR_TEST);
  glBindVertexArray(m_vao.id());

  const bool shadows = settings.shadows;
  if (m_dirty) {
    copyVolume(solver);
    m_dirty = false;
    m_lightDirty = true;
  }
  if (shadows && (m_lightDirty || m_lightOpacity != settings.opacity)) {
    lightVolume(solver, settings);
    m_lightDirty = false;
    m_lightOpacity = settings.opacity;
  }

  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, GLuint(target));
  glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
  const double h = solver.h();
  const glm::vec3 extent(float(solver.nx() * h), float(solver.ny() * h), float(solver.nz() * h));
  const glm::mat4 simToClip = camera.projection(float(width) / float(std::max(height, 1))) * camera.view() * simToWorld;
  const glm::vec3 eye = glm::vec3(glm::inverse(simToWorld) * glm::vec4(camera.eye(), 1.0f));
  const std::array<float, 4> sphere = solver.hasMovingSphere() ? solver.movingSphere() : std::array<float, 4>{0, 0, 0, 0};
  {
    Timed timed("fluid3d render: ray march");
    glUseProgram(m_march.id());
    Bind3D volume(0, m_volume.id());
    // Without shadows the light volume may not exist: the volume stands in (never sampled).
    Bind3D light(1, shadows ? m_lightVolume.id() : m_volume.id());
    const auto loc = [&](const char* name) { return m_march.uniformLocation(name); };
    glUniform1i(loc("u_volume"), 0);
    glUniform1i(loc("u_light"), 1);
    glUniformMatrix4fv(loc("u_clipToSim"), 1, GL_FALSE, glm::value_ptr(glm::inverse(simToClip)));
    glUniform3f(loc("u_eye"), eye.x, eye.y, eye.z);
    glUniform3f(loc("u_extent"), extent.x, extent.y, extent.z);
    glUniform1f(loc("u_h"), float(h));
    glUniform1f(loc("u_opacity"), settings.opacity);
    glUniform1f(loc("u_step"), float(settings.rayStep * h));
    glUniform1i(loc("u_liquid"), solver.liquid() ? 1 : 0);
    glUniform1i(loc("u_shadows"), shadows ? 1 : 0);
    glUniform1i(loc("u_fire"), settings.fire ? 1 : 0);
    glUniform1i(loc("u_obstacles"), settings.obstacles ? 1 : 0);
    const glm::vec3 l = lightDirection();
    glUniform3f(loc("u_lightDir"), l.x, l.y, l.z);
    glUniform4f(loc("u_sphere"), sphere[0], sphere[1], sphere[2], settings.obstacles ? sphere[3] : 0.0f);
    glUniform3f(loc("u_smokeColor"), settings.smokeColor[0], settings.smokeColor[1], settings.smokeColor[2]);
    glUniform3f(loc("u_liquidColor"), settings.liquidColor[0], settings.liquidColor[1], settings.liquidColor[2]);
    glDrawArrays(GL_TRIANGLES, 0, 3);
  }
  if (settings.box) {
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glUseProgram(m_lines.id());
    glUniformMatrix4fv(m_lines.uniformLocation("u_simToClip"), 1, GL_FALSE, glm::value_ptr(simToClip));
    glUniform3f(m_lines.uniformLocation("u_extent"), extent.x, extent.y, extent.z);
    glDrawArrays(GL_LINES, 0, 24);
  }
}

}  // namespace texstream::app
