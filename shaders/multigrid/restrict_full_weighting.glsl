// Projection by full weighting, P = 1/4 S^T (Bolz §4.2, "Projection"):
//   b_2h[T] = 1/16 sum over d in {-1, 0, 1}^2 of w(dx) w(dy) r_h[2T - 1 + d],  w = (1, 2, 1),
// in texel coordinates of both layered grids (coarse texel T, fine texel 2T - 1 + d, same
// channel). r_h must be border-synchronised. Coarse fixed nodes (centre 0) and non-owned
// texels get zero (restrict_kernel.glsl, which also gives the ZERO_SWEEP output).
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

#include "multigrid/restrict_kernel.glsl"
