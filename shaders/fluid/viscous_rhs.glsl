// Right-hand side of the viscous step (sigma - Δ h^2) u = sigma u* for one velocity
// component q (layered, border in sync): sigma q at fluid nodes; at fixed nodes the value
// they hold (the prescribed velocity at solids, which the multigrid keeps: x = b there).
#include "multigrid/layered.glsl"
uniform ivec4 u_grid;
uniform sampler2D u_q;
uniform sampler2D u_centre;
uniform float u_sigma;

void kernel(ivec2 t) {
  vec4 q = texelFetch(u_q, t, 0);
  bvec4 fluid = notEqual(texelFetch(u_centre, t, 0), vec4(0.0));
  o_out0 = mix(q, u_sigma * q, fluid);
}
