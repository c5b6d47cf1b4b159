// One colour of the block-multicolour MIC(0) factorisation (pressure3d/mic0.glsl has the
// ordering): for each cell i of this colour's blocks, in order,
//   e_i = A_ii - sum over earlier neighbours e of (c_ie^2 + tau c_ie s_e) / e_e,
//   s_e = sum of c_eg over e's later neighbours g other than i (the fill MIC(0) keeps on the
//         diagonal; tau = 0 gives IC(0)),
// with e_i = A_ii where e_i < sigma A_ii (Bridson 2015, §5.3); the output is 1 / e_i (0 on
// cells without an equation). u_inverseFactor holds the earlier colours' results; this pass
// writes its own colour in place and keeps the other texels.
#include "pressure3d/mic0.glsl"

uniform sampler2D u_inverseFactor;
uniform float u_tau;
uniform float u_sigma;

vec4 cone[MIC_CONE_SIZE];

void kernel(ivec2 texel) {
  ivec3 b = gridBlock(u_grid, texel);
  if (b.z >= u_grid.size.z) {
    o_out0 = vec4(0.0);  // unused tiles stay zero
    return;
  }
  if (micColour(micPhase(b)) != u_colour) KEEP_TEXEL();
  ivec3 origin = (b / kMicBlock) * kMicBlock;
  ivec3 own = b - origin;
  for (int kk = 0; kk <= own.z; ++kk) {
    for (int jj = 0; jj <= own.y; ++jj) {
      for (int qq = 0; qq <= own.x; ++qq) {
        ivec3 t = origin + ivec3(qq, jj, kk);
        vec4 result = vec4(0.0);
        for (int m = 0; m < 4; ++m) {
          ivec3 i = ivec3(4 * t.x + m, t.y, t.z);
          if (!micInside(i)) continue;
          float aii = micCell(u_diagonal, i);
          if (aii <= 0.0) continue;
          float e = aii;
          for (int f = 0; f < 6; ++f) {
            ivec3 n = i + kMicStep[f];
            float c = micCoupling(i, f);
            if (c == 0.0 || !micEarlier(n, i)) continue;
            float s = 0.0;
            for (int g = 0; g < 6; ++g) {
              ivec3 m2 = n + kMicStep[g];
              if (all(equal(m2, i)) || !micInside(m2) || !micEarlier(n, m2)) continue;
              s += micCoupling(n, g);
            }
            // In the block: the x-neighbour in this texel is its previous cell, the others
            // lie in the cone; elsewhere an earlier colour wrote it.
            ivec3 nt = ivec3(n.x >> 2, n.y, n.z) - origin;
            float inv = !micSameBlock(n, i) ? micCell(u_inverseFactor, n)
                        : (nt.x == qq && n.x != i.x ? result[m - 1] : cone[MIC_CONE_INDEX(nt.x, nt.y, nt.z)][n.x & 3]);
            e -= (c * c + u_tau * c * s) * inv;
          }
          if (e < u_sigma * aii) e = aii;
          result[m] = 1.0 / e;
        }
        cone[MIC_CONE_INDEX(qq, jj, kk)] = result;
      }
    }
  }
  o_out0 = cone[MIC_CONE_INDEX(own.x, own.y, own.z)];
}
