// y = A x for a SegmentMatrix (compute backend, single-pass rows) fused with the dot
// product y . x and an epilogue that consumes it, so that CG's w = A u and w . u take one
// pass instead of two (src/solvers/ConjugateGradient.cpp). One dispatch per rectangle of
// each row group, as the plain product; the workgroups' partial sums of y . x are folded
// across all the dispatches by sparse/product_dot_fold.glsl, whose last workgroup calls
// epilogue(value) once.
// Composed with the epilogue's file by stream::composeReductionKernel: u_image0 is y.
layout(local_size_x = 16, local_size_y = 16) in;
#include "sparse/spmv_segment_product.glsl"
#include "sparse/product_dot_fold.glsl"

uniform ivec4 u_rect;  // x, y, w, h of this dispatch's rectangle, in output texels

void main() {
  ivec2 local = ivec2(gl_GlobalInvocationID.xy);
  float part = 0.0;
  if (local.x < u_rect.z && local.y < u_rect.w) {  // no early return: every invocation meets the barriers
    ivec2 texel = u_rect.xy + local;
    vec4 xHere = texelFetch(u_x, texel, 0);  // before the gathers (sparse/spmv_bcrs_dot.glsl says why)
    vec4 y = segmentProduct(texel);
    imageStore(u_image0, texel, y);
    part = dot(y, xHere);
  }
  foldDot(part);
}
