// Composition of stencils, A_2h = P A_h S (Bolz §4.2, "Composition of Stencils"):
//   A_2h^D[T] = 1/4 sum over e, g in {-1, 0, 1}^2 of S^e S^(e + g - 2D) A_h^g[2T - 1 + e],
// S^f = s(fx) s(fy) with s(0) = 1, s(+-1) = 1/2 and zero beyond (bilinear subdivision), one
// output entry D = u_entry per pass, in texel coordinates of both layered grids (the same
// in all four channels). A_h here has no couplings into fixed nodes (mask_couplings) and a
// synchronised border; fine texels past the texture read zero. A coarse node is fixed
// (all entries zero) exactly when no free fine node lies in its support: then S
// reproduces constants at every free fine node, which Neumann walls between a fluid node
// and a fixed solid one need (with coarse nodes over fixed fine nodes forced fixed, S 1
// falls to 1/2 next to such walls and the cycles stall).
#include "multigrid/layered.glsl"
#include "multigrid/stencil.glsl"
uniform ivec4 u_fine;
uniform ivec4 u_coarse;
uniform ivec2 u_coarseSize;
uniform ivec2 u_entry;

float subdivisionWeight(ivec2 f) {
  vec2 w = vec2(f.x == 0 ? 1.0 : (abs(f.x) == 1 ? 0.5 : 0.0), f.y == 0 ? 1.0 : (abs(f.y) == 1 ? 0.5 : 0.0));
  return w.x * w.y;
}

#define COMPOSE(A, gx, gy)                                                              \
  for (int ey = -1; ey <= 1; ++ey) {                                                    \
    for (int ex = -1; ex <= 1; ++ex) {                                                  \
      ivec2 e = ivec2(ex, ey);                                                          \
      float w = subdivisionWeight(e) * subdivisionWeight(e + ivec2(gx, gy) - 2 * D);    \
      if (w != 0.0) sum += w * fetchOrZero(A, F + e);                                  \
    }                                                                                   \
  }

void kernel(ivec2 T) {
  if (layeredRing(T, u_coarseSize)) {
    o_out0 = vec4(0.0);
    return;
  }
  ivec2 D = u_entry;
  ivec2 F = 2 * T - 1;
  vec4 sum = vec4(0.0);
  COMPOSE(u_A0, -1, -1) COMPOSE(u_A1, 0, -1) COMPOSE(u_A2, 1, -1)
  COMPOSE(u_A3, -1, 0) COMPOSE(u_A4, 0, 0) COMPOSE(u_A5, 1, 0)
  COMPOSE(u_A6, -1, 1) COMPOSE(u_A7, 0, 1) COMPOSE(u_A8, 1, 1)
  o_out0 = mix(vec4(0.0), 0.25 * sum, layeredOwned(u_coarse, T));
}
