// y = (A (x) I) x: a SegmentMatrix applied to vertex vectors, all three coordinates at
// once (Bolz et al. 2003, §3.1.1 with x_j a vec4): vertex v is internal row v = 4t + c
// (t its texel of the internal layout, c the channel), so
//   y_v = a_vv x_v + sum_k A[R[t] + k S].c * x[C[R[t] + k S].c]
// (S = u_stride, the group's SegmentGroup::stride: 1 for consecutive segments) reading
// each matrix entry and column once for the three coordinates. One program per row group
// (K a #define), the group's rectangles scaled by 4 in x (four vertex texels per internal
// texel). Padded entries are 0 and point at a padding vertex (zero).
// CurvatureFlow also runs it with u_diagonal = m and u_values = the held columns' moved
// coefficients for the right-hand side b = m x + G x (curvature_offdiagonal.glsl).
// DOUBLE_FLOAT_RESIDUAL: r = b - Y instead, x = u_x + u_xLo and b = u_bHi + u_bLo vertex
// vectors of double-float pairs, every product and sum in double-float arithmetic
// (common/double_float.glsl), r rounded to float: mixed-precision refinement's defect.
// DOUBLE_FLOAT_PRODUCT: Y = A X as a pair (o_out0 head, o_out1 tail), X a pair: the product
// of double-float CG. ENTRY_TAILS (either): each entry is its float plus its tail
// (u_valueTails, u_diagonalTails; SegmentOptions::entryTails).
#include "geometry/mesh.glsl"
#include "sparse/element.glsl"
#if defined(DOUBLE_FLOAT_RESIDUAL) || defined(DOUBLE_FLOAT_PRODUCT)
#define DOUBLE_FLOAT
#include "common/double_float.glsl"
uniform sampler2D u_xLo;
uniform sampler2D u_bHi;
uniform sampler2D u_bLo;
#ifdef DOUBLE_FLOAT_RESIDUAL
#define DF_SIGN -1.0
#else
#define DF_SIGN 1.0
#endif
#ifdef ENTRY_TAILS
uniform sampler2D u_valueTails;     // laid out like u_values
uniform sampler2D u_diagonalTails;  // internal layout
#endif
// (hi, lo) += DF_SIGN (a + aLo) x for the pair x = (xHi, xLo).
void accumulate(inout vec4 hi, inout vec4 lo, float a, float aLo, vec4 xHi, vec4 xLo) {
#ifdef ENTRY_TAILS
  dfAddPairProduct(hi, lo, vec4(DF_SIGN * a), vec4(DF_SIGN * aLo), xHi, xLo);
#else
  dfAddProduct(hi, lo, vec4(DF_SIGN * a), xHi, xLo);
#endif
}
#endif

uniform sampler2D u_x;         // vertex vector, 2^u_vertexShift texels wide
uniform sampler2D u_diagonal;  // internal layout
uniform sampler2D u_starts;    // R
uniform sampler2D u_values;    // 2^u_valuesShift texels wide
uniform sampler2D u_columns;   // C
uniform int u_vertexShift;
uniform int u_internalShift;
uniform int u_valuesShift;
uniform int u_stride;          // values texels between consecutive segment entries (SegmentGroup::stride)

void kernel(ivec2 texel) {
  int v = (texel.y << u_vertexShift) + texel.x;
  int c = v & 3;
  ivec2 t = texelAtShift(v >> 2, u_internalShift);
#ifdef DOUBLE_FLOAT
#ifdef DOUBLE_FLOAT_RESIDUAL
  vec4 hi = texelFetch(u_bHi, texel, 0), lo = texelFetch(u_bLo, texel, 0);
#else
  vec4 hi = vec4(0.0), lo = vec4(0.0);
#endif
#ifdef ENTRY_TAILS
  float diagonalTail = texelFetch(u_diagonalTails, t, 0)[c];
#else
  float diagonalTail = 0.0;
#endif
  accumulate(hi, lo, texelFetch(u_diagonal, t, 0)[c], diagonalTail, texelFetch(u_x, texel, 0),
             texelFetch(u_xLo, texel, 0));
#else
  vec4 sum = texelFetch(u_diagonal, t, 0)[c] * texelFetch(u_x, texel, 0);
#endif
#if K > 0
  int s = int(texelFetch(u_starts, t, 0).x);
  for (int k = 0; k < K; ++k) {
    ivec2 at = tiledTexelAtShift(s + k * u_stride, u_valuesShift);
    float a = texelFetch(u_values, at, 0)[c];
    int j = int(texelFetch(u_columns, at, 0)[c]);
    ivec2 xj = vertexTexel(j, u_vertexShift);
#ifdef DOUBLE_FLOAT
#ifdef ENTRY_TAILS
    float aLo = texelFetch(u_valueTails, at, 0)[c];
#else
    float aLo = 0.0;
#endif
    accumulate(hi, lo, a, aLo, texelFetch(u_x, xj, 0), texelFetch(u_xLo, xj, 0));
#else
    sum += a * texelFetch(u_x, xj, 0);
#endif
  }
#endif
#if defined(DOUBLE_FLOAT_RESIDUAL)
  o_out0 = hi + lo;
#elif defined(DOUBLE_FLOAT_PRODUCT)
  o_out0 = hi;
  o_out1 = lo;
#else
  o_out0 = sum;
#endif
}
