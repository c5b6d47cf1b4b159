// The labels of a coarse level of PressureMultigrid3D (McAdams, Sifakis & Teran 2010):
// a coarse cell is air (2) if any child is air, else fluid (0) if any child has an equation,
// else solid (1). Read from the fine level's diagonal field (A_ii > 0, 0 solid, -1 air),
// written for pressure3d/build.glsl. Coarse cell 4Q + m's children are fine cells
// 8Q + 2m and 8Q + 2m + 1: channels 2 (m % 2) and 2 (m % 2) + 1 of fine texel 2Q + m / 2.
#include "grid3d/grid.glsl"

uniform Grid3 u_fine;
uniform Grid3 u_coarse;
uniform sampler2D u_fineDiagonal;

void kernel(ivec2 texel) {
  ivec3 B = gridBlock(u_coarse, texel);
  bvec4 air = bvec4(false), fluid = bvec4(false);
  for (int dz = 0; dz < 2; ++dz) {
    for (int dy = 0; dy < 2; ++dy) {
      ivec3 f = ivec3(2 * B.x, 2 * B.y + dy, 2 * B.z + dz);
      vec4 a = gridFetch(u_fineDiagonal, u_fine, f);
      vec4 c = gridFetch(u_fineDiagonal, u_fine, f + ivec3(1, 0, 0));
      vec4 lo = vec4(a.x, a.z, c.x, c.z), hi = vec4(a.y, a.w, c.y, c.w);
      air = bvec4(ivec4(air) | ivec4(lessThan(lo, vec4(0.0))) | ivec4(lessThan(hi, vec4(0.0))));
      fluid = bvec4(ivec4(fluid) | ivec4(greaterThan(lo, vec4(0.0))) | ivec4(greaterThan(hi, vec4(0.0))));
    }
  }
  o_out0 = mix(mix(vec4(1.0), vec4(0.0), fluid), vec4(2.0), air);
}
