// The product of one output texel of a BcrsMatrix (sparse/spmv_bcrs.glsl says how the
// layout works), shared by the plain pass and the compute kernel that fuses a dot product
// into it (sparse/spmv_bcrs_dot.glsl).
#include "sparse/element.glsl"

uniform sampler2DArray u_values;
uniform sampler2D u_columns;  // block column J per block (R32F, exact integers)
uniform sampler2D u_rows;
uniform sampler2D u_x;
uniform int u_blockShift;

vec4 xTexel(int t) { return texelFetch(u_x, ivec2(t % X_WIDTH, t / X_WIDTH), 0); }

// BLOCK 2: block k of block row h (0 or 1) of the output texel whose u_rows entry is info:
// consecutive after the texel's first block, or with INTERLEAVED (the slice's texel count)
// at first + h INTERLEAVED + 2 INTERLEAVED k (linalg/BcrsMatrix.h).
int blockOfRow(vec4 info, int h, int k) {
#ifdef INTERLEAVED
  return int(info.x) + (h + 2 * k) * INTERLEAVED;
#else
  return int(info.x) + (h == 0 ? 0 : int(info.y)) + k;
#endif
}

// The values texel of block `slot`: with INTERLEAVED numbered in 4 x 8 tiles, so that the 32
// consecutive slots a subgroup reads come from one tile of the texture (sparse/element.glsl,
// linalg/TextureTiles.h). The block columns, one float a block, stay in rows: 32 of them are
// 128 bytes of one row either way.
ivec2 valueTexel(int slot) {
#ifdef INTERLEAVED
  return tiledTexelAtShift(slot, u_blockShift);
#else
  return texelAtShift(slot, u_blockShift);
#endif
}

// BLOCK 2: block k of block row h times x.
vec2 blockProduct(vec4 info, int h, int k) {
  int slot = blockOfRow(info, h, k);
  int J = int(texelFetch(u_columns, texelAtShift(slot, u_blockShift), 0).x);
  vec4 xt = xTexel(J >> 1);
  vec2 xj = (J & 1) == 0 ? xt.xy : xt.zw;
  vec4 a = texelFetch(u_values, ivec3(valueTexel(slot), 0), 0);
  return vec2(dot(a.xy, xj), dot(a.zw, xj));
}

// BLOCK 2: block row h (0 or 1) of the output texel whose u_rows entry is info, times x.
// Four blocks an iteration, each into its own sum, so that four chains of gathers (block
// column, then x) are in flight in one invocation: the kernel is bound by their latency,
// not by bandwidth (docs/performance.md).
vec2 blockRowProduct(vec4 info, int h) {
  int count = h == 0 ? int(info.y) : int(info.z);
  vec2 p0 = vec2(0.0), p1 = vec2(0.0), p2 = vec2(0.0), p3 = vec2(0.0);
  int k = 0;
  for (; k + 3 < count; k += 4) {
    p0 += blockProduct(info, h, k);
    p1 += blockProduct(info, h, k + 1);
    p2 += blockProduct(info, h, k + 2);
    p3 += blockProduct(info, h, k + 3);
  }
  if (k + 1 < count) {
    p0 += blockProduct(info, h, k);
    p1 += blockProduct(info, h, k + 1);
    k += 2;
  }
  if (k < count) p0 += blockProduct(info, h, k);
  return (p0 + p2) + (p1 + p3);
}

vec4 bcrsProduct(ivec2 texel) {
  vec4 info = texelFetch(u_rows, texel, 0);
  int first = int(info.x), end0 = first + int(info.y);
  vec4 y = vec4(0.0);
#if BLOCK == 4
  for (int b = first; b < end0; ++b) {
    ivec2 at = texelAtShift(b, u_blockShift);
    vec4 xj = xTexel(int(texelFetch(u_columns, at, 0).x));
    y += vec4(dot(texelFetch(u_values, ivec3(at, 0), 0), xj), dot(texelFetch(u_values, ivec3(at, 1), 0), xj),
              dot(texelFetch(u_values, ivec3(at, 2), 0), xj), dot(texelFetch(u_values, ivec3(at, 3), 0), xj));
  }
#else
  y = vec4(blockRowProduct(info, 0), blockRowProduct(info, 1));
#endif
  return y;
}

#ifdef DOUBLE_FLOAT_RESIDUAL
// b - A x for x = u_x + u_xLo and b = u_bHi + u_bLo, every product and sum in double-float
// arithmetic (common/double_float.glsl), rounded to float: mixed-precision refinement's
// defect. The block's columns k scale x_k as vec4s over the output rows.
#include "common/double_float.glsl"
uniform sampler2D u_xLo;
uniform sampler2D u_bHi;
uniform sampler2D u_bLo;

vec4 xTexelLo(int t) { return texelFetch(u_xLo, ivec2(t % X_WIDTH, t / X_WIDTH), 0); }

vec4 bcrsResidual(ivec2 texel) {
  vec4 info = texelFetch(u_rows, texel, 0);
  int first = int(info.x), end0 = first + int(info.y);
  vec4 hi = texelFetch(u_bHi, texel, 0), lo = texelFetch(u_bLo, texel, 0);
#if BLOCK == 4
  for (int b = first; b < end0; ++b) {
    ivec2 at = texelAtShift(b, u_blockShift);
    int J = int(texelFetch(u_columns, at, 0).x);
    vec4 xj = xTexel(J), xjLo = xTexelLo(J);
    vec4 r0 = texelFetch(u_values, ivec3(at, 0), 0), r1 = texelFetch(u_values, ivec3(at, 1), 0);
    vec4 r2 = texelFetch(u_values, ivec3(at, 2), 0), r3 = texelFetch(u_values, ivec3(at, 3), 0);
    for (int k = 0; k < 4; ++k) {
      dfAddProduct(hi, lo, -vec4(r0[k], r1[k], r2[k], r3[k]), vec4(xj[k]), vec4(xjLo[k]));
    }
  }
#else
  for (int h = 0; h < 2; ++h) {
    int count = h == 0 ? int(info.y) : int(info.z);
    for (int k = 0; k < count; ++k) {
      int slot = blockOfRow(info, h, k);
      int J = int(texelFetch(u_columns, texelAtShift(slot, u_blockShift), 0).x);
      vec4 xt = xTexel(J >> 1), xtLo = xTexelLo(J >> 1);
      vec2 xj = (J & 1) == 0 ? xt.xy : xt.zw, xjLo = (J & 1) == 0 ? xtLo.xy : xtLo.zw;
      vec4 a = texelFetch(u_values, ivec3(valueTexel(slot), 0), 0);
      for (int c = 0; c < 2; ++c) {
        vec2 column = vec2(a[c], a[2 + c]);
        vec4 coefficient = h == 0 ? vec4(column, 0.0, 0.0) : vec4(0.0, 0.0, column);
        dfAddProduct(hi, lo, -coefficient, vec4(xj[c]), vec4(xjLo[c]));
      }
    }
  }
#endif
  return hi + lo;
}
#endif
