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
#include "geometry/mesh.glsl"
#include "sparse/element.glsl"

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
  vec4 sum = texelFetch(u_diagonal, t, 0)[c] * texelFetch(u_x, texel, 0);
#if K > 0
  int s = int(texelFetch(u_starts, t, 0).x);
  for (int k = 0; k < K; ++k) {
    ivec2 at = texelAtShift(s + k * u_stride, u_valuesShift);
    float a = texelFetch(u_values, at, 0)[c];
    int j = int(texelFetch(u_columns, at, 0)[c]);
    sum += a * texelFetch(u_x, vertexTexel(j, u_vertexShift), 0);
  }
#endif
  o_out0 = sum;
}
