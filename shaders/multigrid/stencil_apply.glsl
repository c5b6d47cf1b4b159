// y = A x on a layered field: owned free nodes get (A x), owned fixed nodes x (identity
// rows, as GridStencil::apply), border and padding zero. Flagged texels (constant-stencil
// fast path, stencil.glsl) read the stencil from uniforms.
#include "multigrid/layered.glsl"
#include "multigrid/stencil.glsl"
uniform ivec4 u_grid;
uniform sampler2D u_x;

void kernel(ivec2 t) {
  if (layeredRing(t, textureSize(u_x, 0))) {
    o_out0 = vec4(0.0);
    return;
  }
  vec4 y;
  if (stencilConstant(t)) {
    y = stencilApplyConstant(u_x, t);
  } else {
    bvec4 free = notEqual(texelFetch(u_A4, t, 0), vec4(0.0));
    y = mix(texelFetch(u_x, t, 0), stencilApply(u_x, t), free);
  }
  o_out0 = mix(vec4(0.0), y, layeredOwned(u_grid, t));
}
