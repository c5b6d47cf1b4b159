// The boundary band of a level of PressureMultigrid3D, where its boundary sweeps relax
// (McAdams, Sifakis & Teran 2010, §4: extra smoothing near the boundary): 1 on cells with an
// equation within BAND_WIDTH face steps of a cell without one (solid, air, walled in) or of
// the grid's side, 0 elsewhere. Cells past the grid and padding channels read a zero
// diagonal, so the sides need no test of their own. mg_block_cycle.glsl marks its levels'
// bands by the same rule.
#include "grid3d/grid.glsl"

uniform Grid3 u_grid;
uniform sampler2D u_diagonal;

float diagonalOfCell(ivec3 cell) {
  if (cell.x < 0) return 0.0;
  return gridFetch(u_diagonal, u_grid, ivec3(cell.x >> 2, cell.yz))[cell.x & 3];
}

void kernel(ivec2 texel) {
  ivec3 b = gridBlock(u_grid, texel);
  vec4 band = vec4(0.0);
  if (b.z < u_grid.size.z) {
    vec4 d = texelFetch(u_diagonal, texel, 0);
    for (int ch = 0; ch < 4; ++ch) {
      if (d[ch] <= 0.0) continue;
      ivec3 cell = gridCell(b, ch);
      bool near = false;
      for (int dz = -BAND_WIDTH; dz <= BAND_WIDTH; ++dz) {
        for (int dy = -BAND_WIDTH; dy <= BAND_WIDTH; ++dy) {
          for (int dx = -BAND_WIDTH; dx <= BAND_WIDTH; ++dx) {
            if (abs(dx) + abs(dy) + abs(dz) > BAND_WIDTH) continue;
            near = near || diagonalOfCell(cell + ivec3(dx, dy, dz)) <= 0.0;
          }
        }
      }
      band[ch] = near ? 1.0 : 0.0;
    }
  }
  o_out0 = band;
}
