// One colour of the forward substitution of the block-multicolour MIC(0) preconditioner
// (pressure3d/mic0.glsl): with M = (E - C_L) E^-1 (E - C_U), E the factor and C_L the
// couplings with earlier cells, y = (E - C_L)^-1 r, i.e. for each cell in order
//   y_i = (r_i + sum over earlier neighbours e of c_ie y_e) / e_i.
// u_y holds the earlier colours' results; this pass writes its own colour in place.
// Which neighbours are earlier: inside the block the x-1, y-1 and z-1 ones; across a block
// face, the blocks beside along x, y or z come earlier exactly when this colour has bit 0,
// 1 or 2 set (their colour is this one with that bit flipped). y vanishes on cells without
// an equation (their factor is 0), so without couplings the sums need no labels.
#include "pressure3d/mic0.glsl"

uniform sampler2D u_r;
uniform sampler2D u_inverseFactor;
uniform sampler2D u_y;

vec4 cone[16];

void kernel(ivec2 texel) {
  ivec3 b = gridBlock(u_grid, texel);
  if (b.z >= u_grid.size.z) {
    o_out0 = vec4(0.0);  // unused tiles stay zero
    return;
  }
  if (micBlockColour(b) != u_colour) KEEP_TEXEL();
  bool xEarlier = (u_colour & 1) != 0, yEarlier = (u_colour & 2) != 0, zEarlier = (u_colour & 4) != 0;
  ivec3 origin = ivec3(b.x, b.y & ~3, b.z & ~3);
  int bj = b.y - origin.y, bk = b.z - origin.z;
  GridCursor slice = gridCursorOf(u_grid, origin);
  for (int kk = 0; kk <= bk; ++kk) {
    GridCursor t = slice;
    for (int jj = 0; jj <= bj; ++jj) {
      vec4 inverse = texelFetch(u_inverseFactor, t.texel, 0);
      Around y;
      y.south = jj > 0 ? cone[MIC_CONE_INDEX(jj - 1, kk)] : (yEarlier ? gridReadAt(u_y, u_grid, t, ivec3(0, -1, 0)) : vec4(0.0));
      y.north = jj == 3 && yEarlier ? gridReadAt(u_y, u_grid, t, ivec3(0, 1, 0)) : vec4(0.0);
      y.down = kk > 0 ? cone[MIC_CONE_INDEX(jj, kk - 1)] : (zEarlier ? gridReadAt(u_y, u_grid, t, ivec3(0, 0, -1)) : vec4(0.0));
      y.up = kk == 3 && zEarlier ? gridReadAt(u_y, u_grid, t, ivec3(0, 0, 1)) : vec4(0.0);
      // Everything but the x-neighbours inside the texel, which follow one by one.
      y.west = vec4(xEarlier ? gridReadAt(u_y, u_grid, t, ivec3(-1, 0, 0)).w : 0.0, 0.0, 0.0, 0.0);
      y.east = vec4(0.0, 0.0, 0.0, xEarlier ? gridReadAt(u_y, u_grid, t, ivec3(1, 0, 0)).x : 0.0);
      vec4 sum = texelFetch(u_r, t.texel, 0) + vanishingNeighbourSum(y, t);
#ifdef COUPLINGS
      vec4 cx = texelFetch(u_couplingX, t.texel, 0);  // cx[m]: cell m with cell m - 1
#else
      vec4 cx = vec4(1.0);
#endif
      vec4 v;
      v.x = sum.x * inverse.x;
      v.y = (sum.y + cx.y * v.x) * inverse.y;
      v.z = (sum.z + cx.z * v.y) * inverse.z;
      v.w = (sum.w + cx.w * v.z) * inverse.w;
      cone[MIC_CONE_INDEX(jj, kk)] = v;
      t = gridStep(u_grid, t, ivec3(0, 1, 0));
    }
    slice = gridStep(u_grid, slice, ivec3(0, 0, 1));
  }
  o_out0 = cone[MIC_CONE_INDEX(bj, bk)];
}
