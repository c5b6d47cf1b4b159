#pragma once
// Grid transfers of the layered multigrid (Bolz et al. 2003, §4.2) between a fine
// LayeredGrid and the next coarser one (fine.coarser()): bilinear interpolation S,
// full-weighting projection P = 1/4 S^T, and the Galerkin coarse operator A_2h = P A_h S
// composed on the GPU. Coarse node I sits at fine node 2I; in texel coordinates coarse
// texel T covers fine texels 2T - 1 + {-1, 0, 1}, the same in all four channels.
// "Free" nodes are those with a non-zero centre coefficient; fixed (Dirichlet) nodes take
// no interpolated correction and receive no projected residual.
namespace texstream::stream {
class Vector;
}

namespace texstream::solvers {
inline namespace multigrid {

class LayeredGrid;
class LayeredStencil;

/// x = S v (add: x += S v) at free owned nodes of `fine` (fineCentre: the fine operator's
/// centre entry); fixed nodes keep x. v is a layered field of `coarse` with its border in
/// sync; x's border is brought in sync afterwards (by a copy pass, or borderInKernel: by the
/// interpolation pass itself, Multigrid.h's BorderUpdate::InKernel).
void interpolateBilinear(const LayeredGrid& fine, const LayeredGrid& coarse, const stream::Vector& v,
                         const stream::Vector& fineCentre, stream::Vector& x, bool add, bool borderInKernel = false);

/// Optional second output of the projection: the coarse level's first weighted Jacobi
/// sweep from a zero guess for the projected b (x = omega b / centre at free nodes, b at
/// fixed ones, exactly what Multigrid's zero-guess sweep would write), so that a cycle
/// descending to the coarse level saves that pass. Its border is written by the projection
/// itself (borderInKernel) or by a copy pass after it.
struct ZeroGuessSweep {
  stream::Vector* x = nullptr;  ///< a layered field of the coarse grid; nullptr: no sweep
  float omega = 0.0f;
  bool borderInKernel = false;
};

/// b = P r at free owned nodes of `coarse` (coarseCentre: the coarse operator's centre),
/// zero elsewhere. r is a layered field of `fine` with its border in sync.
void projectFullWeighting(const LayeredGrid& fine, const LayeredGrid& coarse, const stream::Vector& r,
                          const stream::Vector& coarseCentre, stream::Vector& b, const ZeroGuessSweep& sweep = {});

/// coarse = P fine S on the free nodes (fine's couplings into fixed nodes dropped first); a
/// coarse node is fixed exactly when no free fine node lies in its support, so S
/// reproduces constants at every free fine node. coarse must live on fine.grid().coarser().
/// Borders of every entry are in sync afterwards.
void composeGalerkin(const LayeredStencil& fine, LayeredStencil& coarse);

}  // namespace multigrid
}  // namespace texstream::solvers
