// b = m x per vertex (Bolz et al. 2003, §3: right-hand side 4 A_i x_i; on held rows
// a_ii = m_i too, so x_i' = x_i), x and b vertex vectors, m in the internal layout
// (curvature_diagonal.glsl). When held columns were eliminated (a fixed boundary that the
// mesh has), b = m x + G x comes from geometry/spmv_vertices.glsl instead.
#include "sparse/element.glsl"

uniform sampler2D u_positions;  // vertex vector, 2^u_vertexShift texels wide
uniform sampler2D u_mass;       // internal layout
uniform int u_vertexShift;
uniform int u_internalShift;

void kernel(ivec2 texel) {
  int v = (texel.y << u_vertexShift) + texel.x;
  float m = fetchElementShift(u_mass, v, u_internalShift);
  o_out0 = vec4(m * texelFetch(u_positions, texel, 0).xyz, 0.0);
}
