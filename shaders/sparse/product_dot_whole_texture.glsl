// main() of a product over all of y's texels (its layout's W x H, padding included) fused
// with the dot product y . x (compute backend): PRODUCT(texel) is the including kernel's
// product of one output texel (sparse/spmv_bcrs_dot.glsl, linalg/spmv_banded_dot.glsl). x
// is in y's layout, so y . x pairs texel with texel; the workgroups' partial sums are folded
// by sparse/product_dot_fold.glsl, whose last workgroup calls epilogue(value) once.
// The grid is at most Runtime::reductionGroups() workgroups (linalg/FusedProductDot.cpp),
// each stepping over 16 x 16 tiles of texels (a 2D grid stride, as reduce/workgroup.glsl
// does): a workgroup ends with the fold, whose atomic round trip holds its slot, so the
// fold is paid once per resident workgroup instead of once per tile. ONE_TILE_EACH: the
// grid covers the texture, one tile a workgroup.
// u_image0 is y.
layout(local_size_x = 16, local_size_y = 16) in;
#include "sparse/product_dot_fold.glsl"

uniform ivec2 u_size;  // y's (and x's) texture size in texels

// y at `texel` and its share of y . x.
float productAndDot(ivec2 texel) {
  // x's texel is fetched before the product's gathers, not after them: fetched last, its
  // latency comes on top of every invocation's (docs/performance.md).
  vec4 xHere = texelFetch(u_x, texel, 0);
  vec4 y = PRODUCT(texel);
  imageStore(u_image0, texel, y);
  return dot(y, xHere);
}

void main() {
  float part = 0.0;
  // No early return: every invocation meets the fold's barriers.
#ifdef ONE_TILE_EACH
  // As many workgroups as tiles (a small texture): no loop around the product.
  ivec2 texel = ivec2(gl_GlobalInvocationID.xy);
  if (texel.x < u_size.x && texel.y < u_size.y) part = productAndDot(texel);
#else
  ivec2 first = ivec2(gl_GlobalInvocationID.xy);
  ivec2 stride = ivec2(gl_NumWorkGroups.xy) * 16;
  for (int ty = first.y; ty < u_size.y; ty += stride.y) {
    for (int tx = first.x; tx < u_size.x; tx += stride.x) part += productAndDot(ivec2(tx, ty));
  }
#endif
  foldDot(part);
}
