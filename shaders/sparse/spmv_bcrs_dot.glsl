// y = A x for a BcrsMatrix (compute backend) fused with the dot product y . x and an
// epilogue that consumes it, so that CG's w = A u and w . u take one pass instead of two
// (src/solvers/krylov/ChronopoulosGearCg.cpp). One dispatch over all of y's texels (padding
// texels have no blocks, so y = 0 there). Composed with the epilogue's file by
// stream::composeReductionKernel: u_image0 is y.
#include "sparse/spmv_bcrs_product.glsl"
#define PRODUCT bcrsProduct
#include "sparse/product_dot_whole_texture.glsl"
