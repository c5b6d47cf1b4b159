// A liquid's volume on the packed grid u_packed (four cells a texel): for each cell not
// solid, the fraction of it inside the liquid, clamp(1/2 - phi, 0, 1) for the level set phi
// (.x of the cells field u_scalars, in cells), in o_out0, and 1 in o_out1 where that
// fraction is strictly between 0 and 1 (its derivative with respect to a shift of phi).
// Sums of the two give the volume in cells and the Newton step of the volume correction
// (fluid3d/redistance.glsl).
#include "fluid3d/mac.glsl"

uniform Grid3 u_packed;
uniform sampler2D u_scalars;
uniform sampler2D u_solids;

void kernel(ivec2 texel) {
  ivec3 b = gridBlock(u_packed, texel);
  vec4 fraction = vec4(0.0), band = vec4(0.0);
  if (b.z < u_packed.size.z) {
    for (int ch = 0; ch < 4; ++ch) {
      ivec3 c = gridCell(b, ch);
      if (c.x >= u_cells.size.x) continue;
      if (texelFetch(u_solids, gridTexel(u_cells, c), 0).x > 0.5) continue;
      float phi = texelFetch(u_scalars, gridTexel(u_cells, c), 0).x;
      fraction[ch] = clamp(0.5 - phi, 0.0, 1.0);
      band[ch] = (phi > -0.5 && phi < 0.5) ? 1.0 : 0.0;
    }
  }
  o_out0 = fraction;
  o_out1 = band;
}
