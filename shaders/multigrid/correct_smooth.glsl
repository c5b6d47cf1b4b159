// The coarse-grid correction and the first post-smoothing sweep in one pass (Bolz §4.2,
// "Interpolation" then "Relax"): x~ = x + S v at free nodes (interpolate_correct.glsl, v
// the coarse correction, border in sync), then x' = x~ + omega D^-1 (b - A x~) at free
// owned nodes, b at fixed ones (smooth.glsl). x~ is never stored: each texel evaluates it
// at its 3x3 neighbourhood, saving the interpolation pass and its write and read of x.
// Output as smooth.glsl (border_kernel.glsl).
//
// x~ at a border duplicate needs no detour through its owner: with floor division the
// interpolation's coarse texels, (p + 1) / 2 and (p + 2) / 2 for fine texel p, are the
// owner's coarse nodes in the duplicate's own channel (in v's synchronised border), in the
// same order, and x and the centre entry are duplicated too: the same value, bit for bit.
// Padding channels (x = 0, centre 0) stay zero. Straight-line code: one round of fetches
// (two for texels next to unflagged ones).
#include "multigrid/layered.glsl"
#include "multigrid/stencil.glsl"
uniform ivec4 u_grid;
uniform sampler2D u_x;
uniform sampler2D u_v;
uniform sampler2D u_b;
uniform float u_omega;

// S v at fine texel p (interpolate_correct.glsl's sum, coarse texels by floor division).
vec4 interpolated(ivec2 p) {
  ivec2 c0 = (p + 1) / 2, c1 = (p + 2) / 2;
  return 0.25 * (texelFetch(u_v, c0, 0) + texelFetch(u_v, ivec2(c1.x, c0.y), 0) +
                 texelFetch(u_v, ivec2(c0.x, c1.y), 0) + texelFetch(u_v, c1, 0));
}

vec4 value(ivec2 t) {
  vec4 b = texelFetch(u_b, t, 0);
  STENCIL_NEIGHBOURS(X, u_x, t);
  vec4 S[9];
  for (int k = 0; k < 9; ++k) S[k] = interpolated(t + stencilOffset(k));
#ifdef CONSTANT_STENCIL
  // Inside (the nine texels own all four channels: 2 .. s - 1 of the smaller part) with
  // all nine flagged: every node free, the uniform stencil.
  bool all9 = t.x >= 2 && t.y >= 2 && t.x < u_grid.z && t.y < u_grid.w;
  for (int k = 0; k < 9; ++k) all9 = all9 && stencilConstant(t + stencilOffset(k));
  if (all9) {
    for (int k = 0; k < 9; ++k) X[k] = X[k] + S[k];
    return X[4] + u_omega * (b - stencilSumConstant(X)) / u_S4;
  }
#endif
  for (int k = 0; k < 9; ++k)
    X[k] = mix(X[k], X[k] + S[k], notEqual(texelFetch(u_A4, t + stencilOffset(k), 0), vec4(0.0)));
  if (stencilConstant(t)) return X[4] + u_omega * (b - stencilSumConstant(X)) / u_S4;
  vec4 c = texelFetch(u_A4, t, 0);
  vec4 next = X[4] + u_omega * (b - stencilSum(X, t)) / c;
  return mix(b, next, notEqual(c, vec4(0.0)));
}

#include "multigrid/border_kernel.glsl"
