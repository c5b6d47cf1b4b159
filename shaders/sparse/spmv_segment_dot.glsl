// y = A x for a SegmentMatrix of one group of short rows whose rectangles cover the whole
// internal texture (a mesh's: SegmentMatrix.cpp, productPerGroup), fused with y . x and an
// epilogue (compute backend): the per-group program's product (K a #define, so the
// compiler unrolls the segment and issues its gathers together) in 16 x 16 workgroups over
// every texel, folded by sparse/product_dot_fold.glsl. Composed with the epilogue's file
// by stream::composeReductionKernel: u_image0 is y.
#define PARTIAL 0
#include "sparse/spmv_segment_product.glsl"
#define PRODUCT segmentProduct
#include "sparse/product_dot_whole_texture.glsl"
