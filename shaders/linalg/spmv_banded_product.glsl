// The product of one output texel of a BandedMatrix (linalg/spmv_banded.glsl says how the
// diagonals are stored), shared by the plain pass and the compute kernel that fuses a dot
// product into it (linalg/spmv_banded_dot.glsl).
// Diagonal k reads x's elements 4 t + offset_k .. + 3 for output texel t: x's texel
// t + floor(offset_k / 4) and, unless offset_k is a multiple of 4, the one after it. The
// host splits that texel shift by x's width W into a row and a column shift (u_shift[k]
// packs row * 65536 + column, 0 <= column < W), so each fetch's coordinate is an add and
// one carry instead of an integer division by W; the remainders offset_k mod 4 are
// compile-time constants (BANDED_REMAINDERS), so every diagonal's fetches are issued
// without a branch between them and their latencies overlap.
#ifndef TEXSTREAM_LINALG_SPMV_BANDED_PRODUCT_GLSL
#define TEXSTREAM_LINALG_SPMV_BANDED_PRODUCT_GLSL

uniform sampler2DArray u_diagonals;
uniform sampler2D u_x;
uniform int u_shift[DIAGONALS];
uniform ivec2 u_xSize;  // x's texture size in texels
#ifdef X_WIDTH_DIFFERS
uniform int u_width;  // y's layout width in texels, when x's differs
#endif
const int kRemainder[DIAGONALS] = int[DIAGONALS](BANDED_REMAINDERS);

// x's texel that output texel `texel` shifts from: the same coordinates when x and y share
// a width, else through the linear texel index.
ivec2 bandedBase(ivec2 texel) {
#ifdef X_WIDTH_DIFFERS
  int t = texelIndex(texel, u_width);
  return ivec2(t % u_xSize.x, t / u_xSize.x);
#else
  return texel;
#endif
}

// x's texel at base shifted by `columns` (0 <= columns <= W) and `rows`; zero outside x.
vec4 fetchShiftedTexel(sampler2D x, ivec2 base, int columns, int rows) {
  ivec2 c = ivec2(base.x + columns, base.y + rows);
  if (c.x >= u_xSize.x) c = ivec2(c.x - u_xSize.x, c.y + 1);
  vec4 v = texelFetch(x, ivec2(c.x, clamp(c.y, 0, u_xSize.y - 1)), 0);
  return (c.y >= 0 && c.y < u_xSize.y) ? v : vec4(0.0);
}

// Elements 4 t + offset_k .. + 3 of x (zero outside x), t the output texel at base.
vec4 diagonalElements(sampler2D x, ivec2 base, int k) {
  int columns = u_shift[k] & 0xFFFF, rows = u_shift[k] >> 16;
  vec4 a = fetchShiftedTexel(x, base, columns, rows);
  if (kRemainder[k] == 0) return a;
  vec4 b = fetchShiftedTexel(x, base, columns + 1, rows);
  if (kRemainder[k] == 1) return vec4(a.yzw, b.x);
  if (kRemainder[k] == 2) return vec4(a.zw, b.xy);
  return vec4(a.w, b.xyz);
}

vec4 bandedProduct(ivec2 texel) {
  ivec2 base = bandedBase(texel);
  vec4 sum = vec4(0.0);
  for (int k = 0; k < DIAGONALS; ++k) {
    sum += texelFetch(u_diagonals, ivec3(texel, k), 0) * diagonalElements(u_x, base, k);
  }
  return sum;
}

#endif
