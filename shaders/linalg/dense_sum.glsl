// Dense y = A x, second pass: y[t] = sum over batches b of the partial sums of
// dense_partial.glsl (batch b in tile (b % u_batchesX, b / u_batchesX)).
// DOUBLE_FLOAT_RESIDUAL: r = b - A x from the batches' double-float pairs (u_partials
// heads, u_partialsLo tails, each -sum A_j x_j), starting from b = u_bHi + u_bLo, summed in
// double-float arithmetic and rounded to float.
uniform sampler2D u_partials;
uniform ivec2 u_tileSize;
uniform int u_batchesX;
uniform int u_batches;
#ifdef DOUBLE_FLOAT_RESIDUAL
#include "common/double_float.glsl"
uniform sampler2D u_partialsLo;
uniform sampler2D u_bHi;
uniform sampler2D u_bLo;
#endif

void kernel(ivec2 texel) {
#ifdef DOUBLE_FLOAT_RESIDUAL
  vec4 hi = texelFetch(u_bHi, texel, 0), lo = texelFetch(u_bLo, texel, 0);
  for (int b = 0; b < u_batches; ++b) {
    ivec2 at = ivec2(b % u_batchesX, b / u_batchesX) * u_tileSize + texel;
    dfAdd(hi, lo, texelFetch(u_partials, at, 0), texelFetch(u_partialsLo, at, 0));
  }
  o_out0 = hi + lo;
#else
  vec4 sum = vec4(0.0);
  for (int b = 0; b < u_batches; ++b) {
    sum += texelFetch(u_partials, ivec2(b % u_batchesX, b / u_batchesX) * u_tileSize + texel, 0);
  }
  o_out0 = sum;
#endif
}
