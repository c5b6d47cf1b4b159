// Projection by full weighting, P = 1/4 S^T (Bolz §4.2, "Projection"):
//   b_2h[T] = 1/16 sum over d in {-1, 0, 1}^2 of w(dx) w(dy) r_h[2T - 1 + d],  w = (1, 2, 1),
// in texel coordinates of both layered grids (coarse texel T, fine texel 2T - 1 + d, same
// channel), over the coarse grid u_coarse. r_h must be border-synchronised.
// o_out0 = b_2h: projected at free owned nodes, zero elsewhere (fixed nodes, border, padding).
// ZERO_SWEEP: also o_out1 = x_2h, the coarse level's first weighted Jacobi sweep from
// x = 0 (smooth.glsl with ZERO_GUESS: omega b / centre at free nodes, b at fixed ones), so
// the cycle saves that pass; with BORDER_IN_KERNEL its border duplicates are evaluated at
// their owners (border_kernel.glsl), else zero until a copy pass.
#include "multigrid/layered.glsl"
uniform sampler2D u_r;

vec4 projected(ivec2 T) {
  ivec2 f = 2 * T - 1;
  vec4 sum = 4.0 * texelFetch(u_r, f, 0);
  sum += 2.0 * (fetchOrZero(u_r, f + ivec2(-1, 0)) + fetchOrZero(u_r, f + ivec2(1, 0)) +
                fetchOrZero(u_r, f + ivec2(0, -1)) + fetchOrZero(u_r, f + ivec2(0, 1)));
  sum += fetchOrZero(u_r, f + ivec2(-1, -1)) + fetchOrZero(u_r, f + ivec2(1, -1)) +
         fetchOrZero(u_r, f + ivec2(-1, 1)) + fetchOrZero(u_r, f + ivec2(1, 1));
  return sum / 16.0;
}

uniform ivec4 u_coarse;
uniform sampler2D u_coarseCentre;
uniform float u_omega;

vec4 coarseRhs(ivec2 T, vec4 centre) { return mix(vec4(0.0), projected(T), notEqual(centre, vec4(0.0))); }

vec4 zeroGuessSweep(vec4 b, vec4 centre) { return mix(b, u_omega * b / centre, notEqual(centre, vec4(0.0))); }

void kernel(ivec2 T) {
  vec4 centre = texelFetch(u_coarseCentre, T, 0);
  bvec4 owned = layeredOwned(u_coarse, T);
  vec4 b = any(owned) ? mix(vec4(0.0), coarseRhs(T, centre), owned) : vec4(0.0);
  o_out0 = b;
#ifdef ZERO_SWEEP
  vec4 x = mix(vec4(0.0), zeroGuessSweep(b, centre), owned);
#ifdef BORDER_IN_KERNEL
  bvec4 halo = layeredHalo(u_coarse, T);
  if (any(notEqual(halo, owned))) {
    ivec4 i = layeredNodeX(u_coarse, T.x), j = layeredNodeY(u_coarse, T.y);
    for (int c = 0; c < 4; ++c) {
      if (halo[c] && !owned[c]) {
        ivec3 s = layeredSlot(u_coarse, ivec2(i[c], j[c]));
        vec4 cs = texelFetch(u_coarseCentre, s.xy, 0);
        x[c] = zeroGuessSweep(coarseRhs(s.xy, cs), cs)[s.z];
      }
    }
  }
#endif
  o_out1 = x;
#endif
}
