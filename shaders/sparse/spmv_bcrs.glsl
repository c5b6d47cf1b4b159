// y = A x for a BcrsMatrix (Buatois et al. 2008, §2.2.3 and §2.3.3): the output texel
// loops over the blocks of its block row(s); block b's values, column and everything else
// sit at one index (texel b of the block textures, 2^u_blockShift wide).
//   BLOCK 4: texel t = block row t; layers 0..3 of u_values are the block's rows; x's
//            texel J is fetched once and reused by the four rows (register blocking).
//   BLOCK 2: texel t = block rows 2t (y.xy) and 2t+1 (y.zw); a block is one texel
//            (a00, a01, a10, a11) times the half texel of x holding columns 2J, 2J+1.
// u_rows per output texel: (first block, blocks in the first block row, blocks in the
// second (BLOCK 2)). X_WIDTH: x's layout width (a #define: division by a constant).
#include "sparse/element.glsl"

uniform sampler2DArray u_values;
uniform sampler2D u_columns;  // block column J per block (R32F, exact integers)
uniform sampler2D u_rows;
uniform sampler2D u_x;
uniform int u_blockShift;

vec4 xTexel(int t) { return texelFetch(u_x, ivec2(t % X_WIDTH, t / X_WIDTH), 0); }

void kernel(ivec2 texel) {
  vec4 info = texelFetch(u_rows, texel, 0);
  int first = int(info.x), end0 = first + int(info.y);
  vec4 y = vec4(0.0);
#if BLOCK == 4
  for (int b = first; b < end0; ++b) {
    ivec2 at = texelAtShift(b, u_blockShift);
    vec4 xj = xTexel(int(texelFetch(u_columns, at, 0).x));
    y += vec4(dot(texelFetch(u_values, ivec3(at, 0), 0), xj), dot(texelFetch(u_values, ivec3(at, 1), 0), xj),
              dot(texelFetch(u_values, ivec3(at, 2), 0), xj), dot(texelFetch(u_values, ivec3(at, 3), 0), xj));
  }
#else
  int end1 = end0 + int(info.z);
  for (int b = first; b < end1; ++b) {
    ivec2 at = texelAtShift(b, u_blockShift);
    int J = int(texelFetch(u_columns, at, 0).x);
    vec4 xt = xTexel(J >> 1);
    vec2 xj = (J & 1) == 0 ? xt.xy : xt.zw;
    vec4 a = texelFetch(u_values, ivec3(at, 0), 0);
    vec2 p = vec2(dot(a.xy, xj), dot(a.zw, xj));
    if (b < end0) y.xy += p;
    else y.zw += p;
  }
#endif
  o_out0 = y;
}
