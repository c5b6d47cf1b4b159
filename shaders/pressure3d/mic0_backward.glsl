// One colour of the backward substitution of the block-multicolour MIC(0) preconditioner
// (pressure3d/mic0.glsl), colours visited 7 .. 0: z = (E - C_U)^-1 E y, i.e. for each cell
// in reverse order
//   z_i = y_i + (sum over later neighbours l of c_il z_l) / e_i.
// An invocation recomputes the texels (j', k') >= its own in its block, which it depends on;
// u_z holds the later colours' results; this pass writes its own colour in place.
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
  ivec3 origin = ivec3(b.x, b.y & ~3, b.z & ~3);
  int bj = b.y - origin.y, bk = b.z - origin.z;
  for (int kk = 3; kk >= bk; --kk) {
    for (int jj = 3; jj >= bj; --jj) {
      ivec3 t = origin + ivec3(0, jj, kk);
      vec4 z = vec4(0.0);
      if (gridInside(u_grid, t)) {
        vec4 y = texelFetch(u_y, gridTexel(u_grid, t), 0);
        vec4 inverse = texelFetch(u_inverseFactor, gridTexel(u_grid, t), 0);
        for (int m = 3; m >= 0; --m) {
          if (inverse[m] == 0.0) continue;
          ivec3 i = ivec3(4 * t.x + m, t.y, t.z);
          float sum = 0.0;
          for (int f = 0; f < 6; ++f) {
            ivec3 n = i + kMicStep[f];
            float c = micCoupling(i, f);
            if (c == 0.0 || !micEarlier(i, n)) continue;
            sum += c * (!micSameBlock(n, i) ? micCell(u_z, n)
                        : (n.x != i.x ? z[m + 1] : cone[MIC_CONE_INDEX(n.y - origin.y, n.z - origin.z)][m]));
          }
          z[m] = y[m] + sum * inverse[m];
        }
      }
      cone[MIC_CONE_INDEX(jj, kk)] = z;
    }
  }
  o_out0 = cone[MIC_CONE_INDEX(bj, bk)];
}
