// The ordering and couplings of the block-multicolour MIC(0) preconditioner of the pressure
// operator of a 3D fluid domain (solvers/stationary/MulticolourMic0.h). Blocks are one texel column
// (four cells along x) by four rows by four slices; a block's colour is
// (q & 1) + 2 (J & 1) + 4 (K & 1) for block (q, J = j / 4, K = k / 4), so blocks that touch
// differ in colour, and the colours are visited in order 0 .. 7 (forward) or 7 .. 0
// (backward). Inside a block the order is natural (x fastest, then y, then z). One pass
// handles one colour: an invocation recomputes the part of its block that its texel depends
// on (the texels (j', k') <= its own, its "cone"), reading what earlier colours left in the
// texture, and writes its own texel.
#ifndef TEXSTREAM_PRESSURE3D_MIC0_GLSL
#define TEXSTREAM_PRESSURE3D_MIC0_GLSL
#include "pressure3d/operator.glsl"

uniform int u_colour;

int micBlockColour(ivec3 b) { return (b.x & 1) + 2 * ((b.y >> 2) & 1) + 4 * ((b.z >> 2) & 1); }

// Cells are (i, j, k); the block of a cell is (i / 4, j / 4, k / 4).
int micCellColour(ivec3 c) { return ((c.x >> 2) & 1) + 2 * ((c.y >> 2) & 1) + 4 * ((c.z >> 2) & 1); }
bool micSameBlock(ivec3 a, ivec3 c) { return all(equal(a >> 2, c >> 2)); }
int micIndexInBlock(ivec3 c) { return (c.x & 3) + 4 * ((c.y & 3) + 4 * (c.z & 3)); }
// Whether cell a comes before its neighbour c in the ordering.
bool micEarlier(ivec3 a, ivec3 c) {
  return micSameBlock(a, c) ? micIndexInBlock(a) < micIndexInBlock(c) : micCellColour(a) < micCellColour(c);
}

bool micInside(ivec3 c) { return all(greaterThanEqual(c, ivec3(0))) && all(lessThan(c, u_grid.size.xyz)); }
// Cell c of a packed field (0 beyond the grid).
float micCell(sampler2D f, ivec3 c) {
  if (!micInside(c)) return 0.0;
  int q = c.x >> 2;
  return texelFetch(f, gridTexel(u_grid, ivec3(q, c.y, c.z)), 0)[c.x & 3];
}

const ivec3 kMicStep[6] = ivec3[6](ivec3(-1, 0, 0), ivec3(1, 0, 0), ivec3(0, -1, 0), ivec3(0, 1, 0),
                                   ivec3(0, 0, -1), ivec3(0, 0, 1));

// c_ij = -A_ij of neighbours a and n = a + kMicStep[face] (0 unless both have an equation).
float micCoupling(ivec3 a, int face) {
  ivec3 n = a + kMicStep[face];
  if (!micInside(n)) return 0.0;
#ifdef COUPLINGS
  // Stored with the cell on the face's + side.
  ivec3 owner = (face % 2 == 1) ? n : a;
  int axis = face / 2;
  if (axis == 0) return micCell(u_couplingX, owner);
  if (axis == 1) return micCell(u_couplingY, owner);
  return micCell(u_couplingZ, owner);
#else
  return (micCell(u_diagonal, a) > 0.0 && micCell(u_diagonal, n) > 0.0) ? 1.0 : 0.0;
#endif
}

// Cone storage: texel (j', k') of the block at index j' + 4 k'.
#define MIC_CONE_INDEX(jj, kk) ((jj) + 4 * (kk))

#endif
