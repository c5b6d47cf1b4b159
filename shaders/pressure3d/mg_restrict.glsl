// The coarse right-hand side of PressureMultigrid3D: each coarse cell sums the residuals of
// its (up to) eight children, times 1/2. The prolongation gives each fine cell its parent's
// value (piecewise constant, McAdams et al. 2010 use trilinear); this is its transpose
// scaled by 4/8: the coarse operator is the 7-point operator of the coarse labels with
// h doubled, A_2h ~ 4 (P^T A_h P) / 8 for h = 1 units.
// Coarse texel (Q, J, K) holds coarse cells 4Q .. 4Q+3, whose children lie in fine texels
// 2Q and 2Q+1 of fine rows 2J, 2J+1 and slices 2K, 2K+1, two cells a coarse cell.
// The fine residual r - A z is evaluated here from r and z (which vanish on cells without an
// equation, pressure3d/operator.glsl's vanishingNeighbourSum), not read from a texture of its
// own: a pass and a field's write and read fewer per level. u_grid is the fine grid.
#include "pressure3d/operator.glsl"

uniform sampler2D u_r;
uniform sampler2D u_z;

vec4 fineResidual(GridCursor f) {
  if (!gridInside(u_grid, f.b)) return vec4(0.0);
  vec4 z = texelFetch(u_z, f.texel, 0);
  vec4 d = texelFetch(u_diagonal, f.texel, 0);
  return onEquations(d, texelFetch(u_r, f.texel, 0) - (d * z - vanishingNeighbourSum(around(u_z, f, z), f)));
}

uniform Grid3 u_coarse;
uniform sampler2D u_coarseDiagonal;  // which coarse cells have an equation

void kernel(ivec2 texel) {
  ivec3 B = gridBlock(u_coarse, texel);
  vec4 sum = vec4(0.0);
  GridCursor first = gridCursorOf(u_grid, 2 * B);
  for (int dz = 0; dz < 2; ++dz) {
    for (int dy = 0; dy < 2; ++dy) {
      GridCursor f = gridStep(u_grid, first, ivec3(0, dy, dz));
      vec4 a = fineResidual(f);
      vec4 c = fineResidual(gridStep(u_grid, f, ivec3(1, 0, 0)));
      sum += vec4(a.x + a.y, a.z + a.w, c.x + c.y, c.z + c.w);
    }
  }
  vec4 d = texelFetch(u_coarseDiagonal, texel, 0);
  o_out0 = mix(vec4(0.0), 0.5 * sum, greaterThan(d, vec4(0.0)));
}
