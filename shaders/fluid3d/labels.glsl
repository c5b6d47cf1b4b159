// The cells' labels for linalg::PressureMatrix3D::update on the packed grid u_packed (four
// cells a texel): 1 in solid cells (.x of u_solids), else with LEVEL_SET 0 (fluid) where the
// level set (.x of u_scalars) is negative and 2 (air) elsewhere, and the level set packed
// in o_out1; without it 0 (smoke fills every cell that is not solid).
#include "fluid3d/mac.glsl"

uniform Grid3 u_packed;
uniform sampler2D u_solids;
#ifdef LEVEL_SET
uniform sampler2D u_scalars;
#endif

void kernel(ivec2 texel) {
  ivec3 b = gridBlock(u_packed, texel);
  vec4 labels = vec4(0.0), phi = vec4(0.0);
  if (b.z < u_packed.size.z) {
    for (int ch = 0; ch < 4; ++ch) {
      ivec3 c = gridCell(b, ch);
      if (c.x >= u_cells.size.x) continue;
      ivec2 t = gridTexel(u_cells, c);
#ifdef LEVEL_SET
      phi[ch] = texelFetch(u_scalars, t, 0).x;
      labels[ch] = phi[ch] < 0.0 ? 0.0 : 2.0;
#endif
      if (texelFetch(u_solids, t, 0).x > 0.5) labels[ch] = 1.0;
    }
  }
  o_out0 = labels;
#ifdef LEVEL_SET
  o_out1 = phi;
#endif
}
