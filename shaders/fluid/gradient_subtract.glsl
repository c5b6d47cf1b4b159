// Projection of the node velocities: every face to a fluid or outlet neighbour is corrected
// by the gradient phi_nb - phi (faces to solids keep the solid's velocity), and a node takes
// the average of its two faces' corrections per axis. o_out0 = u, o_out1 = v at owned
// fluid nodes, the old values at other owned nodes; in the border zero (a copy follows),
// or with BORDER_IN_KERNEL each duplicate the value computed at its owner's texel and
// channel (multigrid/border_kernel.glsl's rule for two outputs): bit for bit the copy.
#include "fluid/gradient_texel.glsl"

void kernel(ivec2 t) {
  vec4 u, v;
  projectedTexel(t, u, v);
  o_out0 = u;
  o_out1 = v;
}
