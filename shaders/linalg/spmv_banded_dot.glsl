// y = A x for a BandedMatrix (compute backend) fused with the dot product y . x and an
// epilogue that consumes it, so that CG's w = A u and w . u take one pass instead of two
// (src/solvers/ChronopoulosGearCg.cpp). One dispatch over all of y's texels (padding
// included: the diagonals' zero padding makes y 0 there); x is in y's layout, so y . x
// pairs texel with texel. The workgroups' partial sums are folded by
// sparse/product_dot_fold.glsl, whose last workgroup calls epilogue(value) once.
// Composed with the epilogue's file by stream::composeReductionKernel: u_image0 is y.
layout(local_size_x = 16, local_size_y = 16) in;
#include "linalg/spmv_banded_product.glsl"
#include "sparse/product_dot_fold.glsl"

uniform ivec2 u_size;  // y's (and x's) texture size in texels

void main() {
  ivec2 texel = ivec2(gl_GlobalInvocationID.xy);
  float part = 0.0;
  if (texel.x < u_size.x && texel.y < u_size.y) {  // no early return: every invocation meets the barriers
    vec4 xHere = texelFetch(u_x, texel, 0);
    vec4 y = bandedProduct(texel);
    imageStore(u_image0, texel, y);
    part = dot(y, xHere);
  }
  foldDot(part);
}
