// One level of a mip-style reduction in double-float arithmetic (common/double_float.glsl;
// the levels of Bolz §3.1.3 / Krüger & Westermann §44.3.2, reduce/level.glsl, with every
// partial sum a pair): one output pair per BLOCK x BLOCK block of input pairs.
// FIRST_LEVEL: the element-wise products of a dot, x = u_xHi + u_xLo, y = u_yHi + u_yLo,
// each a pair product (WEIGHTED: also times the float u_weight, a Jacobi preconditioner's
// inverse diagonal); later levels sum the partial pairs in u_xHi, u_xLo.
// FINAL: the four channels folded; o_out0 = (head, tail, 0, 0). Otherwise o_out0 the heads
// and o_out1 the tails of the partial sums.
#include "common/double_float.glsl"
#include "linalg/double_float_dot_term.glsl"

void kernel(ivec2 texel) {
  ivec2 size = textureSize(u_xHi, 0);
  vec4 hi = vec4(0.0), lo = vec4(0.0);
  ivec2 begin = texel * BLOCK;
  ivec2 end = min(begin + ivec2(BLOCK), size);
  for (int j = begin.y; j < end.y; ++j) {
    for (int i = begin.x; i < end.x; ++i) {
      ivec2 at = ivec2(i, j);
#ifdef FIRST_LEVEL
      vec4 pHi, pLo;
      dfDotTerm(at, pHi, pLo);
      dfAdd(hi, lo, pHi, pLo);
#else
      dfAdd(hi, lo, texelFetch(u_xHi, at, 0), texelFetch(u_xLo, at, 0));
#endif
    }
  }
#ifdef FINAL
  dfFoldChannels(hi, lo);
  o_out0 = vec4(hi.x, lo.x, 0.0, 0.0);
#else
  o_out0 = hi;
  o_out1 = lo;
#endif
}
