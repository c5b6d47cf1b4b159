// y = A x for a BcrsMatrix of 2x2 blocks on the compute backend, one invocation per block
// row (sparse/spmv_bcrs.glsl, whose invocation sums both block rows of its output texel
// one after the other). WITH_DOT: fused with y . x and an epilogue, as
// sparse/spmv_bcrs_dot.glsl (composed by stream::composeReductionKernel; x then in y's
// layout). Invocation = blockRow * 128 + slot: the first 128 invocations of a workgroup take
// the first block rows of 128 consecutive texels, the other 128 the second, which they
// hand over in shared memory.
layout(local_size_x = 256) in;
#include "sparse/spmv_bcrs_product.glsl"
#ifdef WITH_DOT
#include "sparse/product_dot_fold.glsl"
#endif

uniform int u_texels;  // y's texels
uniform int u_width;   // y's layout width

shared vec2 s_second[128];

void main() {
  int lid = int(gl_LocalInvocationIndex);
  int blockRow = lid / 128, slot = lid - blockRow * 128;
  int t = int(gl_WorkGroupID.x) * 128 + slot;
  bool inside = t < u_texels;  // no early return: every invocation meets the barriers
  ivec2 texel = ivec2(t % u_width, t / u_width);
  vec2 y = vec2(0.0);
#ifdef WITH_DOT
  // Fetched before the gathers, as in sparse/product_dot_whole_texture.glsl.
  vec4 xHere = inside && blockRow == 0 ? texelFetch(u_x, texel, 0) : vec4(0.0);
#endif
  if (inside) y = blockRowProduct(texelFetch(u_rows, texel, 0), blockRow);
  if (blockRow == 1) s_second[slot] = y;
  barrier();
  float part = 0.0;
  if (inside && blockRow == 0) {
    vec4 result = vec4(y, s_second[slot]);
    imageStore(u_image0, texel, result);
#ifdef WITH_DOT
    part = dot(result, xHere);
#endif
  }
#ifdef WITH_DOT
  foldDot(part);
#endif
}
