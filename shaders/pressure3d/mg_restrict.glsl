// The coarse right-hand side of PressureMultigrid3D: each coarse cell sums the residuals of
// its (up to) eight children, times 1/2. The prolongation gives each fine cell its parent's
// value (piecewise constant, McAdams et al. 2010 use trilinear); this is its transpose
// scaled by 4/8: the coarse operator is the 7-point operator of the coarse labels with
// h doubled, A_2h ~ 4 (P^T A_h P) / 8 for h = 1 units.
// Coarse texel (Q, J, K) holds coarse cells 4Q .. 4Q+3, whose children lie in fine texels
// 2Q and 2Q+1 of fine rows 2J, 2J+1 and slices 2K, 2K+1, two cells a coarse cell.
#include "grid3d/grid.glsl"

uniform Grid3 u_fine;
uniform Grid3 u_coarse;
uniform sampler2D u_residual;        // fine
uniform sampler2D u_coarseDiagonal;  // which coarse cells have an equation

void kernel(ivec2 texel) {
  ivec3 B = gridBlock(u_coarse, texel);
  vec4 sum = vec4(0.0);
  for (int dz = 0; dz < 2; ++dz) {
    for (int dy = 0; dy < 2; ++dy) {
      ivec3 f = ivec3(2 * B.x, 2 * B.y + dy, 2 * B.z + dz);
      vec4 a = gridFetch(u_residual, u_fine, f);
      vec4 c = gridFetch(u_residual, u_fine, f + ivec3(1, 0, 0));
      sum += vec4(a.x + a.y, a.z + a.w, c.x + c.y, c.z + c.w);
    }
  }
  vec4 d = texelFetch(u_coarseDiagonal, texel, 0);
  o_out0 = mix(vec4(0.0), 0.5 * sum, greaterThan(d, vec4(0.0)));
}
