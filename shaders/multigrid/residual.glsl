// r = b - A x at free owned nodes, zero at fixed ones (x = b there: no residual). The
// projection reads r at neighbours: a border copy follows, or BORDER_IN_KERNEL.
#include "multigrid/layered.glsl"
#include "multigrid/stencil.glsl"
uniform ivec4 u_grid;
uniform sampler2D u_x;
uniform sampler2D u_b;

vec4 value(ivec2 t) {
  vec4 r = texelFetch(u_b, t, 0) - stencilApply(u_x, t);
  return mix(vec4(0.0), r, notEqual(texelFetch(u_A4, t, 0), vec4(0.0)));
}

#include "multigrid/border_kernel.glsl"
