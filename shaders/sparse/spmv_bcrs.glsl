// y = A x for a BcrsMatrix (Buatois et al. 2008, §2.2.3 and §2.3.3): the output texel
// loops over the blocks of its block row(s); block b's values, column and everything else
// sit at one index (texel b of the block textures, 2^u_blockShift wide).
//   BLOCK 4: texel t = block row t; layers 0..3 of u_values are the block's rows; x's
//            texel J is fetched once and reused by the four rows (register blocking).
//   BLOCK 2: texel t = block rows 2t (y.xy) and 2t+1 (y.zw); a block is one texel
//            (a00, a01, a10, a11) times the half texel of x holding columns 2J, 2J+1.
// u_rows per output texel: (first block, blocks in the first block row, blocks in the
// second (BLOCK 2)). X_WIDTH: x's layout width (a #define: division by a constant).
#include "sparse/spmv_bcrs_product.glsl"

void kernel(ivec2 texel) {
#ifdef DOUBLE_FLOAT_RESIDUAL
  o_out0 = bcrsResidual(texel);
#else
  o_out0 = bcrsProduct(texel);
#endif
}
