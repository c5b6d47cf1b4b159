// Residual and projection in one pass: b_2h = P (b_h - A_h x_h) (Bolz §4.2, "Projection"
// of the residual that "Residual" would write), the nine fine residuals of each coarse
// texel evaluated on the fly instead of written to r_h and read back: one pass and the r_h
// write and read fewer, at 9/4 times the residual arithmetic (Multigrid.h: used on levels
// up to MultigridOptions::fuseRestrictionTexels). x_h must be border-synchronised. Output
// as restrict_full_weighting.glsl (restrict_kernel.glsl).
//
// Straight-line code (one round of fetches, no loops or branches per fine texel): a GPU
// pass lasts as long as its slowest invocation, and the short passes of the coarse levels
// are what this fusion is for.
#include "multigrid/layered.glsl"
#include "multigrid/stencil.glsl"
uniform ivec4 u_grid;  // the fine grid
uniform sampler2D u_x;
uniform sampler2D u_b;

// residual.glsl's texture path at a texel whose neighbours lie in the texture.
vec4 residualAt(ivec2 g) {
  STENCIL_NEIGHBOURS(X, u_x, g);
  vec4 r = texelFetch(u_b, g, 0) - stencilSum(X, g);
  return mix(vec4(0.0), r, notEqual(texelFetch(u_A4, g, 0), vec4(0.0)));
}

// r_h at fine texel f as the residual pass and a border copy leave it, in the channels a
// projection onto an owned coarse node reads: owned channels in place; the border
// duplicates of column 0 and row 0 (parts 1 and 3 left of the x split, parts 2 and 3 below
// the y split) at their owners in column sx and row sy; zero past the grid. (Duplicates on
// the far side, column sx + 1 and row sy + 1, only feed coarse border texels, which get
// zero or are evaluated at their owners.)
vec4 syncedResidual(ivec2 f) {
  ivec2 g = clamp(ivec2(f.x == 0 ? u_grid.z : f.x, f.y == 0 ? u_grid.w : f.y), ivec2(1), textureSize(u_x, 0) - 2);
  vec4 r = residualAt(g);
  if (f.x == 0) r = vec4(0.0, r.x, 0.0, r.z);
  if (f.y == 0) r = vec4(0.0, 0.0, r.x, r.y);
  return mix(vec4(0.0), r, (f.x == 0 || f.y == 0) ? layeredHalo(u_grid, f) : layeredOwned(u_grid, f));
}

#define FLAGGED(dx, dy) stencilConstant(f + ivec2(dx, dy))

vec4 projected(ivec2 T) {
  ivec2 f = 2 * T - 1;
#ifdef CONSTANT_STENCIL
  // Inside (the nine fine texels own all four channels: texels 1 .. s of the smaller part)
  // and flagged: the residuals from 25 x and 9 b fetches and the uniform stencil.
  if (T.x >= 2 && T.y >= 2 && 2 * T.x <= u_grid.z && 2 * T.y <= u_grid.w && FLAGGED(-1, -1) && FLAGGED(0, -1) &&
      FLAGGED(1, -1) && FLAGGED(-1, 0) && FLAGGED(0, 0) && FLAGGED(1, 0) && FLAGGED(-1, 1) && FLAGGED(0, 1) &&
      FLAGGED(1, 1)) {
    vec4 P[25];  // x at f + (i - 2, j - 2), i + 5 j
    for (int k = 0; k < 25; ++k) P[k] = texelFetch(u_x, f + ivec2(k - 5 * (k / 5) - 2, k / 5 - 2), 0);
    vec4 B[9];
    for (int k = 0; k < 9; ++k) B[k] = texelFetch(u_b, f + stencilOffset(k), 0);
    vec4 R[9];
    for (int k = 0; k < 9; ++k) {
      // The neighbours of fine texel f + offset(k) in P: centre (k % 3 + 1, k / 3 + 1).
      int c = (k - 3 * (k / 3) + 1) + 5 * (k / 3 + 1);
      vec4 N[9] = vec4[9](P[c - 6], P[c - 5], P[c - 4], P[c - 1], P[c], P[c + 1], P[c + 4], P[c + 5], P[c + 6]);
      R[k] = B[k] - stencilSumConstant(N);
    }
    vec4 sum = 4.0 * R[4];
    sum += 2.0 * (R[3] + R[5] + R[1] + R[7]);
    sum += R[0] + R[2] + R[6] + R[8];
    return sum / 16.0;
  }
#endif
  vec4 R[9];
  for (int k = 0; k < 9; ++k) R[k] = syncedResidual(f + stencilOffset(k));
  vec4 sum = 4.0 * R[4];
  sum += 2.0 * (R[3] + R[5] + R[1] + R[7]);
  sum += R[0] + R[2] + R[6] + R[8];
  return sum / 16.0;
}

#include "multigrid/restrict_kernel.glsl"
