// Un-layering of the velocity (Bolz §4.3): node texel (i, j) = (u, v) of node (i, j).
#include "multigrid/layered.glsl"
uniform ivec4 u_grid;
uniform sampler2D u_u;
uniform sampler2D u_v;

void kernel(ivec2 n) {
  o_out0 = vec4(layeredValue(u_u, u_grid, n), layeredValue(u_v, u_grid, n), 0.0, 0.0);
}
