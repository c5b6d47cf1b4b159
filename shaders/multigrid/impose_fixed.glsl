// x = b at owned fixed (Dirichlet) nodes, x elsewhere; border and padding zero until the
// border copy that follows.
#include "multigrid/layered.glsl"
uniform ivec4 u_grid;
uniform sampler2D u_x;
uniform sampler2D u_b;
uniform sampler2D u_centre;

void kernel(ivec2 t) {
  bvec4 free = notEqual(texelFetch(u_centre, t, 0), vec4(0.0));
  vec4 x = mix(texelFetch(u_b, t, 0), texelFetch(u_x, t, 0), free);
  o_out0 = mix(vec4(0.0), x, layeredOwned(u_grid, t));
}
