// One colour of a red-black Gauss-Seidel sweep on the pressure operator of a 3D fluid domain
// (pressure3d/operator.glsl): the smoother of PressureMultigrid3D. Cells of colour u_colour
// (i + j + k even: 0, odd: 1) with an equation become (r_i + sum_j c_ij z_j) / A_ii, the
// others keep z; cells without an equation are 0. ZERO_GUESS: z = 0 before the pass (the
// first half-sweep of a cycle reads no z).
#include "pressure3d/operator.glsl"

uniform sampler2D u_r;
#ifndef ZERO_GUESS
uniform sampler2D u_z;
#endif
uniform int u_colour;

void kernel(ivec2 texel) {
  ivec3 b = gridBlock(u_grid, texel);
  vec4 d = texelFetch(u_diagonal, texel, 0);
  vec4 r = texelFetch(u_r, texel, 0);
#ifdef ZERO_GUESS
  vec4 z = vec4(0.0);
  vec4 relaxed = r / d;
#else
  vec4 z = texelFetch(u_z, texel, 0);
  vec4 relaxed = (r + neighbourSum(u_z, b, d)) / d;
#endif
  // Channel m holds cell 4q + m, whose colour is (m + j + k) & 1 (4q is even).
  bvec4 ofColour = equal((ivec4(0, 1, 2, 3) + ivec4(b.y + b.z)) & ivec4(1), ivec4(u_colour));
  o_out0 = onEquations(d, mix(z, relaxed, ofColour));
}
