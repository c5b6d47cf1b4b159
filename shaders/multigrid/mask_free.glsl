// o = x at owned free nodes, zero elsewhere: a layered field whose sums and norms count
// each free node once (no border duplicates, no fixed nodes). FREE_ONES: o = 1 there.
#include "multigrid/layered.glsl"
uniform ivec4 u_grid;
uniform sampler2D u_x;
uniform sampler2D u_centre;

void kernel(ivec2 t) {
  bvec4 free = notEqual(texelFetch(u_centre, t, 0), vec4(0.0));
  bvec4 keep = bvec4(ivec4(free) * ivec4(layeredOwned(u_grid, t)));
#ifdef FREE_ONES
  o_out0 = mix(vec4(0.0), vec4(1.0), keep);
#else
  o_out0 = mix(vec4(0.0), texelFetch(u_x, t, 0), keep);
#endif
}
