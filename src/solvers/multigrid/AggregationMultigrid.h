#pragma once
// texstream::solvers::AggregationMultigrid: z = M^-1 r by one V-cycle of smoothed-aggregation
// algebraic multigrid (Vaněk, Mandel & Brezina 1996), the preconditioner of CG for sparse
// SPD matrices with no grid behind them: mesh Laplacians, LSCM's and DSI's normal equations
// (Buatois et al. 2008 precondition these with Jacobi, whose CG iterations grow about
// linearly with the mesh; with this cycle they grow far slower on LSCM: docs/performance.md).
//
// The hierarchy is built on the CPU in double (AggregationHierarchy.h); the cycle runs on
// the GPU, on either backend:
//  - level 0 is the caller's matrix on its internal order (a SegmentMatrix or BcrsMatrix:
//    PermutedMatrix::internal()), so CG and the cycle share vectors with no gathers;
//  - the coarse levels are SegmentMatrix objects on their own internal orders (their long
//    rows split over several invocations per texel on the compute backend), except large
//    levels of 2-unknown nodes on the compute backend, stored BCRS 2x2 (one invocation per
//    block row: AggregationMultigridOptions::bcrsCoarseFrom); the coarsest (at most
//    AggregationOptions::coarsestSize unknowns) is a DenseMatrix holding its inverse;
//  - between levels, P and P0^T as TransferMatrix objects whose indices are already the
//    two levels' internal positions. The restriction P^T r is applied as
//    P0^T (r - omega A D^-1 r) (P = (I - omega D^-1 A) P0): P's columns are long (about
//    50 entries on LSCM), and one invocation summing four of them serially made the
//    restriction half of the cycle's GPU time; P0's are an aggregate's few rows.
// One V(nu, nu)-cycle on level l, b given, x from 0 (nu = smoothingSweeps):
//    x = omega D^-1 b; nu - 1 further sweeps x += omega D^-1 (b - A x)
//    r = b - A x;  b_{l+1} = P0^T (r - A (omega D^-1 r));  x_{l+1} = cycle(l + 1)  (coarsest: x = A^-1 b)
//    x += P x_{l+1};  nu sweeps x += omega D^-1 (b - A x)
// with omega = 4 / (3 rho(D^-1 A)) per level. Pre- and post-smoothing match and the
// coarsest solve is exact, so M is symmetric positive definite and plain CG may use it.
//
//   SegmentMatrix A(csr, "A");
//   AggregationMultigrid M(csr, A, {});
//   cg(A.internal(), b, x, options, &M);     // b, x in A.internalLayout()
#include <texstream/linalg/Csr.h>
#include <texstream/linalg/TransferMatrix.h>
#include <texstream/solvers/multigrid/AggregationHierarchy.h>
#include <texstream/solvers/Preconditioner.h>
#include <texstream/stream/Vector.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace texstream::linalg {
class DenseMatrix;
class LinearOperator;
class PermutedMatrix;
class SegmentMatrix;
}  // namespace texstream::linalg

namespace texstream::solvers {
inline namespace multigrid {

struct AggregationMultigridOptions {
  AggregationOptions hierarchy;
  /// Weighted Jacobi sweeps before and after the coarse-grid correction (nu >= 1).
  int smoothingSweeps = 1;
  /// On the compute backend, a coarse level whose nodes are 2 unknowns (a 2-block system's
  /// default near-null space) with at least this many unknowns is stored BCRS 2x2 rather
  /// than as a segment matrix: many block rows of similar length fill the GPU with one
  /// invocation each (LSCM's first coarse level; docs/performance.md has the runs). Fewer,
  /// longer rows stay segment rows, split over lanes. 0: every such level.
  std::size_t bcrsCoarseFrom = std::size_t(1) << 16;
};

/// What the hierarchy came to, for reports and the benchmark.
struct AggregationMultigridStats {
  int levels = 0;
  std::vector<std::size_t> unknowns, nonZeros;  ///< per level
  /// Stored non-zeros of every level / of level 0 (the cycle's cost beyond the fine level).
  double operatorComplexity = 0;
  double setupMs = 0;   ///< the CPU hierarchy (aggregation, products)
  double uploadMs = 0;  ///< the GPU matrices and vectors
  AggregationTimings hierarchy;  ///< setupMs by phase
  /// uploadMs by part: the levels' matrices and vectors, the transfers between them, the
  /// coarsest level's inverse.
  double levelsMs = 0, transfersMs = 0, coarsestMs = 0;
};

class AggregationMultigrid : public Preconditioner {
 public:
  /// `A` is the matrix in double, in the user's order; `fine` the same matrix on the GPU
  /// (kept by reference: it must outlive this object), whose internal order the cycle's
  /// vectors use. std::invalid_argument when the sizes differ or the hierarchy refuses A
  /// (AggregationHierarchy.h); gl::Error when the coarsest matrix is singular or the GPU
  /// cannot hold a level.
  AggregationMultigrid(const linalg::Csr& A, const linalg::PermutedMatrix& fine, AggregationMultigridOptions options,
                       std::string name = "amg");
  /// The same with the hierarchy built on a second thread: this one first calls
  /// `uploadFine`, which uploads the fine matrix and returns it (kept by reference as
  /// above), then puts each level on the GPU as soon as the hierarchy has settled it, so the
  /// upload and the GPU levels overlap the CPU products (SystemSolver builds it so). GL is
  /// used on the calling thread only. Errors as above; an error of `uploadFine` is reported
  /// before one of the hierarchy.
  AggregationMultigrid(const linalg::Csr& A, const std::function<const linalg::PermutedMatrix&()>& uploadFine,
                       AggregationMultigridOptions options, std::string name = "amg");
  ~AggregationMultigrid() override;
  AggregationMultigrid(const AggregationMultigrid&) = delete;
  AggregationMultigrid& operator=(const AggregationMultigrid&) = delete;

  /// z = M^-1 r: one V-cycle from zero. r and z in the fine matrix's internalLayout() (z
  /// may be r). gl::Error naming the vector otherwise.
  void apply(const stream::Vector& r, stream::Vector& z) const override;
  /// "smoothed aggregation V(1,1), 4 levels"
  std::string name() const override;
  const AggregationMultigridStats& stats() const { return m_stats; }

 private:
  struct Level;
  /// std::invalid_argument unless A (level 0 in double) matches `fine` and the options hold.
  void requireValid(const linalg::Csr& A, const linalg::PermutedMatrix& fine) const;
  /// Level l of `levels` on the GPU with the transfers from level l - 1 to it, and with the
  /// coarsest level its inverse: called for levels 0, 1, ... as the hierarchy settles them.
  void addLevel(const AggregationLevel* levels, std::size_t l, bool coarsest, const linalg::PermutedMatrix& fine);
  /// One V-cycle on level l: x = M_l^-1 b (x not b).
  void cycle(std::size_t l, const stream::Vector& b, stream::Vector& x) const;

  std::string m_name;
  AggregationMultigridOptions m_options;
  std::vector<std::unique_ptr<Level>> m_levels;
  std::unique_ptr<linalg::DenseMatrix> m_coarseInverse;
  AggregationMultigridStats m_stats;
  bool m_singleLevel = false;     // the hierarchy is one level: a two-level cycle with P = I
  double m_storedNonZeros = 0;    // over the levels added so far
};

}  // namespace multigrid
}  // namespace texstream::solvers
