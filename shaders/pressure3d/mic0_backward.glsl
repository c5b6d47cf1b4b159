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
  // The cursor of the block's last texel (j', k') = (3, 3), then stepping back.
  GridCursor slice = gridStep(u_grid, gridCursorOf(u_grid, origin), ivec3(0, 3, 1));
  slice = gridStep(u_grid, gridStep(u_grid, slice, ivec3(0, 0, 1)), ivec3(0, 0, 1));
  for (int kk = 3; kk >= bk; --kk) {
    GridCursor t = slice;
    for (int jj = 3; jj >= bj; --jj) {
      vec4 z = vec4(0.0);
      if (gridInside(u_grid, t.b)) {
        vec4 inverse = texelFetch(u_inverseFactor, t.texel, 0);
        Around l;
        l.north = jj < 3 ? cone[MIC_CONE_INDEX(jj + 1, kk)] : (yLater ? gridReadAt(u_z, u_grid, t, ivec3(0, 1, 0)) : vec4(0.0));
        l.south = jj == 0 && yLater ? gridReadAt(u_z, u_grid, t, ivec3(0, -1, 0)) : vec4(0.0);
        l.up = kk < 3 ? cone[MIC_CONE_INDEX(jj, kk + 1)] : (zLater ? gridReadAt(u_z, u_grid, t, ivec3(0, 0, 1)) : vec4(0.0));
        l.down = kk == 0 && zLater ? gridReadAt(u_z, u_grid, t, ivec3(0, 0, -1)) : vec4(0.0);
        l.west = vec4(xLater ? gridReadAt(u_z, u_grid, t, ivec3(-1, 0, 0)).w : 0.0, 0.0, 0.0, 0.0);
        l.east = vec4(0.0, 0.0, 0.0, xLater ? gridReadAt(u_z, u_grid, t, ivec3(1, 0, 0)).x : 0.0);
        vec4 sum = vanishingNeighbourSum(l, t);
#ifdef COUPLINGS
        vec4 cxe = gridEastOf(u_couplingX, u_grid, t, texelFetch(u_couplingX, t.texel, 0));  // cell m with m + 1
#else
        vec4 cxe = vec4(1.0);
#endif
        vec4 y = texelFetch(u_y, t.texel, 0);
        z.w = y.w + sum.w * inverse.w;
        z.z = y.z + (sum.z + cxe.z * z.w) * inverse.z;
        z.y = y.y + (sum.y + cxe.y * z.z) * inverse.y;
        z.x = y.x + (sum.x + cxe.x * z.y) * inverse.x;
      }
      cone[MIC_CONE_INDEX(jj, kk)] = z;
      t = gridStep(u_grid, t, ivec3(0, -1, 0));
    }
    slice = gridStep(u_grid, slice, ivec3(0, 0, -1));
  }
  o_out0 = cone[MIC_CONE_INDEX(bj, bk)];
}
