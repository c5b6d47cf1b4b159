#pragma once
// texstream::solvers::AggregationHierarchy: the CPU set-up of smoothed-aggregation algebraic
// multigrid (Vaněk, Mandel & Brezina 1996, "Algebraic multigrid by smoothed aggregation for
// second and fourth order elliptic problems"), for matrices that come with no grid: a
// mesh's Laplacian, LSCM's normal equations (Buatois et al. 2008 solve these with
// Jacobi-PCG, whose iterations grow with the mesh; a multigrid cycle keeps them bounded).
//
// Per level, from its matrix A (symmetric positive definite, in double):
//  1. Nodes are blocks of `blockSize` consecutive unknowns (LSCM: a vertex's (u, v)). Node
//     j is strongly coupled to node i when ||A_ij|| >= theta sqrt(||A_ii|| ||A_jj||)
//     (Frobenius norms of the blocks; Vaněk et al. §3, eq. 3.2).
//  2. Aggregates (their §3, the three passes): a node whose strong neighbours are all free
//     founds an aggregate of itself and them; a node left over joins the aggregate of a
//     strong neighbour; what remains groups with its free strong neighbours. A node with
//     no strong neighbour is an aggregate of its own.
//  3. The tentative prolongator P0 interpolates the near-null space B (k vectors the matrix
//     nearly annihilates) exactly on each aggregate: B restricted to the aggregate's rows is
//     factored Q R (Gram-Schmidt), Q's k columns become the aggregate's k columns of P0 and
//     R its k rows of the next level's B (their §3, eq. 3.5). By default B is the constant
//     per block component (a Laplacian's near-null space, once per component, k = b: then
//     P0[node * b + c, aggregate * b + c] = 1 / sqrt(aggregate size)); LSCM adds the plane's
//     rotation (u, v) = (-y, x) and scaling (x, y), which its conformal energy also leaves
//     nearly free (k = 4), as elasticity adds rigid rotations. A coarse unknown an aggregate
//     too small for k columns cannot carry is left out of every product (its column of P0
//     is 0, its coarse row and column 0 but for a unit diagonal).
//  4. The prolongator P = (I - omega D^-1 A) P0 with omega = 4 / (3 rho(D^-1 A)), rho
//     estimated by power iteration (their §4: one Jacobi step smooths P0's columns).
//  5. The next level's matrix is the Galerkin product P^T A P.
// The products run on the node blocks (linalg/BlockCsr.h: b x b blocks of A, b x k of P,
// k x k of the coarse levels), a small dense product per pair of blocks; the levels are
// handed out in scalar CSR, every value of a block stored (zeros inside blocks too), but
// for P0, whose zeros are dropped (the constant near-null space gives it one entry a row).
// Coarsening stops at coarsestSize unknowns (or when a level shrinks by less than a
// quarter, or at maxLevels); the coarsest matrix is for a direct solve.
#include <texstream/linalg/Csr.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace texstream::solvers {
inline namespace multigrid {

struct AggregationOptions {
  /// Unknowns per node (1: scalar; 2 or 4: the BCRS blocks of a LinearSystem's variables).
  int blockSize = 1;
  /// Strength threshold theta in [0, 1): 0 counts every non-zero coupling as strong.
  double strengthThreshold = 0.08;
  /// Stop coarsening once a level has at most this many unknowns (its inverse is then
  /// applied as a dense matrix).
  std::size_t coarsestSize = 400;
  int maxLevels = 16;
  /// Power-iteration steps estimating rho(D^-1 A) per level (prolongator and smoother).
  int powerIterations = 12;
  /// The near-null space B: k vectors of A.rows values each (1 <= k <= 16; the coarse
  /// levels then have k unknowns per aggregate). Empty: the constants per block component
  /// (k = blockSize).
  std::vector<std::vector<double>> nearNullSpace;
};

struct AggregationLevel {
  /// This level's matrix: on level 0 the caller's A itself (not copied: it must outlive the
  /// levels), below it the Galerkin product the level owns.
  std::shared_ptr<const linalg::Csr> A;
  /// Prolongation from the next level (A.rows x next A.rows); empty on the coarsest level.
  linalg::Csr P;
  /// rho(D^-1 A) estimated from above (power iteration times 1.05): weighted Jacobi with
  /// omega = 4 / (3 rho) damps the upper two thirds of the spectrum.
  double spectralRadius = 1;
  /// Nodes per aggregate, mean, for reports (0 on the coarsest level).
  double meanAggregate = 0;
  /// The tentative prolongator P0, with P = (I - omega D^-1 A) P0, omega = 4 / (3
  /// spectralRadius): P^T r = P0^T (r - omega A D^-1 r) restricts through P0's short
  /// columns and one product with A instead of P's long ones.
  linalg::Csr P0;
};

/// Where a hierarchy's CPU time goes, all levels together (milliseconds). A level's
/// conversion to CSR and its power iterations run beside its aggregation, on a thread of
/// their own, and the finest level's conversion to blocks beside its power iterations:
/// those overlap.
struct AggregationTimings {
  double aggregationMs = 0;     ///< strength of coupling and the three aggregation passes
  double prolongatorMs = 0;     ///< P0 and its smoothing, P = P0 - omega D^-1 A P0
  double galerkinMs = 0;        ///< P^T (A P)
  double spectralRadiusMs = 0;  ///< the power iterations
  double conversionMs = 0;      ///< the finest matrix into node blocks, the levels' blocks back to CSR
};

/// Reports a level as soon as it is settled, on the thread building the hierarchy:
/// levels[l]'s matrix and spectral radius are final and `coarsest` says whether it is the
/// last level; levels[0 .. l - 1] are complete (their P and P0 too). The levels keep their
/// addresses while the hierarchy grows and in the vector returned. A caller putting levels
/// on the GPU from another thread starts on each as it comes (AggregationMultigrid does).
using AggregationLevelSettled = std::function<void(const AggregationLevel* levels, std::size_t l, bool coarsest)>;

/// The levels, finest first (levels[0].A points at A). std::invalid_argument naming the problem:
/// A not square or not valid, blockSize not 1, 2 or 4 or not dividing A's size, a diagonal
/// entry that is not positive (the matrix is not SPD), more than 16 near-null vectors or
/// ones of the wrong size or not finite, bad options. `timings`, where given, receives where the time went;
/// `settled`, where given, is called for levels 0, 1, ... in order, the coarsest last.
std::vector<AggregationLevel> buildAggregationHierarchy(const linalg::Csr& A, const AggregationOptions& options,
                                                        const std::string& name, AggregationTimings* timings = nullptr,
                                                        const AggregationLevelSettled& settled = {});

/// rho(D^-1 A) by `steps` power iterations from a fixed pseudo-random start, times 1.05.
double estimateJacobiSpectralRadius(const linalg::Csr& A, int steps);

}  // namespace multigrid
}  // namespace texstream::solvers
