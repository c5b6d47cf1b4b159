// The off-diagonal entries of the curvature-flow matrix (Bolz et al. 2003, §3.1.2), one
// texel of a SegmentMatrix's values texture (four entries, one per channel) per output:
//   x_i = X[I[s]], x_j = X[C[s]], x_n = X[N[s]], x_p = X[P[s]]
//   a_ij = -lambdaDt (cot(x_i, x_n, x_j) + cot(x_i, x_p, x_j))
// with I, N, P laid out like C (texstream::geometry::TriangleTopology: n and p are the
// vertices opposite edge ij, -1 where the edge has no triangle on that side). The pair
// (i, j) is taken smaller index first, so a_ij and a_ji come from identical operations (A
// stays symmetric to the last bit). Every slot of the texture is written, so the kernel
// does not depend on how segments are laid out (consecutive or interleaved).
//
// A fixed boundary is eliminated symmetrically: held rows i get 0 (row i is a_ii x_i' =
// a_ii x_i), and so do held columns j of free rows, whose a_ij x_j moves to the
// right-hand side instead:
//   o_out0 = a_ij for a free row and a free column, else 0   (the matrix)
//   o_out1 = -a_ij for a free row and a held column, else 0  (b_i += o_out1 x_j)
// curvature_diagonal still counts both in a_ii = 4 A_i - sum_j a_ij. Padded entries
// (I < 0) get 0 in both.
#include "geometry/mesh.glsl"
#include "sparse/element.glsl"

uniform sampler2D u_positions;  // vertex vector (one vertex per texel), 2^u_vertexShift wide
uniform sampler2D u_rows;       // I: internal element index of row i, -1 for padding
uniform sampler2D u_columns;    // C: internal element index of column j
uniform sampler2D u_next;       // N
uniform sampler2D u_prev;       // P
uniform sampler2D u_flags;      // internal layout: 1 on boundary vertices
uniform int u_vertexShift;
uniform int u_internalShift;
uniform int u_fixBoundary;
uniform float u_lambdaDt;

void kernel(ivec2 texel) {
  ivec4 I = ivec4(texelFetch(u_rows, texel, 0));
  ivec4 J = ivec4(texelFetch(u_columns, texel, 0));
  ivec4 N = ivec4(texelFetch(u_next, texel, 0));
  ivec4 P = ivec4(texelFetch(u_prev, texel, 0));
  vec4 a = vec4(0.0), moved = vec4(0.0);
  for (int c = 0; c < 4; ++c) {
    int i = I[c];
    if (i < 0) continue;
    if (u_fixBoundary != 0 && fetchElementShift(u_flags, i, u_internalShift) > 0.5) continue;
    int j = J[c];
    vec3 lo = vertexPosition(u_positions, min(i, j), u_vertexShift);
    vec3 hi = vertexPosition(u_positions, max(i, j), u_vertexShift);
    float w = 0.0;
    if (N[c] >= 0) w += corner(lo, vertexPosition(u_positions, N[c], u_vertexShift), hi).y;
    if (P[c] >= 0) w += corner(lo, vertexPosition(u_positions, P[c], u_vertexShift), hi).y;
    float aij = -u_lambdaDt * w;
    if (u_fixBoundary != 0 && fetchElementShift(u_flags, j, u_internalShift) > 0.5) {
      moved[c] = -aij;
    } else {
      a[c] = aij;
    }
  }
  o_out0 = a;
  o_out1 = moved;
}
