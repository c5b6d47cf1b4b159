// Shared by the curvature-flow kernels (Bolz et al. 2003, §3.1.2): vertex positions and the
// cotangent of a triangle's angle with the degeneracy test of geometry/CurvatureSystem.h.
//
// Vertex vectors hold one vertex per texel (x, y, z, 0) in a SegmentMatrix's internal row
// order: vertex (internal element) v sits at texel v of a texture 2^shift texels wide.
#ifndef TEXSTREAM_GEOMETRY_MESH_GLSL
#define TEXSTREAM_GEOMETRY_MESH_GLSL

// geometry/CurvatureSystem.h, kDegenerateEpsilon.
const float kDegenerateEpsilon = 1e-6;

ivec2 vertexTexel(int v, int shift) { return ivec2(v & ((1 << shift) - 1), v >> shift); }

vec3 vertexPosition(sampler2D positions, int v, int shift) {
  return texelFetch(positions, vertexTexel(v, shift), 0).xyz;
}

// The corner at b of triangle (a, b, c): x = |(a - b) x (c - b)| (twice the area), y = the
// cotangent of the angle at b ((a - b).(c - b) / x), z = 1 when the triangle passes the
// degeneracy test, else 0 (and y = 0).
vec3 corner(vec3 a, vec3 b, vec3 c) {
  vec3 u = a - b, v = c - b, w = a - c;
  float len = length(cross(u, v));
  float scale = dot(u, u) + dot(v, v) + dot(w, w);
  bool usable = len > kDegenerateEpsilon * scale;
  return vec3(len, usable ? dot(u, v) / len : 0.0, usable ? 1.0 : 0.0);
}

#endif
