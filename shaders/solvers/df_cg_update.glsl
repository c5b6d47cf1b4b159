// Double-float CG's step (solvers/krylov/DoubleFloatCg.cpp): x' = x + alpha p and r' = r - alpha q
// (q = A p), every vector a pair (head, tail) and alpha a pair Scalar, in double-float
// arithmetic (common/double_float.glsl). Outputs: x' head, x' tail, r' head, r' tail.
#include "common/double_float.glsl"
uniform sampler2D u_xHi;
uniform sampler2D u_xLo;
uniform sampler2D u_rHi;
uniform sampler2D u_rLo;
uniform sampler2D u_pHi;
uniform sampler2D u_pLo;
uniform sampler2D u_qHi;
uniform sampler2D u_qLo;
uniform sampler2D u_alpha;

void kernel(ivec2 texel) {
  vec4 alpha = texelFetch(u_alpha, ivec2(0), 0);
  vec4 xHi = texelFetch(u_xHi, texel, 0), xLo = texelFetch(u_xLo, texel, 0);
  vec4 rHi = texelFetch(u_rHi, texel, 0), rLo = texelFetch(u_rLo, texel, 0);
  vec4 tHi, tLo;
  dfMul(vec4(alpha.x), vec4(alpha.y), texelFetch(u_pHi, texel, 0), texelFetch(u_pLo, texel, 0), tHi, tLo);
  dfAdd(xHi, xLo, tHi, tLo);
  dfMul(vec4(alpha.x), vec4(alpha.y), texelFetch(u_qHi, texel, 0), texelFetch(u_qLo, texel, 0), tHi, tLo);
  dfAdd(rHi, rLo, -tHi, -tLo);
  o_out0 = xHi;
  o_out1 = xLo;
  o_out2 = rHi;
  o_out3 = rLo;
}
