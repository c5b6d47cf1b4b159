// One step of defect correction on the finest level: with c the correction a cycle found
// for A c = r (border in sync), o_out0 = x + c (every texel, so x's border stays in sync;
// fixed nodes have c = 0) and o_out1 = r - A c at owned free nodes, zero elsewhere.
#include "multigrid/layered.glsl"
#include "multigrid/stencil.glsl"
uniform ivec4 u_grid;
uniform sampler2D u_x;
uniform sampler2D u_r;
uniform sampler2D u_c;

void kernel(ivec2 t) {
  vec4 c = texelFetch(u_c, t, 0);
  bvec4 free = notEqual(texelFetch(u_A4, t, 0), vec4(0.0));
  o_out0 = texelFetch(u_x, t, 0) + mix(vec4(0.0), c, free);
  if (layeredRing(t, textureSize(u_c, 0))) {
    o_out1 = vec4(0.0);
    return;
  }
  vec4 r = texelFetch(u_r, t, 0) - (stencilConstant(t) ? stencilApplyConstant(u_c, t) : stencilApply(u_c, t));
  o_out1 = mix(vec4(0.0), r, bvec4(ivec4(free) * ivec4(layeredOwned(u_grid, t))));
}
