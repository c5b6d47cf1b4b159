// r = b - A x at free owned nodes, zero at fixed ones (x = b there: no residual). The
// projection reads r at neighbours: a border copy follows, or BORDER_IN_KERNEL. Flagged
// texels (constant-stencil fast path, stencil.glsl) are free in every owned channel.
#include "multigrid/layered.glsl"
#include "multigrid/stencil.glsl"
uniform ivec4 u_grid;
uniform sampler2D u_x;
uniform sampler2D u_b;

vec4 value(ivec2 t) {
  vec4 b = texelFetch(u_b, t, 0);
  STENCIL_NEIGHBOURS(X, u_x, t);
  if (stencilConstant(t)) return b - stencilSumConstant(X);
  vec4 r = b - stencilSum(X, t);
  return mix(vec4(0.0), r, notEqual(texelFetch(u_A4, t, 0), vec4(0.0)));
}

#include "multigrid/border_kernel.glsl"
