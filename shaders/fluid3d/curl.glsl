// The vorticity omega = curl u at the cell centres (cells field: omega in .xyz, |omega| in
// .w; 1 / time), by central differences of the cell-centred velocity (fluid3d/mac.glsl),
// one-sided (half the step) at the box's sides; for the confinement force of
// fluid3d/advect_velocity.glsl (Fedkiw, Stam & Jensen 2001).
#include "fluid3d/mac.glsl"

uniform sampler2D u_velocity;
uniform float u_h;

vec3 centred(ivec3 c) { return cellVelocity(u_velocity, clamp(c, ivec3(0), cellCount() - 1)); }

void kernel(ivec2 texel) {
  ivec3 c = gridBlock(u_cells, texel);
  if (c.z >= u_cells.size.z) {
    o_out0 = vec4(0.0);
    return;
  }
  vec3 dx = centred(c + ivec3(1, 0, 0)) - centred(c - ivec3(1, 0, 0));
  vec3 dy = centred(c + ivec3(0, 1, 0)) - centred(c - ivec3(0, 1, 0));
  vec3 dz = centred(c + ivec3(0, 0, 1)) - centred(c - ivec3(0, 0, 1));
  vec3 omega = vec3(dy.z - dz.y, dz.x - dx.z, dx.y - dy.x) / (2.0 * u_h);
  o_out0 = vec4(omega, length(omega));
}
