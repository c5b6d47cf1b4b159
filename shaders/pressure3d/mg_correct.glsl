// z += P z_coarse for PressureMultigrid3D: each fine cell with an equation adds its parent's
// value (piecewise-constant prolongation; pressure3d/mg_restrict.glsl is its transpose).
// Fine texel (q, j, k) holds fine cells 4q .. 4q+3, children of coarse cells 2q .. 2q+1,
// which coarse texel q / 2 holds in .xy (q even) or .zw (q odd).
#include "pressure3d/operator.glsl"

uniform Grid3 u_coarse;
uniform sampler2D u_z;
uniform sampler2D u_coarseZ;

void kernel(ivec2 texel) {
  ivec3 b = gridBlock(u_grid, texel);
  vec4 c = texelFetch(u_coarseZ, gridTexel(u_coarse, b / 2), 0);
  vec4 correction = (b.x % 2 == 0) ? c.xxyy : c.zzww;
  o_out0 = onEquations(texelFetch(u_diagonal, texel, 0), texelFetch(u_z, texel, 0) + correction);
}
