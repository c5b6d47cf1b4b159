// The pressure operator of a 3D fluid domain (linalg/PressureMatrix3D.h) on packed fields:
// (A x)_i = A_ii x_i - sum over fluid neighbours j of c_ij x_j, where c_ij is 1 (two fluid
// cells, no face fractions: the neighbour's diagonal is positive) or the stored coupling
// (COUPLINGS: -A(i, i - x) of each cell in u_couplingX, ...; the +x coupling of a cell is
// the -x coupling of its east neighbour). Cells without an equation give 0, and what x
// holds there never reaches another cell. The diagonal field is A_ii > 0 on cells with an
// equation, 0 on solid (and walled-in) cells, -1 on air: the labels multigrid coarsens.
// Blocks are addressed by grid3d/grid.glsl's cursors.
#ifndef TEXSTREAM_PRESSURE3D_OPERATOR_GLSL
#define TEXSTREAM_PRESSURE3D_OPERATOR_GLSL
#include "grid3d/grid.glsl"

uniform Grid3 u_grid;
uniform sampler2D u_diagonal;
#ifdef COUPLINGS
uniform sampler2D u_couplingX;
uniform sampler2D u_couplingY;
uniform sampler2D u_couplingZ;
#endif

// The neighbours' values of a block's four cells, one vec4 a direction.
struct Around {
  vec4 west, east, south, north, down, up;
};

Around around(sampler2D x, GridCursor c, vec4 here) {
  Around a;
  a.west = gridWestOf(x, u_grid, c, here);
  a.east = gridEastOf(x, u_grid, c, here);
  a.south = gridReadAt(x, u_grid, c, ivec3(0, -1, 0));
  a.north = gridReadAt(x, u_grid, c, ivec3(0, 1, 0));
  a.down = gridReadAt(x, u_grid, c, ivec3(0, 0, -1));
  a.up = gridReadAt(x, u_grid, c, ivec3(0, 0, 1));
  return a;
}

// c x where the coupling c is non-zero, else 0 (mix() with a bvec selects: a NaN in x at a
// cell without an equation stays there).
vec4 coupled(vec4 c, vec4 x) { return mix(vec4(0.0), c * x, notEqual(c, vec4(0.0))); }
// 1 where a cell has an equation (its diagonal is positive).
vec4 hasEquation(vec4 d) { return vec4(greaterThan(d, vec4(0.0))); }
// Keeps v where a cell has an equation, 0 elsewhere.
vec4 onEquations(vec4 d, vec4 v) { return mix(vec4(0.0), v, greaterThan(d, vec4(0.0))); }

// sum_j c_ij x_j over the six neighbours of each of the cursor's cells, for any x; d is the
// cursor's diagonal texel.
vec4 neighbourSum(Around x, GridCursor c, vec4 d) {
#ifdef COUPLINGS
  vec4 cx = gridRead(u_couplingX, u_grid, c);
  return coupled(cx, x.west) + coupled(gridEastOf(u_couplingX, u_grid, c, cx), x.east) +
         coupled(gridRead(u_couplingY, u_grid, c), x.south) +
         coupled(gridReadAt(u_couplingY, u_grid, c, ivec3(0, 1, 0)), x.north) +
         coupled(gridRead(u_couplingZ, u_grid, c), x.down) +
         coupled(gridReadAt(u_couplingZ, u_grid, c, ivec3(0, 0, 1)), x.up);
#else
  return coupled(hasEquation(gridWestOf(u_diagonal, u_grid, c, d)), x.west) +
         coupled(hasEquation(gridEastOf(u_diagonal, u_grid, c, d)), x.east) +
         coupled(hasEquation(gridReadAt(u_diagonal, u_grid, c, ivec3(0, -1, 0))), x.south) +
         coupled(hasEquation(gridReadAt(u_diagonal, u_grid, c, ivec3(0, 1, 0))), x.north) +
         coupled(hasEquation(gridReadAt(u_diagonal, u_grid, c, ivec3(0, 0, -1))), x.down) +
         coupled(hasEquation(gridReadAt(u_diagonal, u_grid, c, ivec3(0, 0, 1))), x.up);
#endif
}

// The same for a vector that vanishes on every cell without an equation (what the
// multigrid cycle and MIC(0) make): without couplings the sum then needs no labels.
vec4 vanishingNeighbourSum(Around x, GridCursor c) {
#ifdef COUPLINGS
  vec4 cx = gridRead(u_couplingX, u_grid, c);
  return cx * x.west + gridEastOf(u_couplingX, u_grid, c, cx) * x.east + gridRead(u_couplingY, u_grid, c) * x.south +
         gridReadAt(u_couplingY, u_grid, c, ivec3(0, 1, 0)) * x.north + gridRead(u_couplingZ, u_grid, c) * x.down +
         gridReadAt(u_couplingZ, u_grid, c, ivec3(0, 0, 1)) * x.up;
#else
  return x.west + x.east + x.south + x.north + x.down + x.up;
#endif
}

// (A x) at the cursor's four cells.
vec4 pressureProduct(sampler2D x, GridCursor c) {
  vec4 d = gridRead(u_diagonal, u_grid, c);
  vec4 here = gridRead(x, u_grid, c);
  return onEquations(d, d * here - neighbourSum(around(x, c, here), c, d));
}

#endif
