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
  for (int kk = 0; kk <= bk; ++kk) {
    for (int jj = 0; jj <= bj; ++jj) {
      ivec3 t = origin + ivec3(0, jj, kk);
      vec4 inverse = gridFetch(u_inverseFactor, u_grid, t);
      vec4 ys = jj > 0 ? cone[MIC_CONE_INDEX(jj - 1, kk)] : (yEarlier ? gridFetch(u_y, u_grid, t - ivec3(0, 1, 0)) : vec4(0.0));
      vec4 yn = jj == 3 && yEarlier ? gridFetch(u_y, u_grid, t + ivec3(0, 1, 0)) : vec4(0.0);
      vec4 yd = kk > 0 ? cone[MIC_CONE_INDEX(jj, kk - 1)] : (zEarlier ? gridFetch(u_y, u_grid, t - ivec3(0, 0, 1)) : vec4(0.0));
      vec4 yu = kk == 3 && zEarlier ? gridFetch(u_y, u_grid, t + ivec3(0, 0, 1)) : vec4(0.0);
      float west = xEarlier ? gridFetch(u_y, u_grid, t - ivec3(1, 0, 0)).w : 0.0;
      float east = xEarlier ? gridFetch(u_y, u_grid, t + ivec3(1, 0, 0)).x : 0.0;
      // Everything but the x-neighbours inside the texel, which follow one by one.
      vec4 xw = vec4(west, 0.0, 0.0, 0.0), xe = vec4(0.0, 0.0, 0.0, east);
      vec4 sum = gridFetch(u_r, u_grid, t) + vanishingNeighbourSum(t, xw, xe, ys, yn, yd, yu);
#ifdef COUPLINGS
      vec4 cx = gridFetch(u_couplingX, u_grid, t);  // cx[m]: cell m with cell m - 1
#else
      vec4 cx = vec4(1.0);
#endif
      vec4 y;
      y.x = sum.x * inverse.x;
      y.y = (sum.y + cx.y * y.x) * inverse.y;
      y.z = (sum.z + cx.z * y.y) * inverse.z;
      y.w = (sum.w + cx.w * y.z) * inverse.w;
      cone[MIC_CONE_INDEX(jj, kk)] = y;
    }
  }
  o_out0 = cone[MIC_CONE_INDEX(bj, bk)];
}
