// y = M x for a TransferMatrix (linalg/TransferMatrix.h): a rectangular sparse matrix whose
// rows are elements of y's layout and whose columns are element indices of x (any layout),
// one CSR row summed per output element. Entry k sits in texel k / 2 of u_entries (a
// texture 2^u_entriesShift texels wide) as (column, value) in channels xy (k even) or zw.
// ACCUMULATE: y = u_add + M x (multigrid's coarse-grid correction x + P e).
// DIFFERENCE: y = M (x - u_subtract [- u_subtract2 with SECOND_SUBTRACT]) (multigrid's
// restricted residual P0^T (b - A x - A t), AggregationMultigrid.cpp).
#include "sparse/element.glsl"

uniform sampler2D u_rowStarts;  // rows + 1 exact-float entry offsets, any layout
uniform sampler2D u_entries;
uniform sampler2D u_x;
#ifdef ACCUMULATE
uniform sampler2D u_add;
#endif
#ifdef DIFFERENCE
uniform sampler2D u_subtract;
#endif
#ifdef SECOND_SUBTRACT
uniform sampler2D u_subtract2;
#endif
uniform int u_entriesShift;
uniform int u_width;  // y's layout width in texels
uniform int u_rows;   // rows of M; y's elements past them are 0 (or u_add's)

float source(int e) {
#if defined(SECOND_SUBTRACT)
  return fetchElement(u_x, e) - fetchElement(u_subtract, e) - fetchElement(u_subtract2, e);
#elif defined(DIFFERENCE)
  return fetchElement(u_x, e) - fetchElement(u_subtract, e);
#else
  return fetchElement(u_x, e);
#endif
}

// Row `row` of M times x (or the difference).
float rowSum(int row) {
  int k0 = int(fetchElement(u_rowStarts, row));
  int k1 = int(fetchElement(u_rowStarts, row + 1));
  float sum = 0.0;
  for (int k = k0; k < k1; ++k) {
    vec4 pair = texelFetch(u_entries, texelAtShift(k >> 1, u_entriesShift), 0);
    vec2 entry = (k & 1) == 0 ? pair.xy : pair.zw;
    sum += entry.y * source(int(entry.x));
  }
  return sum;
}

#ifndef TRANSFER_NO_KERNEL
void kernel(ivec2 texel) {
  int first = 4 * texelIndex(texel, u_width);
  vec4 y = vec4(0.0);
  for (int c = 0; c < 4; ++c) {
    int row = first + c;
    if (row >= u_rows) break;
    y[c] = rowSum(row);
  }
#ifdef ACCUMULATE
  y += texelFetch(u_add, texel, 0);
#endif
  o_out0 = y;
}
#endif
