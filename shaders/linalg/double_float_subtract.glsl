// (hi, lo) = a - b for double-float pairs a = u_aHi + u_aLo, b = u_bHi + u_bLo
// (common/double_float.glsl): double-float CG's true residual b - A x.
#include "common/double_float.glsl"
uniform sampler2D u_aHi;
uniform sampler2D u_aLo;
uniform sampler2D u_bHi;
uniform sampler2D u_bLo;

void kernel(ivec2 texel) {
  vec4 hi = texelFetch(u_aHi, texel, 0), lo = texelFetch(u_aLo, texel, 0);
  dfAdd(hi, lo, -texelFetch(u_bHi, texel, 0), -texelFetch(u_bLo, texel, 0));
  o_out0 = hi;
  o_out1 = lo;
}
