// One red-black Gauss-Seidel sweep on the pressure operator of a 3D fluid domain in one pass
// (the smoother of PressureMultigrid3D): the cells of colour u_first ((i + j + k) & 1) become
// (r_i + sum_j c_ij z_j) / A_ii from the old z, then the other colour's from those new
// values. A texel's second-colour cells need the first colour's new values at their six
// neighbours, so the invocation evaluates the first half at its own texel and the six beside
// it: more fetches, which caches serve, for half the memory traffic of two passes.
// z and r vanish on cells without an equation (every vector the cycle makes does), which
// lets the sums skip the labels (pressure3d/operator.glsl, vanishingNeighbourSum).
// ZERO_GUESS: z = 0 before the sweep (the first sweep of a cycle reads no z).
#include "pressure3d/operator.glsl"

uniform sampler2D u_r;
#ifndef ZERO_GUESS
uniform sampler2D u_z;
#endif
uniform int u_first;

vec4 oldZ(ivec3 b) {
#ifdef ZERO_GUESS
  return vec4(0.0);
#else
  return gridFetch(u_z, u_grid, b);
#endif
}

bvec4 ofFirstColour(ivec3 b) { return equal((ivec4(0, 1, 2, 3) + ivec4(b.y + b.z)) & ivec4(1), ivec4(u_first)); }

// Block b after the first half-sweep: its first-colour cells relaxed, the others old.
vec4 firstHalf(ivec3 b) {
  vec4 d = gridFetch(u_diagonal, u_grid, b);
  vec4 r = gridFetch(u_r, u_grid, b);
#ifdef ZERO_GUESS
  vec4 here = vec4(0.0);
  vec4 relaxed = r / d;
#else
  vec4 here = oldZ(b);
  vec4 relaxed = (r + vanishingNeighbourSum(b, vec4(oldZ(b - ivec3(1, 0, 0)).w, here.xyz),
                                            vec4(here.yzw, oldZ(b + ivec3(1, 0, 0)).x), oldZ(b - ivec3(0, 1, 0)),
                                            oldZ(b + ivec3(0, 1, 0)), oldZ(b - ivec3(0, 0, 1)),
                                            oldZ(b + ivec3(0, 0, 1)))) / d;
#endif
  return onEquations(d, mix(here, relaxed, ofFirstColour(b)));
}

void kernel(ivec2 texel) {
  ivec3 b = gridBlock(u_grid, texel);
  vec4 own = firstHalf(b);
  vec4 d = texelFetch(u_diagonal, texel, 0);
  vec4 r = texelFetch(u_r, texel, 0);
  // The second colour's neighbours are all of the first colour: their new values.
  vec4 sum = vanishingNeighbourSum(b, vec4(firstHalf(b - ivec3(1, 0, 0)).w, own.xyz),
                                   vec4(own.yzw, firstHalf(b + ivec3(1, 0, 0)).x), firstHalf(b - ivec3(0, 1, 0)),
                                   firstHalf(b + ivec3(0, 1, 0)), firstHalf(b - ivec3(0, 0, 1)),
                                   firstHalf(b + ivec3(0, 0, 1)));
  o_out0 = onEquations(d, mix((r + sum) / d, own, ofFirstColour(b)));
}
