// One colour of the backward substitution of the block-multicolour MIC(0) preconditioner
// (pressure3d/mic0.glsl), colours visited 7 .. 0: z = (E - C_U)^-1 E y, i.e. for each cell
// in reverse order
//   z_i = y_i + (sum over later neighbours l of c_il z_l) / e_i.
// An invocation recomputes the texels (j', k') >= its own in its block, which it depends on;
// u_z holds the later colours' results; this pass writes its own colour in place. Later
// neighbours: inside the block the x+1, y+1 and z+1 ones; across a block face, the blocks
// beside along x, y or z when this colour has bit 0, 1 or 2 clear.
#include "pressure3d/mic0.glsl"

uniform sampler2D u_y;
uniform sampler2D u_inverseFactor;
uniform sampler2D u_z;

vec4 cone[16];

void kernel(ivec2 texel) {
  ivec3 b = gridBlock(u_grid, texel);
  if (b.z >= u_grid.size.z) {
    o_out0 = vec4(0.0);  // unused tiles stay zero
    return;
  }
  if (micBlockColour(b) != u_colour) KEEP_TEXEL();
  bool xLater = (u_colour & 1) == 0, yLater = (u_colour & 2) == 0, zLater = (u_colour & 4) == 0;
  ivec3 origin = ivec3(b.x, b.y & ~3, b.z & ~3);
  int bj = b.y - origin.y, bk = b.z - origin.z;
  for (int kk = 3; kk >= bk; --kk) {
    for (int jj = 3; jj >= bj; --jj) {
      ivec3 t = origin + ivec3(0, jj, kk);
      vec4 z = vec4(0.0);
      if (gridInside(u_grid, t)) {
        vec4 inverse = texelFetch(u_inverseFactor, gridTexel(u_grid, t), 0);
        vec4 zn = jj < 3 ? cone[MIC_CONE_INDEX(jj + 1, kk)] : (yLater ? gridFetch(u_z, u_grid, t + ivec3(0, 1, 0)) : vec4(0.0));
        vec4 zs = jj == 0 && yLater ? gridFetch(u_z, u_grid, t - ivec3(0, 1, 0)) : vec4(0.0);
        vec4 zu = kk < 3 ? cone[MIC_CONE_INDEX(jj, kk + 1)] : (zLater ? gridFetch(u_z, u_grid, t + ivec3(0, 0, 1)) : vec4(0.0));
        vec4 zd = kk == 0 && zLater ? gridFetch(u_z, u_grid, t - ivec3(0, 0, 1)) : vec4(0.0);
        float west = xLater ? gridFetch(u_z, u_grid, t - ivec3(1, 0, 0)).w : 0.0;
        float east = xLater ? gridFetch(u_z, u_grid, t + ivec3(1, 0, 0)).x : 0.0;
        vec4 xw = vec4(west, 0.0, 0.0, 0.0), xe = vec4(0.0, 0.0, 0.0, east);
        vec4 sum = vanishingNeighbourSum(t, xw, xe, zs, zn, zd, zu);
#ifdef COUPLINGS
        vec4 cxe = gridEastCells(u_couplingX, u_grid, t, gridFetch(u_couplingX, u_grid, t));  // cell m with m + 1
#else
        vec4 cxe = vec4(1.0);
#endif
        vec4 y = texelFetch(u_y, gridTexel(u_grid, t), 0);
        z.w = y.w + sum.w * inverse.w;
        z.z = y.z + (sum.z + cxe.z * z.w) * inverse.z;
        z.y = y.y + (sum.y + cxe.y * z.z) * inverse.y;
        z.x = y.x + (sum.x + cxe.x * z.y) * inverse.x;
      }
      cone[MIC_CONE_INDEX(jj, kk)] = z;
    }
  }
  o_out0 = cone[MIC_CONE_INDEX(bj, bk)];
}
