// (hi, lo) += c: a float correction added to a double-float vector (common/double_float.glsl),
// the update x += c of mixed-precision refinement. The padding stays zero (0 + 0).
#include "common/double_float.glsl"
uniform sampler2D u_hi;
uniform sampler2D u_lo;
uniform sampler2D u_c;

void kernel(ivec2 texel) {
  vec4 hi = texelFetch(u_hi, texel, 0), lo = texelFetch(u_lo, texel, 0);
  dfAdd(hi, lo, texelFetch(u_c, texel, 0), vec4(0.0));
  o_out0 = hi;
  o_out1 = lo;
}
