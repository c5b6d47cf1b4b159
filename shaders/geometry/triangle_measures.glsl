// Per-triangle area, signed volume (x_a . (x_b x x_c) / 6, the divergence theorem) and
// degeneracy flag (geometry/CurvatureSystem.h's test), four triangles per output texel,
// for sum reductions: o_out0 areas, o_out1 volumes, o_out2 1 for degenerate triangles.
#include "geometry/mesh.glsl"

uniform sampler2D u_positions;  // vertex vector, 2^u_vertexShift texels wide
uniform sampler2D u_triangles;  // (a, b, c, 0) internal vertex indices, one triangle per texel
uniform int u_vertexShift;
uniform int u_triangleShift;
uniform int u_width;            // output layout width in texels
uniform int u_count;            // triangles

void kernel(ivec2 texel) {
  int q = texelIndex(texel, u_width);
  vec4 area = vec4(0.0), volume = vec4(0.0), degenerate = vec4(0.0);
  for (int c = 0; c < 4; ++c) {
    int tri = 4 * q + c;
    if (tri >= u_count) break;
    ivec3 f = ivec3(texelFetch(u_triangles, vertexTexel(tri, u_triangleShift), 0).xyz);
    vec3 a = vertexPosition(u_positions, f.x, u_vertexShift);
    vec3 b = vertexPosition(u_positions, f.y, u_vertexShift);
    vec3 d = vertexPosition(u_positions, f.z, u_vertexShift);
    vec3 k3 = corner(a, b, d);
    area[c] = 0.5 * k3.x;
    volume[c] = dot(a, cross(b, d)) / 6.0;
    degenerate[c] = 1.0 - k3.z;
  }
  o_out0 = area;
  o_out1 = volume;
  o_out2 = degenerate;
}
