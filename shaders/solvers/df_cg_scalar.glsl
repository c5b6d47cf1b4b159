// A scalar of double-float CG (solvers/krylov/DoubleFloatCg.cpp): u_numerator / u_denominator, each
// a pair Scalar (.x head, .y tail), in double-float arithmetic; alpha = r.z / p.q and
// beta = r'.z' / r.z. o_out0 = (head, tail, failed, 0); failed = 1 when the denominator is
// not a positive finite value (p.q <= 0: A is not SPD in the pair arithmetic; or a NaN)
// while the numerator is not zero. A zero numerator (r = 0: solved exactly, a 1x1 system
// say) gives 0, and the iteration stands still.
#include "common/double_float.glsl"
uniform sampler2D u_numerator;
uniform sampler2D u_denominator;

void kernel(ivec2 texel) {
  vec4 n = texelFetch(u_numerator, ivec2(0), 0), d = texelFetch(u_denominator, ivec2(0), 0);
  vec4 qHi, qLo;
  dfDiv(vec4(n.x), vec4(n.y), vec4(d.x), vec4(d.y), qHi, qLo);
  bool usable = d.x > 0.0 && d.x < 3.0e38;  // false for NaN as well
  if (n.x == 0.0 && n.y == 0.0) {
    o_out0 = vec4(0.0);
  } else {
    o_out0 = usable ? vec4(qHi.x, qLo.x, 0.0, 0.0) : vec4(0.0, 0.0, 1.0, 0.0);
  }
}
