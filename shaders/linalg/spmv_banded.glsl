// y = A x for A stored as DIAGONALS diagonals (Krüger & Westermann §44.2.2, fig. 44-3):
// layer k of u_diagonals holds A(i, i + u_offsets[k]) at element i, in y's layout, so
// output texel t adds diag_k[4t..4t+3] * x[4t + off_k .. 4t + off_k + 3]. Entries whose
// column leaves [0, n) are stored as zero, and diagonalElements reads 0 outside x, so
// nothing wraps; the diagonals' zero padding keeps y's padding zero.
// DOUBLE_FLOAT_RESIDUAL: r = b - A x instead, with x = u_x + u_xLo and b = u_bHi + u_bLo
// double-float pairs, summed in double-float arithmetic and rounded to float at the end
// (the defect of mixed-precision refinement, Göddeke et al. 2007).
#include "linalg/spmv_banded_product.glsl"
#ifdef DOUBLE_FLOAT_RESIDUAL
#include "common/double_float.glsl"
uniform sampler2D u_xLo;
uniform sampler2D u_bHi;
uniform sampler2D u_bLo;
#endif

void kernel(ivec2 texel) {
#ifdef DOUBLE_FLOAT_RESIDUAL
  ivec2 base = bandedBase(texel);
  vec4 hi = texelFetch(u_bHi, texel, 0), lo = texelFetch(u_bLo, texel, 0);
  for (int k = 0; k < DIAGONALS; ++k) {
    dfAddProduct(hi, lo, -texelFetch(u_diagonals, ivec3(texel, k), 0), diagonalElements(u_x, base, k),
                 diagonalElements(u_xLo, base, k));
  }
  o_out0 = hi + lo;
#else
  o_out0 = bandedProduct(texel);
#endif
}
