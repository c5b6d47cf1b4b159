// The flags of the constant-stencil fast path (LayeredStencil::findConstantStencils): 1
// where every owned channel's nine entries equal the reference u_S0 .. u_S8 bit for bit,
// else 0. Channels that do not own their node (border duplicates, padding) may differ:
// kernels discard what a texel computes for them (a border duplicate is evaluated at its
// owner), so the reference may stand in for them. Texels with no owned channel (the outer
// ring among them) are never flagged.
#include "multigrid/layered.glsl"
#include "multigrid/stencil.glsl"
uniform ivec4 u_grid;

#define DIFF(k) (floatBitsToUint(texelFetch(u_A##k, t, 0)) ^ floatBitsToUint(u_S##k))

void kernel(ivec2 t) {
  bvec4 owned = layeredOwned(u_grid, t);
  uvec4 diff = DIFF(0) | DIFF(1) | DIFF(2) | DIFF(3) | DIFF(4) | DIFF(5) | DIFF(6) | DIFF(7) | DIFF(8);
  // owned implies same, channel by channel.
  bool flag = any(owned) && all(greaterThanEqual(ivec4(equal(diff, uvec4(0u))), ivec4(owned)));
  o_out0 = vec4(flag ? 1.0 : 0.0);
}
