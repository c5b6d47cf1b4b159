// The diagonal of the curvature-flow matrix and the right-hand side's scale (Bolz et al.
// 2003, §3.1.2), with the structure of a segment SpMV (one program per row group, K its
// segment length, entry k of texel t's segment at values texel R[t] + k u_stride):
// output texel t holds rows 4t..4t+3 of the internal layout, and
//   A_i  = sum over i's entries of (area(x_i, x_j, x_n) + area(x_i, x_j, x_p)) / 2
//          (the area of the triangles incident to i: each is seen from two of its edges)
//   a_ii = 4 A_i - sum_j a_ij        (o_out0, the SegmentMatrix's diagonal)
//   m_i  = 4 A_i                     (o_out1, so that b_i = m_i x_i [+ moved terms])
// The sum runs over every neighbour j, held ones included (Bolz: boundary vertices "still
// enter the coefficients"): a_ij is the matrix value plus, for held columns eliminated to
// the right-hand side, -u_moved (curvature_offdiagonal.glsl).
// A row is held (a_ii = m_i: x_i' = x_i) when it is a boundary vertex and the boundary is
// fixed (its a_ij are 0), or when every triangle it sees is degenerate or it has none
// (unused vertices, dead slots; then m_i = 1). Held rows keep m_i = 4 A_i where they can,
// so that their b_i = m_i x_i is as large as a free row's and CG's ||r|| / ||b|| measures
// the free rows (with b_i = x_i, 1300 held boundary rows of a 37k patch made ||b|| 400
// times larger). Elements past u_n (layout padding) stay 0.
#include "geometry/mesh.glsl"
#include "sparse/element.glsl"

uniform sampler2D u_positions;  // vertex vector, 2^u_vertexShift texels wide
uniform sampler2D u_starts;     // R (internal layout, R32F)
uniform sampler2D u_values;     // a_ij, 2^u_valuesShift texels wide
uniform sampler2D u_moved;      // -a_ij of held columns, laid out like u_values
uniform sampler2D u_columns;    // C
uniform sampler2D u_next;       // N
uniform sampler2D u_prev;       // P
uniform sampler2D u_flags;      // internal layout: 1 on boundary vertices
uniform int u_vertexShift;
uniform int u_internalShift;
uniform int u_valuesShift;
uniform int u_stride;           // values texels between consecutive segment entries
uniform int u_fixBoundary;
uniform int u_n;                // elements of the internal layout

void kernel(ivec2 texel) {
  int t = (texel.y << u_internalShift) + texel.x;
  vec4 diagonal = vec4(1.0), mass = vec4(1.0);
#if K > 0
  vec4 area = vec4(0.0), offDiagonal = vec4(0.0), usable = vec4(0.0);
  vec3 xi[4];
  for (int c = 0; c < 4; ++c) xi[c] = vertexPosition(u_positions, 4 * t + c, u_vertexShift);
  int s = int(texelFetch(u_starts, texel, 0).x);
  for (int k = 0; k < K; ++k) {
    ivec2 at = tiledTexelAtShift(s + k * u_stride, u_valuesShift);
    vec4 a = texelFetch(u_values, at, 0) - texelFetch(u_moved, at, 0);
    ivec4 J = ivec4(texelFetch(u_columns, at, 0));
    ivec4 N = ivec4(texelFetch(u_next, at, 0));
    ivec4 P = ivec4(texelFetch(u_prev, at, 0));
    for (int c = 0; c < 4; ++c) {
      if (N[c] < 0 && P[c] < 0) continue;  // padding (a real entry has a triangle)
      int i = 4 * t + c, j = J[c];
      vec3 xj = vertexPosition(u_positions, j, u_vertexShift);
      vec3 lo = i < j ? xi[c] : xj, hi = i < j ? xj : xi[c];
      if (N[c] >= 0) {
        vec3 k3 = corner(lo, vertexPosition(u_positions, N[c], u_vertexShift), hi);
        area[c] += 0.25 * k3.x;
        usable[c] += k3.z;
      }
      if (P[c] >= 0) {
        vec3 k3 = corner(lo, vertexPosition(u_positions, P[c], u_vertexShift), hi);
        area[c] += 0.25 * k3.x;
        usable[c] += k3.z;
      }
      offDiagonal[c] += a[c];
    }
  }
  for (int c = 0; c < 4; ++c) {
    if (usable[c] == 0.0) continue;  // held, m_i = 1
    bool held = u_fixBoundary != 0 && fetchElementShift(u_flags, 4 * t + c, u_internalShift) > 0.5;
    mass[c] = 4.0 * area[c];
    diagonal[c] = held ? mass[c] : mass[c] - offDiagonal[c];
  }
#endif
  o_out0 = keepValid(diagonal, t, u_n);
  o_out1 = keepValid(mass, t, u_n);
}
