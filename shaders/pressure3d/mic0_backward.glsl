// One colour of the backward substitution of the block-multicolour MIC(0) preconditioner
// (pressure3d/mic0.glsl), colours visited last to first: z = (E - C_U)^-1 E y, i.e. for each
// cell in reverse order
//   z_i = y_i + (sum over later neighbours l of c_il z_l) / e_i.
// An invocation recomputes the texels (q', j', k') >= its own in its block, which it depends
// on; u_z holds the later colours' results; this pass writes its own colour in place. Later
// neighbours: inside the block the x+1, y+1 and z+1 ones; across a block face, the blocks
// beside that micLowerEarlier and micUpperEarlier do not call earlier.
#include "pressure3d/mic0.glsl"

uniform sampler2D u_y;
uniform sampler2D u_inverseFactor;
uniform sampler2D u_z;

vec4 cone[MIC_CONE_SIZE];

void kernel(ivec2 texel) {
  ivec3 b = gridBlock(u_grid, texel);
  if (b.z >= u_grid.size.z) {
    o_out0 = vec4(0.0);  // unused tiles stay zero
    return;
  }
  ivec3 phase = micPhase(b);
  if (micColour(phase) != u_colour) KEEP_TEXEL();
  bvec3 lower = not(micLowerEarlier(phase)), upper = not(micUpperEarlier(phase));  // later
  ivec3 origin = (b / kMicBlock) * kMicBlock;
  ivec3 own = b - origin;
  for (int kk = MIC_BLOCK_Z - 1; kk >= own.z; --kk) {
    GridCursor row = gridCursorOf(u_grid, origin + ivec3(MIC_BLOCK_X - 1, MIC_BLOCK_Y - 1, kk));
    for (int jj = MIC_BLOCK_Y - 1; jj >= own.y; --jj) {
      GridCursor t = row;
      for (int qq = MIC_BLOCK_X - 1; qq >= own.x; --qq) {
        vec4 z = vec4(0.0);
        if (gridInside(u_grid, t.b)) {
          vec4 inverse = texelFetch(u_inverseFactor, t.texel, 0);
          Around l;
          l.north = jj < MIC_BLOCK_Y - 1 ? cone[MIC_CONE_INDEX(qq, jj + 1, kk)] : (upper.y ? gridReadAt(u_z, u_grid, t, ivec3(0, 1, 0)) : vec4(0.0));
          l.south = jj == 0 && lower.y ? gridReadAt(u_z, u_grid, t, ivec3(0, -1, 0)) : vec4(0.0);
          l.up = kk < MIC_BLOCK_Z - 1 ? cone[MIC_CONE_INDEX(qq, jj, kk + 1)] : (upper.z ? gridReadAt(u_z, u_grid, t, ivec3(0, 0, 1)) : vec4(0.0));
          l.down = kk == 0 && lower.z ? gridReadAt(u_z, u_grid, t, ivec3(0, 0, -1)) : vec4(0.0);
          l.west = vec4(qq == 0 && lower.x ? gridReadAt(u_z, u_grid, t, ivec3(-1, 0, 0)).w : 0.0, 0.0, 0.0, 0.0);
          float east = qq < MIC_BLOCK_X - 1 ? cone[MIC_CONE_INDEX(qq + 1, jj, kk)].x
                                            : (upper.x ? gridReadAt(u_z, u_grid, t, ivec3(1, 0, 0)).x : 0.0);
          l.east = vec4(0.0, 0.0, 0.0, east);
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
        cone[MIC_CONE_INDEX(qq, jj, kk)] = z;
        t = gridStep(u_grid, t, ivec3(-1, 0, 0));
      }
      row = gridStep(u_grid, row, ivec3(0, -1, 0));
    }
  }
  o_out0 = cone[MIC_CONE_INDEX(own.x, own.y, own.z)];
}
