// One colour of the forward substitution of the block-multicolour MIC(0) preconditioner
// (pressure3d/mic0.glsl): with M = (E - C_L) E^-1 (E - C_U), E the factor and C_L the
// couplings with earlier cells, y = (E - C_L)^-1 r, i.e. for each cell in order
//   y_i = (r_i + sum over earlier neighbours e of c_ie y_e) / e_i.
// u_y holds the earlier colours' results; this pass writes its own colour in place.
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
  ivec3 origin = ivec3(b.x, b.y & ~3, b.z & ~3);
  int bj = b.y - origin.y, bk = b.z - origin.z;
  for (int kk = 0; kk <= bk; ++kk) {
    for (int jj = 0; jj <= bj; ++jj) {
      ivec3 t = origin + ivec3(0, jj, kk);
      vec4 r = gridFetch(u_r, u_grid, t), inverse = gridFetch(u_inverseFactor, u_grid, t);
      vec4 y = vec4(0.0);
      for (int m = 0; m < 4; ++m) {
        if (inverse[m] == 0.0) continue;
        ivec3 i = ivec3(4 * t.x + m, t.y, t.z);
        float sum = r[m];
        for (int f = 0; f < 6; ++f) {
          ivec3 n = i + kMicStep[f];
          float c = micCoupling(i, f);
          if (c == 0.0 || !micEarlier(n, i)) continue;
          sum += c * (!micSameBlock(n, i) ? micCell(u_y, n)
                      : (n.x != i.x ? y[m - 1] : cone[MIC_CONE_INDEX(n.y - origin.y, n.z - origin.z)][m]));
        }
        y[m] = sum * inverse[m];
      }
      cone[MIC_CONE_INDEX(jj, kk)] = y;
    }
  }
  o_out0 = cone[MIC_CONE_INDEX(bj, bk)];
}
