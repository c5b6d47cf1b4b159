// The flags of the constant-stencil fast path (LayeredStencil::findConstantStencils): 1
// where every owned channel's nine entries equal the reference u_S0 .. u_S8 bit for bit,
// else 0. Channels that do not own their node (border duplicates, padding) may differ:
// kernels discard what a texel computes for them (a border duplicate is evaluated at its
// owner), so the reference may stand in for them. Texels with no owned channel (the outer
// ring among them) are never flagged.
#include "multigrid/layered.glsl"
#include "multigrid/stencil.glsl"
uniform ivec4 u_grid;

#define DIFF(A, S) (floatBitsToUint(texelFetch(A, t, 0)) ^ floatBitsToUint(S))  // no token pasting in GLSL ES

void kernel(ivec2 t) {
  bvec4 owned = layeredOwned(u_grid, t);
  uvec4 diff = DIFF(u_A0, u_S0) | DIFF(u_A1, u_S1) | DIFF(u_A2, u_S2) | DIFF(u_A3, u_S3) | DIFF(u_A4, u_S4) | DIFF(u_A5, u_S5) | DIFF(u_A6, u_S6) | DIFF(u_A7, u_S7) | DIFF(u_A8, u_S8);
  // owned implies same, channel by channel.
  bool flag = any(owned) && all(greaterThanEqual(ivec4(equal(diff, uvec4(0u))), ivec4(owned)));
  o_out0 = vec4(flag ? 1.0 : 0.0);
}
