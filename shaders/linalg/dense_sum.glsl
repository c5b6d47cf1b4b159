// Dense y = A x, second pass: y[t] = sum over batches b of the partial sums of
// dense_partial.glsl (batch b in tile (b % u_batchesX, b / u_batchesX)).
uniform sampler2D u_partials;
uniform ivec2 u_tileSize;
uniform int u_batchesX;
uniform int u_batches;

void kernel(ivec2 texel) {
  vec4 sum = vec4(0.0);
  for (int b = 0; b < u_batches; ++b) {
    sum += texelFetch(u_partials, ivec2(b % u_batchesX, b / u_batchesX) * u_tileSize + texel, 0);
  }
  o_out0 = sum;
}
