// The solid cells of a step (cells field: .x 1 in solid cells, .yzw the solid's velocity
// in domain units per time): the static obstacles (STATIC: .x of u_static, at rest) and a
// moving sphere (u_sphere: centre in cell units, radius in cells; a cell is inside when its
// centre is) with velocity u_sphereVelocity.
#include "fluid3d/mac.glsl"

#ifdef STATIC
uniform sampler2D u_static;
#endif
uniform vec4 u_sphere;
uniform vec4 u_sphereVelocity;

void kernel(ivec2 texel) {
  ivec3 c = gridBlock(u_cells, texel);
  vec4 out0 = vec4(0.0);
  if (c.z < u_cells.size.z) {
    vec3 d = vec3(c) + 0.5 - u_sphere.xyz;
    if (dot(d, d) < u_sphere.w * u_sphere.w) out0 = vec4(1.0, u_sphereVelocity.xyz);
#ifdef STATIC
    if (texelFetch(u_static, texel, 0).x > 0.5) out0 = vec4(1.0, 0.0, 0.0, 0.0);
#endif
  }
  o_out0 = out0;
}
