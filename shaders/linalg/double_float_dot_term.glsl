// One element's term of a double-float dot product, shared by the mip-style levels
// (linalg/double_float_dot.glsl) and the one-dispatch reduction
// (linalg/double_float_dot_workgroup.glsl): x = u_xHi + u_xLo times y = u_yHi + u_yLo as
// a pair product; WEIGHTED: also times the float u_weight (a Jacobi preconditioner's
// inverse diagonal). Include after common/double_float.glsl.
uniform sampler2D u_xHi;
uniform sampler2D u_xLo;
uniform sampler2D u_yHi;
uniform sampler2D u_yLo;
uniform sampler2D u_weight;

void dfDotTerm(ivec2 at, out vec4 hi, out vec4 lo) {
  dfMul(texelFetch(u_xHi, at, 0), texelFetch(u_xLo, at, 0), texelFetch(u_yHi, at, 0), texelFetch(u_yLo, at, 0), hi,
        lo);
#ifdef WEIGHTED
  vec4 wHi, wLo;
  dfMul(hi, lo, texelFetch(u_weight, at, 0), vec4(0.0), wHi, wLo);
  hi = wHi;
  lo = wLo;
#endif
}
