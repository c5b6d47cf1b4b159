// One weighted Jacobi sweep (Bolz §4.2, "Relax"): x' = x + omega D^-1 (b - A x) at free
// owned nodes; fixed nodes take b (identity rows: the Dirichlet value); border texels are
// zero until the border copy (or in sync already with BORDER_IN_KERNEL). ZERO_GUESS: x = 0,
// so x' = omega D^-1 b. Texels flagged by the constant-stencil fast path (stencil.glsl) read
// the stencil from uniforms: all owned channels free, the same operations, the same result.
#include "multigrid/layered.glsl"
#include "multigrid/stencil.glsl"
uniform ivec4 u_grid;
uniform sampler2D u_x;
uniform sampler2D u_b;
uniform float u_omega;

vec4 value(ivec2 t) {
  vec4 b = texelFetch(u_b, t, 0);
#ifdef ZERO_GUESS
  if (stencilConstant(t)) return u_omega * b / u_S4;
  vec4 c = texelFetch(u_A4, t, 0);
  vec4 next = u_omega * b / c;
#else
  STENCIL_NEIGHBOURS(X, u_x, t);
  if (stencilConstant(t)) return X[4] + u_omega * (b - stencilSumConstant(X)) / u_S4;
  vec4 c = texelFetch(u_A4, t, 0);
  vec4 next = X[4] + u_omega * (b - stencilSum(X, t)) / c;
#endif
  return mix(b, next, notEqual(c, vec4(0.0)));
}

#include "multigrid/border_kernel.glsl"
