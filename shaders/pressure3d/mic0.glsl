// The ordering and couplings of the block-multicolour MIC(0) preconditioner of the pressure
// operator of a 3D fluid domain (solvers/stationary/MulticolourMic0.h). The host defines the
// block, MIC_BLOCK_X texel columns (4 MIC_BLOCK_X cells along x) by MIC_BLOCK_Y rows by
// MIC_BLOCK_Z slices, and sets the period K (u_period, in blocks) along each axis. Block
// B = (q / MIC_BLOCK_X, j / MIC_BLOCK_Y, k / MIC_BLOCK_Z) of texel (q, j, k) is in phase
// B % K and has colour (Bx % Kx) + (By % Ky) + (Bz % Kz); the colours are visited in order
// 0 .. Kx + Ky + Kz - 3 (forward) or the reverse (backward), and inside a block the order
// is natural (x fastest, then y, then z). Blocks that touch differ in colour by 1, or by
// K - 1 where two periods meet: along an axis the block beside on the - side comes earlier
// unless this block's phase there is 0, the one on the + side only where it is K - 1. One
// pass handles one colour: an invocation recomputes the part of its block that its texel
// depends on (the texels (q', j', k') <= its own, its "cone"), reading what earlier colours
// left in the texture, and writes its own texel.
#ifndef TEXSTREAM_PRESSURE3D_MIC0_GLSL
#define TEXSTREAM_PRESSURE3D_MIC0_GLSL
#include "pressure3d/operator.glsl"

uniform int u_colour;
uniform ivec4 u_period;  // K along x, y, z, in blocks (w unused)

const ivec3 kMicBlock = ivec3(MIC_BLOCK_X, MIC_BLOCK_Y, MIC_BLOCK_Z);  // in texels
const ivec3 kMicBlockCells = ivec3(4 * MIC_BLOCK_X, MIC_BLOCK_Y, MIC_BLOCK_Z);
#define MIC_CONE_SIZE (MIC_BLOCK_X * MIC_BLOCK_Y * MIC_BLOCK_Z)

// The phase B % K of texel b's block along each axis, and the colour of phases c.
ivec3 micPhase(ivec3 b) { return (b / kMicBlock) % u_period.xyz; }
int micColour(ivec3 c) { return c.x + c.y + c.z; }
// Whether the blocks beside along -x, -y, -z (lower) and +x, +y, +z (upper) come earlier.
bvec3 micLowerEarlier(ivec3 c) { return greaterThan(c, ivec3(0)); }
bvec3 micUpperEarlier(ivec3 c) { return equal(c, u_period.xyz - 1); }

// Cells are (i, j, k) (inside the grid); the block of a cell is c / kMicBlockCells.
int micCellColour(ivec3 c) { return micColour((c / kMicBlockCells) % u_period.xyz); }
bool micSameBlock(ivec3 a, ivec3 c) { return all(equal(a / kMicBlockCells, c / kMicBlockCells)); }
int micIndexInBlock(ivec3 c) {
  ivec3 o = c % kMicBlockCells;
  return o.x + kMicBlockCells.x * (o.y + kMicBlockCells.y * o.z);
}
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

// Cone storage: texel (q', j', k') of the block (offsets from its first texel).
#define MIC_CONE_INDEX(qq, jj, kk) ((qq) + MIC_BLOCK_X * ((jj) + MIC_BLOCK_Y * (kk)))

#endif
