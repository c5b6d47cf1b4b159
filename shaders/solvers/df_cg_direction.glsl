// Double-float CG's search direction (solvers/krylov/DoubleFloatCg.cpp): p' = z + beta p with
// z = r (WEIGHTED: z = u_weight r, the Jacobi preconditioner's inverse diagonal), every
// vector a pair and beta a pair Scalar, in double-float arithmetic. FIRST: p' = z.
#include "common/double_float.glsl"
uniform sampler2D u_rHi;
uniform sampler2D u_rLo;
uniform sampler2D u_pHi;
uniform sampler2D u_pLo;
uniform sampler2D u_weight;
uniform sampler2D u_beta;

void kernel(ivec2 texel) {
  vec4 zHi = texelFetch(u_rHi, texel, 0), zLo = texelFetch(u_rLo, texel, 0);
#ifdef WEIGHTED
  dfMul(texelFetch(u_weight, texel, 0), vec4(0.0), zHi, zLo, zHi, zLo);
#endif
#ifndef FIRST
  vec4 beta = texelFetch(u_beta, ivec2(0), 0);
  vec4 tHi, tLo;
  dfMul(vec4(beta.x), vec4(beta.y), texelFetch(u_pHi, texel, 0), texelFetch(u_pLo, texel, 0), tHi, tLo);
  dfAdd(zHi, zLo, tHi, tLo);
#endif
  o_out0 = zHi;
  o_out1 = zLo;
}
