// y = A x for a SegmentMatrix (Bolz et al. 2003, §3.1.1, fig. 2), on internally ordered
// vectors. Output texel t holds rows 4t..4t+3; their off-diagonal entries are the texels
// R[t] + (u_offset + c) u_stride, c < K, of the values texture (channel = row 4t + channel)
// (u_stride 1: Bolz's consecutive segments; > 1: interleaved for coalescing) and the same
// texels of C give the element index of x_j (padded entries: a = 0 and the constant zero
// element). This pass sums K of them (K a #define: one program per row group):
//   y = [DIAGONAL] diag * x + [PARTIAL] partial + sum_c A[R + (u_offset + c) u_stride] * x[C[...]]
// Long segments take several passes, the partial sums carried in u_partial.
// DOUBLE_FLOAT_RESIDUAL: r = b - A x in double-float arithmetic instead, DOUBLE_FLOAT_PRODUCT
// y = A x (segmentDoubleFloat), chunks carrying the pair (o_out0 head, o_out1 tail); the
// LAST_CHUNK of a residual writes r rounded to float, a product's keeps the pair.
#include "sparse/spmv_segment_product.glsl"

void kernel(ivec2 texel) {
#if defined(DOUBLE_FLOAT_RESIDUAL) || defined(DOUBLE_FLOAT_PRODUCT)
  vec4 hi, lo;
  segmentDoubleFloat(texel, hi, lo);
#if LAST_CHUNK && defined(DOUBLE_FLOAT_RESIDUAL)
  o_out0 = hi + lo;
#else
  o_out0 = hi;
  o_out1 = lo;
#endif
#else
  o_out0 = segmentProduct(texel);
#endif
}
