// The coarse right-hand side of PressureMultigrid3D on the compute backend: the mathematics of
// pressure3d/mg_restrict.glsl (each coarse cell sums the residuals r - A z of its children,
// times 1/2), but one invocation a fine texel instead of one a coarse texel, so that eight
// times as many invocations share the fetches. Each invocation forms its texel's residual and
// sums it in pairs of cells (the two children along x of one coarse cell); an eighth of them
// then add the 2 x 2 x 2 fine texels of their coarse texel from shared memory and write it.
// Workgroup: 8 x 8 fine texels of 4 slices, whose coarse texels are 4 x 4 x 2.
layout(local_size_x = 8, local_size_y = 8, local_size_z = 4) in;
#include "pressure3d/operator.glsl"

uniform sampler2D u_r;
uniform sampler2D u_z;
uniform Grid3 u_coarse;
uniform sampler2D u_coarseDiagonal;  // which coarse cells have an equation

shared vec2 s_pairs[4][8][8];

void main() {
  ivec3 l = ivec3(gl_LocalInvocationID);
  ivec3 b = ivec3(gl_GlobalInvocationID);
  vec4 residual = vec4(0.0);
  if (gridInside(u_grid, b)) {
    GridCursor f = gridCursorOf(u_grid, b);
    vec4 z = texelFetch(u_z, f.texel, 0);
    vec4 d = texelFetch(u_diagonal, f.texel, 0);
    residual = onEquations(d, texelFetch(u_r, f.texel, 0) - (d * z - vanishingNeighbourSum(around(u_z, f, z), f)));
  }
  s_pairs[l.z][l.y][l.x] = vec2(residual.x + residual.y, residual.z + residual.w);
  barrier();
  if (any(notEqual(l & ivec3(1), ivec3(0)))) return;
  ivec3 coarse = b / 2;
  if (!gridInside(u_coarse, coarse)) return;
  vec2 low = vec2(0.0), high = vec2(0.0);  // fine texel 2Q: coarse cells 4Q, 4Q + 1; 2Q + 1: 4Q + 2, 4Q + 3
  for (int dz = 0; dz < 2; ++dz) {
    for (int dy = 0; dy < 2; ++dy) {
      low += s_pairs[l.z + dz][l.y + dy][l.x];
      high += s_pairs[l.z + dz][l.y + dy][l.x + 1];
    }
  }
  GridCursor c = gridCursorOf(u_coarse, coarse);
  vec4 d = texelFetch(u_coarseDiagonal, c.texel, 0);
  imageStore(u_image0, c.texel, mix(vec4(0.0), 0.5 * vec4(low, high), greaterThan(d, vec4(0.0))));
}
