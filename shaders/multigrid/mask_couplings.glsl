// Before composing A_2h = P A_h S (Bolz §4.2), couplings into fixed (Dirichlet) nodes are
// dropped: entry u_offset of owned free nodes is kept where the neighbour's centre is
// non-zero, else zero; fixed nodes, border and padding texels are zero (a border copy
// follows). The result is the operator on free nodes, which the Galerkin product needs.
#include "multigrid/layered.glsl"
uniform ivec4 u_grid;
uniform sampler2D u_entry;
uniform sampler2D u_centre;
uniform ivec2 u_offset;

void kernel(ivec2 t) {
  if (layeredRing(t, textureSize(u_centre, 0))) {
    o_out0 = vec4(0.0);
    return;
  }
  bvec4 neighbourFree = notEqual(texelFetch(u_centre, t + u_offset, 0), vec4(0.0));
  bvec4 owned = layeredOwned(u_grid, t);
  o_out0 = mix(vec4(0.0), texelFetch(u_entry, t, 0), bvec4(ivec4(neighbourFree) * ivec4(owned)));
}
