// y (+)= sum_j A_j x_j over a batch of COLUMNS_PER_PASS columns (Krüger & Westermann
// §44.3.3, full matrices): column j is a tile of u_columns laid out like y, tile
// (j % u_tilesX, j / u_tilesX). u_firstColumn and COLUMNS_PER_PASS are multiples of 4, so
// one texel of x scales four columns. Zero column padding keeps y's padding zero.
uniform sampler2D u_columns;
uniform sampler2D u_x;
#ifdef ACCUMULATE
uniform sampler2D u_accumulator;
#endif
uniform int u_firstColumn;
uniform ivec2 u_tileSize;
uniform int u_tilesX;

vec4 column(int j, ivec2 texel) {
  ivec2 tile = ivec2(j % u_tilesX, j / u_tilesX);
  return texelFetch(u_columns, tile * u_tileSize + texel, 0);
}

void kernel(ivec2 texel) {
#ifdef ACCUMULATE
  vec4 sum = texelFetch(u_accumulator, texel, 0);
#else
  vec4 sum = vec4(0.0);
#endif
  int xWidth = textureSize(u_x, 0).x;
  for (int g = 0; g < COLUMNS_PER_PASS / 4; ++g) {
    int j = u_firstColumn + 4 * g;
    vec4 xj = texelFetch(u_x, texelCoord(j / 4, xWidth), 0);
    sum += column(j, texel) * xj.x + column(j + 1, texel) * xj.y + column(j + 2, texel) * xj.z +
           column(j + 3, texel) * xj.w;
  }
  o_out0 = sum;
}
