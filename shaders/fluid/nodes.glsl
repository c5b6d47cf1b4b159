// Node textures of the fluid (src/fluid/FluidSolver.h): texel (i, j) holds node (i, j).
// Node types (fluid/Scene.h): 0 fluid, 1 solid (prescribed velocity), 2 outlet.
const int kFluid = 0;
const int kSolid = 1;
const int kOutlet = 2;

ivec2 clampNode(ivec2 n, ivec2 size) { return clamp(n, ivec2(0), size - 1); }

vec4 nodeFetch(sampler2D f, ivec2 n) { return texelFetch(f, clampNode(n, textureSize(f, 0)), 0); }

int nodeType(sampler2D boundary, ivec2 n) {
  ivec2 size = textureSize(boundary, 0);
  if (n.x < 0 || n.y < 0 || n.x >= size.x || n.y >= size.y) return kSolid;
  return int(texelFetch(boundary, n, 0).x + 0.5);
}

// Bilinear interpolation at p (node coordinates), clamped to the grid: floating-point
// textures are read with texelFetch, so the interpolation is explicit (Bolz §4.3).
vec4 bilinear(sampler2D f, vec2 p) {
  ivec2 size = textureSize(f, 0);
  p = clamp(p, vec2(0.0), vec2(size - 1));
  ivec2 i = min(ivec2(floor(p)), size - 2);
  i = max(i, ivec2(0));
  vec2 w = p - vec2(i);
  vec4 a = texelFetch(f, i, 0), b = texelFetch(f, clampNode(i + ivec2(1, 0), size), 0);
  vec4 c = texelFetch(f, clampNode(i + ivec2(0, 1), size), 0), d = texelFetch(f, clampNode(i + ivec2(1, 1), size), 0);
  return mix(mix(a, b, w.x), mix(c, d, w.x), w.y);
}

// The four nodes around p: their minimum and maximum (the MacCormack limiter).
void cornerRange(sampler2D f, vec2 p, out vec4 lo, out vec4 hi) {
  ivec2 size = textureSize(f, 0);
  p = clamp(p, vec2(0.0), vec2(size - 1));
  ivec2 i = max(min(ivec2(floor(p)), size - 2), ivec2(0));
  vec4 a = texelFetch(f, i, 0), b = texelFetch(f, clampNode(i + ivec2(1, 0), size), 0);
  vec4 c = texelFetch(f, clampNode(i + ivec2(0, 1), size), 0), d = texelFetch(f, clampNode(i + ivec2(1, 1), size), 0);
  lo = min(min(a, b), min(c, d));
  hi = max(max(a, b), max(c, d));
}
