// Vorticity omega = dv/dx - du/dy of the node velocity (central differences), zero at
// nodes that are not fluid.
#include "fluid/nodes.glsl"
uniform sampler2D u_velocity;
uniform sampler2D u_boundary;
uniform float u_h;

void kernel(ivec2 n) {
  float w = (nodeFetch(u_velocity, n + ivec2(1, 0)).y - nodeFetch(u_velocity, n - ivec2(1, 0)).y -
             nodeFetch(u_velocity, n + ivec2(0, 1)).x + nodeFetch(u_velocity, n - ivec2(0, 1)).x) / (2.0 * u_h);
  o_out0 = vec4(nodeType(u_boundary, n) == kFluid ? w : 0.0, 0.0, 0.0, 0.0);
}
