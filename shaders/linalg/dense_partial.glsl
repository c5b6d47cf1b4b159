// Dense y = A x, first of two passes (Krüger & Westermann §44.3.3 store a full matrix as
// column vectors: column j is a tile of u_columns laid out like y, tile (j % u_tilesX,
// j / u_tilesX)). The output holds one copy of y's layout per batch of COLUMNS_PER_BATCH
// columns, batch b in tile (b % u_batchesX, b / u_batchesX): texel t of batch b is
// sum_{j in b} A_j[t] x_j. Every (row texel, batch) pair is its own invocation, so the whole
// GPU works on a matrix-vector product whose y alone would fill a few thousand texels
// (dense_sum.glsl adds the batches up). Batch starts are multiples of 4, so one texel of x
// scales four columns; zero column padding keeps y's padding zero.
// Double-float variants (the defect r = b - A x of mixed-precision refinement, x = u_x +
// u_xLo): DOUBLE_FLOAT_PARTIALS writes each batch's -sum A_j x_j as a pair (o_out0 head,
// o_out1 tail) for dense_sum; DOUBLE_FLOAT_RESIDUAL (one batch) starts from b = u_bHi +
// u_bLo and writes r rounded to float.
uniform sampler2D u_columns;
uniform sampler2D u_x;
uniform ivec2 u_tileSize;  // y's layout, in texels
uniform int u_tilesX;      // column tiles per row of u_columns
uniform int u_batchesX;    // batch tiles per row of the output
uniform int u_batches;
uniform int u_columnSlots; // columns rounded up to 4
#if defined(DOUBLE_FLOAT_PARTIALS) || defined(DOUBLE_FLOAT_RESIDUAL)
#define DOUBLE_FLOAT
#include "common/double_float.glsl"
uniform sampler2D u_xLo;
#endif
#ifdef DOUBLE_FLOAT_RESIDUAL
uniform sampler2D u_bHi;
uniform sampler2D u_bLo;
#endif

vec4 column(int j, ivec2 texel) {
  ivec2 tile = ivec2(j % u_tilesX, j / u_tilesX);
  return texelFetch(u_columns, tile * u_tileSize + texel, 0);
}

void kernel(ivec2 texel) {
  ivec2 batchTile = texel / u_tileSize;
  int batch = batchTile.y * u_batchesX + batchTile.x;
  ivec2 local = texel - batchTile * u_tileSize;
#ifdef DOUBLE_FLOAT
#ifdef DOUBLE_FLOAT_RESIDUAL
  vec4 hi = texelFetch(u_bHi, local, 0), lo = texelFetch(u_bLo, local, 0);
#else
  vec4 hi = vec4(0.0), lo = vec4(0.0);
#endif
#else
  vec4 sum = vec4(0.0);
#endif
  if (batch < u_batches) {
    int xWidth = textureSize(u_x, 0).x;
    int first = batch * COLUMNS_PER_BATCH;
    int last = min(first + COLUMNS_PER_BATCH, u_columnSlots);
    for (int j = first; j < last; j += 4) {
      vec4 xj = texelFetch(u_x, texelCoord(j / 4, xWidth), 0);
#ifdef DOUBLE_FLOAT
      vec4 xjLo = texelFetch(u_xLo, texelCoord(j / 4, xWidth), 0);
      for (int c = 0; c < 4; ++c) {
        dfAddProduct(hi, lo, -column(j + c, local), vec4(xj[c]), vec4(xjLo[c]));
      }
#else
      sum += column(j, local) * xj.x + column(j + 1, local) * xj.y + column(j + 2, local) * xj.z +
             column(j + 3, local) * xj.w;
#endif
    }
  }
#if defined(DOUBLE_FLOAT_RESIDUAL)
  o_out0 = hi + lo;
#elif defined(DOUBLE_FLOAT_PARTIALS)
  o_out0 = hi;
  o_out1 = lo;
#else
  o_out0 = sum;
#endif
}
