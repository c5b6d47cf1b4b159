// Projection by full weighting, P = 1/4 S^T (Bolz §4.2, "Projection"):
//   b_2h[T] = 1/16 sum over d in {-1, 0, 1}^2 of w(dx) w(dy) r_h[2T - 1 + d],  w = (1, 2, 1),
// in texel coordinates of both layered grids (coarse texel T, fine texel 2T - 1 + d, same
// channel). r_h must be border-synchronised. Coarse fixed nodes (centre 0) and non-owned
// texels get zero.
#include "multigrid/layered.glsl"
uniform ivec4 u_coarse;
uniform sampler2D u_r;
uniform sampler2D u_coarseCentre;

void kernel(ivec2 T) {
  if (layeredRing(T, textureSize(u_coarseCentre, 0))) {
    o_out0 = vec4(0.0);
    return;
  }
  ivec2 f = 2 * T - 1;
  vec4 sum = 4.0 * texelFetch(u_r, f, 0);
  sum += 2.0 * (fetchOrZero(u_r, f + ivec2(-1, 0)) + fetchOrZero(u_r, f + ivec2(1, 0)) +
                fetchOrZero(u_r, f + ivec2(0, -1)) + fetchOrZero(u_r, f + ivec2(0, 1)));
  sum += fetchOrZero(u_r, f + ivec2(-1, -1)) + fetchOrZero(u_r, f + ivec2(1, -1)) +
         fetchOrZero(u_r, f + ivec2(-1, 1)) + fetchOrZero(u_r, f + ivec2(1, 1));
  bvec4 free = notEqual(texelFetch(u_coarseCentre, T, 0), vec4(0.0));
  bvec4 owned = layeredOwned(u_coarse, T);
  o_out0 = mix(vec4(0.0), sum / 16.0, bvec4(ivec4(free) * ivec4(owned)));
}
