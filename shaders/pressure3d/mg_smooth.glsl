// One colour of a red-black Gauss-Seidel sweep on the pressure operator of a 3D fluid domain
// (the smoother of PressureMultigrid3D): cells of colour u_colour ((i + j + k) & 1) with an
// equation become (r_i + sum_j c_ij z_j) / A_ii, the others keep z; cells without an
// equation are 0. z and r vanish on cells without an equation (every vector the cycle makes
// does), so the sum needs no labels (pressure3d/operator.glsl, vanishingNeighbourSum).
// ZERO_GUESS: z = 0 before the pass (the first half-sweep of a cycle reads no z).
#include "pressure3d/operator.glsl"

uniform sampler2D u_r;
#ifndef ZERO_GUESS
uniform sampler2D u_z;
#endif
uniform int u_colour;

void kernel(ivec2 texel) {
  GridCursor c = gridCursorAt(u_grid, texel);
  vec4 d = texelFetch(u_diagonal, texel, 0);
  vec4 r = texelFetch(u_r, texel, 0);
#ifdef ZERO_GUESS
  vec4 z = vec4(0.0);
  vec4 relaxed = r / d;
#else
  vec4 z = texelFetch(u_z, texel, 0);
  vec4 relaxed = (r + vanishingNeighbourSum(around(u_z, c, z), c)) / d;
#endif
  // Channel m holds cell 4q + m, whose colour is (m + j + k) & 1 (4q is even).
  bvec4 ofColour = equal((ivec4(0, 1, 2, 3) + ivec4(c.b.y + c.b.z)) & ivec4(1), ivec4(u_colour));
  o_out0 = onEquations(d, mix(z, relaxed, ofColour));
}
