// The product of one output texel of a SegmentMatrix (sparse/spmv_segment.glsl says how
// the layout works) for the per-group passes, and the helpers the compute kernel shares
// (sparse/spmv_segment_spans.glsl).
#include "sparse/element.glsl"

uniform sampler2D u_x;         // internal layout, 2^u_xShift texels wide
uniform sampler2D u_diagonal;  // internal layout
uniform sampler2D u_partial;   // internal layout (PARTIAL)
uniform sampler2D u_starts;    // R: segment start per output texel (R32F, exact integers)
uniform sampler2D u_values;    // off-diagonal values, 2^u_valuesShift texels wide
uniform sampler2D u_columns;   // C: element index of x_j per value (exact integers)
uniform int u_xShift;
uniform int u_valuesShift;
uniform int u_offset;          // first segment entry of this pass
uniform int u_stride;          // values texels between consecutive entries of a segment

#ifdef GATHER_ELEMENTS
// x's elements as a float array, element e at index e (linalg/ElementCopy.h): a gather is
// a 4-byte load, where from u_x it is a 16-byte texel of which one channel is used, and
// the texture unit's rate for those bounds a mesh's product (docs/performance.md). u_x
// still gives the texels read whole (the diagonal term, the dot).
layout(std430, binding = 3) readonly buffer GatherElements { float g_xElements[]; };
float gatherX(int j) { return g_xElements[j]; }
#else
float gatherX(int j) { return fetchElementShift(u_x, j, u_xShift); }
#endif

// Where this pass's part of texel `texel`'s segment starts in the values texture.
int segmentStart(ivec2 texel) { return int(texelFetch(u_starts, texel, 0).x) + u_offset * u_stride; }

// Entry c of the segment starting at s: its four values (one per row of the texel) and
// the element indices j of their columns.
void segmentEntry(int s, int c, out vec4 a, out ivec4 j) {
  ivec2 at = tiledTexelAtShift(s + c * u_stride, u_valuesShift);
  a = texelFetch(u_values, at, 0);
  j = ivec4(texelFetch(u_columns, at, 0));
}

vec4 segmentProduct(ivec2 texel) {
  vec4 sum = vec4(0.0);
#if DIAGONAL
  sum = texelFetch(u_diagonal, texel, 0) * texelFetch(u_x, texel, 0);
#endif
#if PARTIAL
  sum += texelFetch(u_partial, texel, 0);
#endif
#if K > 0
  int s = segmentStart(texel);
  for (int c = 0; c < K; ++c) {
    vec4 a;
    ivec4 j;
    segmentEntry(s, c, a, j);
    sum += a * vec4(gatherX(j.x), gatherX(j.y), gatherX(j.z), gatherX(j.w));
  }
#endif
  return sum;
}

#if defined(DOUBLE_FLOAT_RESIDUAL) || defined(DOUBLE_FLOAT_PRODUCT)
// Double-float arithmetic (common/double_float.glsl) on x = u_x + u_xLo:
//   DOUBLE_FLOAT_RESIDUAL: (hi, lo) = start - [DIAGONAL] diag * x - sum_c A[...] * x[C[...]],
//     the defect of mixed-precision refinement;
//   DOUBLE_FLOAT_PRODUCT:  (hi, lo) = start + [DIAGONAL] diag * x + sum_c A[...] * x[C[...]],
//     the product of double-float CG;
// start = b (u_startHi + u_startLo) or the previous chunk's pair; START_ZERO: 0.
// ENTRY_TAILS: each entry is its float plus its tail (u_valueTails, u_diagonalTails;
// SegmentOptions::entryTails), otherwise the float alone.
#include "common/double_float.glsl"
uniform sampler2D u_xLo;      // internal layout
uniform sampler2D u_startHi;  // internal layout
uniform sampler2D u_startLo;
#ifdef ENTRY_TAILS
uniform sampler2D u_valueTails;     // laid out like u_values
uniform sampler2D u_diagonalTails;  // internal layout
#endif
#ifdef DOUBLE_FLOAT_RESIDUAL
#define DF_SIGN -1.0
#else
#define DF_SIGN 1.0
#endif

void segmentDoubleFloat(ivec2 texel, out vec4 hi, out vec4 lo) {
#ifdef START_ZERO
  hi = vec4(0.0);
  lo = vec4(0.0);
#else
  hi = texelFetch(u_startHi, texel, 0);
  lo = texelFetch(u_startLo, texel, 0);
#endif
#if DIAGONAL
  vec4 d = DF_SIGN * texelFetch(u_diagonal, texel, 0);
#ifdef ENTRY_TAILS
  dfAddPairProduct(hi, lo, d, DF_SIGN * texelFetch(u_diagonalTails, texel, 0), texelFetch(u_x, texel, 0),
                   texelFetch(u_xLo, texel, 0));
#else
  dfAddProduct(hi, lo, d, texelFetch(u_x, texel, 0), texelFetch(u_xLo, texel, 0));
#endif
#endif
#if K > 0
  int s = segmentStart(texel);
  for (int c = 0; c < K; ++c) {
    vec4 a;
    ivec4 j;
    segmentEntry(s, c, a, j);
    vec4 xj = vec4(gatherX(j.x), gatherX(j.y), gatherX(j.z), gatherX(j.w));
    vec4 xjLo = vec4(fetchElementShift(u_xLo, j.x, u_xShift), fetchElementShift(u_xLo, j.y, u_xShift),
                     fetchElementShift(u_xLo, j.z, u_xShift), fetchElementShift(u_xLo, j.w, u_xShift));
#ifdef ENTRY_TAILS
    vec4 aLo = texelFetch(u_valueTails, tiledTexelAtShift(s + c * u_stride, u_valuesShift), 0);
    dfAddPairProduct(hi, lo, DF_SIGN * a, DF_SIGN * aLo, xj, xjLo);
#else
    dfAddProduct(hi, lo, DF_SIGN * a, xj, xjLo);
#endif
  }
#endif
}
#endif
