// The fused CG update pass (cg_update_texel.glsl). Outputs: o_out0 = x', o_out1 = r'
// [, o_out2 = z' with JACOBI].
#include "solvers/cg_update_texel.glsl"

void kernel(ivec2 texel) {
  vec4 x, r, z;
  cgUpdateTexel(texel, x, r, z);
  o_out0 = x;
  o_out1 = r;
#ifdef JACOBI
  o_out2 = z;
#endif
}
