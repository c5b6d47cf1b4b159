// Per-vertex normal and mean curvature for rendering, from the same I/N/P/C structure as
// the matrix (one program per row group, K a #define, rectangles as spmv_vertices.glsl):
//   n_i = normalize(sum over i's entries of (x_j - x_i) x (x_next - x_i))
//         (each incident triangle once: the one in which i -> j runs in its own order)
//   K_i = sum_j (cot a_ij + cot b_ij) (x_j - x_i)      (the cotangent Laplacian of x)
//   H_i = -(K_i . n_i) * 3 / (4 A_i)                   (1/R on a sphere of radius R;
//                                                       A_i / 3 the barycentric area)
// o_out0 = (n_i, H_i); H = 0 on boundary vertices, where K_i is not a curvature.
#include "geometry/mesh.glsl"
#include "sparse/element.glsl"

uniform sampler2D u_positions;  // vertex vector, 2^u_vertexShift texels wide
uniform sampler2D u_starts;     // R
uniform sampler2D u_columns;    // C
uniform sampler2D u_next;       // N
uniform sampler2D u_prev;       // P
uniform sampler2D u_flags;      // internal layout: 1 on boundary vertices
uniform int u_vertexShift;
uniform int u_internalShift;
uniform int u_valuesShift;
uniform int u_stride;          // values texels between consecutive segment entries (SegmentGroup::stride)

void kernel(ivec2 texel) {
  int v = (texel.y << u_vertexShift) + texel.x;
  int c = v & 3;
  ivec2 t = texelAtShift(v >> 2, u_internalShift);
  vec3 xi = texelFetch(u_positions, texel, 0).xyz;
  vec3 normal = vec3(0.0), laplacian = vec3(0.0);
  float area = 0.0;
#if K > 0
  int s = int(texelFetch(u_starts, t, 0).x);
  for (int k = 0; k < K; ++k) {
    ivec2 at = tiledTexelAtShift(s + k * u_stride, u_valuesShift);
    int n = int(texelFetch(u_next, at, 0)[c]);
    int p = int(texelFetch(u_prev, at, 0)[c]);
    if (n < 0 && p < 0) continue;
    int j = int(texelFetch(u_columns, at, 0)[c]);
    vec3 xj = vertexPosition(u_positions, j, u_vertexShift);
    float w = 0.0;
    if (n >= 0) {
      vec3 xn = vertexPosition(u_positions, n, u_vertexShift);
      normal += cross(xj - xi, xn - xi);
      vec3 k3 = corner(xi, xn, xj);
      w += k3.y;
      area += 0.25 * k3.x;
    }
    if (p >= 0) {
      vec3 k3 = corner(xi, vertexPosition(u_positions, p, u_vertexShift), xj);
      w += k3.y;
      area += 0.25 * k3.x;
    }
    laplacian += w * (xj - xi);
  }
#endif
  float len = length(normal);
  vec3 nrm = len > 0.0 ? normal / len : vec3(0.0);
  bool boundary = fetchElementShift(u_flags, v, u_internalShift) > 0.5;
  float H = (area > 0.0 && !boundary) ? -dot(laplacian, nrm) * 3.0 / (4.0 * area) : 0.0;
  o_out0 = vec4(nrm, H);
}
