// One colour of a red-black Gauss-Seidel sweep on the pressure operator of a 3D fluid domain
// (the smoother of PressureMultigrid3D): cells of colour u_colour ((i + j + k) & 1) with an
// equation move u_omega times the way to (r_i + sum_j c_ij z_j) / A_ii (over-relaxation,
// SOR), the others keep z; cells without an
// equation are 0. z and r vanish on cells without an equation (every vector the cycle makes
// does), so the sum needs no labels (pressure3d/operator.glsl, vanishingNeighbourSum).
// ZERO_GUESS: z = 0 before the pass (the first half-sweep of a cycle reads no z).
// CORRECT: z is first corrected by the coarse level's, z += P z_coarse with the
// piecewise-constant prolongation (each fine cell with an equation adds its parent's value;
// fine texel q holds children of coarse cells 2q, 2q + 1: the parent texel's .xy for even
// q, .zw for odd): the coarse-grid correction folded into the first half-sweep after it.
// BAND: only the cells of the boundary band (u_band, pressure3d/mg_band.glsl) relax: a
// boundary sweep (McAdams et al. 2010, §4).
#include "pressure3d/operator.glsl"

uniform sampler2D u_r;
#ifndef ZERO_GUESS
uniform sampler2D u_z;
#endif
#ifdef CORRECT
uniform Grid3 u_coarse;
uniform sampler2D u_coarseZ;

// z at block n, corrected by the coarse value of its parent block (at the coarse cursor p).
vec4 correctedAt(GridCursor n, GridCursor p) {
  if (!gridInside(u_grid, n.b)) return vec4(0.0);
  vec4 coarse = texelFetch(u_coarseZ, p.texel, 0);
  vec4 d = texelFetch(u_diagonal, n.texel, 0);
  return onEquations(d, texelFetch(u_z, n.texel, 0) + ((n.b.x & 1) == 0 ? coarse.xxyy : coarse.zzww));
}

// The neighbour at `e` (one axis, +-1) and its parent: the own parent, or the one beside it
// along e when the step leaves the pair of blocks sharing it.
vec4 correctedBeside(GridCursor c, GridCursor parent, ivec3 e) {
  ivec3 odd = c.b & ivec3(1);
  ivec3 shift = ivec3(e.x < 0 ? odd.x - 1 : (e.x > 0 ? odd.x : 0), e.y < 0 ? odd.y - 1 : (e.y > 0 ? odd.y : 0),
                      e.z < 0 ? odd.z - 1 : (e.z > 0 ? odd.z : 0));
  return correctedAt(gridStep(u_grid, c, e), gridStep(u_coarse, parent, shift));
}
#endif
uniform int u_colour;
uniform float u_omega;
#ifdef BAND
uniform sampler2D u_band;
#endif

void kernel(ivec2 texel) {
  GridCursor c = gridCursorAt(u_grid, texel);
  vec4 d = texelFetch(u_diagonal, texel, 0);
  vec4 r = texelFetch(u_r, texel, 0);
#if defined(ZERO_GUESS)
  vec4 z = vec4(0.0);
  vec4 relaxed = r / d;
#elif defined(CORRECT)
  GridCursor parent = gridCursorOf(u_coarse, c.b / 2);
  vec4 z = correctedAt(c, parent);
  Around a;
  a.west = vec4(correctedBeside(c, parent, ivec3(-1, 0, 0)).w, z.xyz);
  a.east = vec4(z.yzw, correctedBeside(c, parent, ivec3(1, 0, 0)).x);
  a.south = correctedBeside(c, parent, ivec3(0, -1, 0));
  a.north = correctedBeside(c, parent, ivec3(0, 1, 0));
  a.down = correctedBeside(c, parent, ivec3(0, 0, -1));
  a.up = correctedBeside(c, parent, ivec3(0, 0, 1));
  vec4 relaxed = (r + vanishingNeighbourSum(a, c)) / d;
#else
  vec4 z = texelFetch(u_z, texel, 0);
  vec4 relaxed = (r + vanishingNeighbourSum(around(u_z, c, z), c)) / d;
#endif
  // Channel m holds cell 4q + m, whose colour is (m + j + k) & 1 (4q is even).
  bvec4 ofColour = equal((ivec4(0, 1, 2, 3) + ivec4(c.b.y + c.b.z)) & ivec4(1), ivec4(u_colour));
#ifdef BAND
  ofColour = bvec4(ivec4(ofColour) & ivec4(greaterThan(texelFetch(u_band, texel, 0), vec4(0.5))));
#endif
  o_out0 = onEquations(d, mix(z, mix(z, relaxed, u_omega), ofColour));
}
