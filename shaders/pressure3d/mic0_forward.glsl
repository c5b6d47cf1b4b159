// One colour of the forward substitution of the block-multicolour MIC(0) preconditioner
// (pressure3d/mic0.glsl): with M = (E - C_L) E^-1 (E - C_U), E the factor and C_L the
// couplings with earlier cells, y = (E - C_L)^-1 r, i.e. for each cell in order
//   y_i = (r_i + sum over earlier neighbours e of c_ie y_e) / e_i.
// u_y holds the earlier colours' results; this pass writes its own colour in place.
// Which neighbours are earlier: inside the block the x-1, y-1 and z-1 ones; across a block
// face, the blocks beside as micLowerEarlier and micUpperEarlier say. y vanishes on cells
// without an equation (their factor is 0), so without couplings the sums need no labels.
#include "pressure3d/mic0.glsl"

uniform sampler2D u_r;
uniform sampler2D u_inverseFactor;
uniform sampler2D u_y;

vec4 cone[MIC_CONE_SIZE];

void kernel(ivec2 texel) {
  ivec3 b = gridBlock(u_grid, texel);
  if (b.z >= u_grid.size.z) {
    o_out0 = vec4(0.0);  // unused tiles stay zero
    return;
  }
  ivec3 phase = micPhase(b);
  if (micColour(phase) != u_colour) KEEP_TEXEL();
  bvec3 lower = micLowerEarlier(phase), upper = micUpperEarlier(phase);
  ivec3 origin = (b / kMicBlock) * kMicBlock;
  ivec3 own = b - origin;
  for (int kk = 0; kk <= own.z; ++kk) {
    GridCursor row = gridCursorOf(u_grid, origin + ivec3(0, 0, kk));
    for (int jj = 0; jj <= own.y; ++jj) {
      GridCursor t = row;
      for (int qq = 0; qq <= own.x; ++qq) {
        vec4 v = vec4(0.0);
        if (gridInside(u_grid, t.b)) {
          vec4 inverse = texelFetch(u_inverseFactor, t.texel, 0);
          Around y;
          y.south = jj > 0 ? cone[MIC_CONE_INDEX(qq, jj - 1, kk)] : (lower.y ? gridReadAt(u_y, u_grid, t, ivec3(0, -1, 0)) : vec4(0.0));
          y.north = jj == MIC_BLOCK_Y - 1 && upper.y ? gridReadAt(u_y, u_grid, t, ivec3(0, 1, 0)) : vec4(0.0);
          y.down = kk > 0 ? cone[MIC_CONE_INDEX(qq, jj, kk - 1)] : (lower.z ? gridReadAt(u_y, u_grid, t, ivec3(0, 0, -1)) : vec4(0.0));
          y.up = kk == MIC_BLOCK_Z - 1 && upper.z ? gridReadAt(u_y, u_grid, t, ivec3(0, 0, 1)) : vec4(0.0);
          // Everything but the x-neighbours inside the texel, which follow one by one.
          float west = qq > 0 ? cone[MIC_CONE_INDEX(qq - 1, jj, kk)].w
                              : (lower.x ? gridReadAt(u_y, u_grid, t, ivec3(-1, 0, 0)).w : 0.0);
          y.west = vec4(west, 0.0, 0.0, 0.0);
          y.east = vec4(0.0, 0.0, 0.0, qq == MIC_BLOCK_X - 1 && upper.x ? gridReadAt(u_y, u_grid, t, ivec3(1, 0, 0)).x : 0.0);
          vec4 sum = texelFetch(u_r, t.texel, 0) + vanishingNeighbourSum(y, t);
#ifdef COUPLINGS
          vec4 cx = texelFetch(u_couplingX, t.texel, 0);  // cx[m]: cell m with cell m - 1
#else
          vec4 cx = vec4(1.0);
#endif
          v.x = sum.x * inverse.x;
          v.y = (sum.y + cx.y * v.x) * inverse.y;
          v.z = (sum.z + cx.z * v.y) * inverse.z;
          v.w = (sum.w + cx.w * v.z) * inverse.w;
        }
        cone[MIC_CONE_INDEX(qq, jj, kk)] = v;
        t = gridStep(u_grid, t, ivec3(1, 0, 0));
      }
      row = gridStep(u_grid, row, ivec3(0, 1, 0));
    }
  }
  o_out0 = cone[MIC_CONE_INDEX(own.x, own.y, own.z)];
}
