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

vec4 fineResidual(ivec3 f) {
  vec4 z = gridFetch(u_z, u_grid, f);
  vec4 d = gridFetch(u_diagonal, u_grid, f);
  vec4 sum = vanishingNeighbourSum(f, gridWestCells(u_z, u_grid, f, z), gridEastCells(u_z, u_grid, f, z),
                                   gridFetch(u_z, u_grid, f - ivec3(0, 1, 0)), gridFetch(u_z, u_grid, f + ivec3(0, 1, 0)),
                                   gridFetch(u_z, u_grid, f - ivec3(0, 0, 1)), gridFetch(u_z, u_grid, f + ivec3(0, 0, 1)));
  return onEquations(d, gridFetch(u_r, u_grid, f) - (d * z - sum));
}

uniform Grid3 u_coarse;
uniform sampler2D u_coarseDiagonal;  // which coarse cells have an equation

void kernel(ivec2 texel) {
  ivec3 B = gridBlock(u_coarse, texel);
  vec4 sum = vec4(0.0);
  for (int dz = 0; dz < 2; ++dz) {
    for (int dy = 0; dy < 2; ++dy) {
      ivec3 f = ivec3(2 * B.x, 2 * B.y + dy, 2 * B.z + dz);
      vec4 a = fineResidual(f);
      vec4 c = fineResidual(f + ivec3(1, 0, 0));
      sum += vec4(a.x + a.y, a.z + a.w, c.x + c.y, c.z + c.w);
    }
  }
  vec4 d = texelFetch(u_coarseDiagonal, texel, 0);
  o_out0 = mix(vec4(0.0), 0.5 * sum, greaterThan(d, vec4(0.0)));
}
