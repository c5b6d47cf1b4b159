// The pressure operator of a 3D fluid domain (linalg/PressureMatrix3D.h) on packed fields:
// (A x)_i = A_ii x_i - sum over fluid neighbours j of c_ij x_j, where c_ij is 1 (two fluid
// cells, no face fractions: the neighbour's diagonal is positive) or the stored coupling
// (COUPLINGS: -A(i, i - x) of each cell in u_couplingX, ...; the +x coupling of a cell is
// the -x coupling of its east neighbour). Cells without an equation give 0,
// and what x holds there never reaches another cell. The diagonal field is A_ii > 0 on cells
// with an equation, 0 on solid (and walled-in) cells, -1 on air: the labels multigrid
// coarsens.
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

// c x where the coupling c is non-zero, else 0 (mix() with a bvec selects: a NaN in x at a
// cell without an equation stays there).
vec4 coupled(vec4 c, vec4 x) { return mix(vec4(0.0), c * x, notEqual(c, vec4(0.0))); }
// 1 where a cell has an equation (its diagonal is positive).
vec4 hasEquation(vec4 d) { return vec4(greaterThan(d, vec4(0.0))); }

// Sum over each of the four cells of block b of c_ij x_j, its couplings with its six
// neighbours; d is the block's diagonal texel.
vec4 neighbourSum(sampler2D x, ivec3 b, vec4 d) {
  vec4 xc = gridFetch(x, u_grid, b);
  vec4 xw = gridWestCells(x, u_grid, b, xc);
  vec4 xe = gridEastCells(x, u_grid, b, xc);
  vec4 xs = gridFetch(x, u_grid, b - ivec3(0, 1, 0));
  vec4 xn = gridFetch(x, u_grid, b + ivec3(0, 1, 0));
  vec4 xd = gridFetch(x, u_grid, b - ivec3(0, 0, 1));
  vec4 xu = gridFetch(x, u_grid, b + ivec3(0, 0, 1));
#ifdef COUPLINGS
  vec4 cx = gridFetch(u_couplingX, u_grid, b);
  return coupled(cx, xw) + coupled(gridEastCells(u_couplingX, u_grid, b, cx), xe) +
         coupled(gridFetch(u_couplingY, u_grid, b), xs) +
         coupled(gridFetch(u_couplingY, u_grid, b + ivec3(0, 1, 0)), xn) +
         coupled(gridFetch(u_couplingZ, u_grid, b), xd) +
         coupled(gridFetch(u_couplingZ, u_grid, b + ivec3(0, 0, 1)), xu);
#else
  return coupled(hasEquation(gridWestCells(u_diagonal, u_grid, b, d)), xw) +
         coupled(hasEquation(gridEastCells(u_diagonal, u_grid, b, d)), xe) +
         coupled(hasEquation(gridFetch(u_diagonal, u_grid, b - ivec3(0, 1, 0))), xs) +
         coupled(hasEquation(gridFetch(u_diagonal, u_grid, b + ivec3(0, 1, 0))), xn) +
         coupled(hasEquation(gridFetch(u_diagonal, u_grid, b - ivec3(0, 0, 1))), xd) +
         coupled(hasEquation(gridFetch(u_diagonal, u_grid, b + ivec3(0, 0, 1))), xu);
#endif
}

// sum_j c_ij x_j over the six neighbours of each cell of block b, given the neighbours'
// values (xw: the four cells' x-1 neighbours, ...), for a vector that vanishes on every cell
// without an equation (what the multigrid cycle and MIC(0) make): without couplings the sum
// then needs no labels.
vec4 vanishingNeighbourSum(ivec3 b, vec4 xw, vec4 xe, vec4 xs, vec4 xn, vec4 xd, vec4 xu) {
#ifdef COUPLINGS
  vec4 cx = gridFetch(u_couplingX, u_grid, b);
  return cx * xw + gridEastCells(u_couplingX, u_grid, b, cx) * xe + gridFetch(u_couplingY, u_grid, b) * xs +
         gridFetch(u_couplingY, u_grid, b + ivec3(0, 1, 0)) * xn + gridFetch(u_couplingZ, u_grid, b) * xd +
         gridFetch(u_couplingZ, u_grid, b + ivec3(0, 0, 1)) * xu;
#else
  return xw + xe + xs + xn + xd + xu;
#endif
}

// Keeps v where a cell has an equation, 0 elsewhere.
vec4 onEquations(vec4 d, vec4 v) { return mix(vec4(0.0), v, greaterThan(d, vec4(0.0))); }

// (A x) at the four cells of block b.
vec4 pressureProduct(sampler2D x, ivec3 b) {
  vec4 d = gridFetch(u_diagonal, u_grid, b);
  return onEquations(d, d * gridFetch(x, u_grid, b) - neighbourSum(x, b, d));
}

#endif
