#pragma once
// texstream::solvers::SystemSolver: a LinearSystem (linalg/SystemBuilder.h) solved on the
// GPU, the Concurrent Number Cruncher's hand-off from OpenNL to the GPU solver (Buatois et
// al. 2008, §1-2: the system is assembled on the CPU, then CG runs on the GPU).
//
// Two routes for least squares, one for square systems:
//  - NormalEquations: N = A^T A formed on the CPU (linalg/CsrProducts.h), uploaded as a
//    BCRS 2x2/4x4 matrix (Buatois §2.2.3; the system's block size) or a segment matrix
//    (Bolz et al. 2003 §3), solved by PCG (cg()) with smoothed-aggregation multigrid
//    (AggregationMultigrid.h, the default) or Jacobi (the CNC's choice); square systems take
//    this route with N = A;
//  - Cgls: A and A^T uploaded as segment matrices, solved by CGLS (Cgls.h) without
//    forming A^T A (the Jacobi preconditioner is then 1 / the squared column norms).
//    SegmentMatrix is square, so A (m x n) is stored as the square matrix of size
//    max(m, n) that holds it in its top-left corner; the padding rows and columns are
//    empty and the vectors' extra elements stay zero.
//
//   LinearSystem system = builder.build();
//   SystemSolver solver(system, {.route = LeastSquaresRoute::NormalEquations});
//   SolverStatus s = solver.solve();                 // system 0, warm-started
//   glBindTexture(GL_TEXTURE_2D, solver.values(0).texture().id());   // every scalar, on the GPU
//
// Accuracy: CG in float stops where float's rounding of b - A x does (about 1e-6
// relative on LSCM systems), and the error in x is that times the condition number. So
// each solve is checked in double on the CPU (one download, one CPU product), and while
// ||f - N x|| / ||f|| (CGLS: ||A^T (b - A x)|| / ||A^T b||) exceeds the tolerance, the
// correction N e = f - N x is solved on the GPU to a looser tolerance and added in double
// (defect correction, the mixed-precision iterative refinement of Moler 1967 and Göddeke
// et al. 2007), up to refinementSteps rounds, ending early once a round gains less than 2x
// (a round that raises the residual is undone). The reported residual is the double one.
// With rounds to follow (not CGLS), the first float solve stops at 1e-4 (or the
// tolerance, if looser) and the float solves do not restart from b - A x in float when their residual
// drifts (IterativeOptions::restartOnDrift): the rounds in double do both better.
// CGLS results are checked in double but not corrected: the correction would need the
// least-squares residual b - A x in float, whose rounding swamps the part A^T sees.
//
// values(k) holds every scalar of system k in the system's own order (variable v's
// component c at v * blockSize + c), locked ones at their values, in
// Layout::forSize(scalars()): a vertex's (u, v) of a 2-block system sit in one half texel,
// ready for a renderer. Each solve warm-starts from the previous solution of its system.
#include <texstream/linalg/SystemBuilder.h>
#include <texstream/solvers/multigrid/AggregationMultigrid.h>
#include <texstream/solvers/Preconditioner.h>
#include <texstream/solvers/krylov/ConjugateGradient.h>
#include <texstream/solvers/SolverStatus.h>
#include <texstream/stream/Vector.h>

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace texstream::linalg {
class LinearOperator;
}

namespace texstream::solvers {
inline namespace systems {

enum class LeastSquaresRoute {
  NormalEquations,  ///< A^T A on the CPU, then PCG on the GPU (square systems always)
  Cgls,             ///< A and A^T on the GPU, CGLS
};
const char* leastSquaresRouteName(LeastSquaresRoute route);

enum class SystemMatrixFormat {
  Auto,     ///< BCRS of the system's block size (2 or 4), segment for scalar variables
  Segment,  ///< Bolz et al. 2003
  Bcrs2,    ///< Buatois et al. 2008, 2x2 blocks
  Bcrs4,    ///< 4x4 blocks
};
const char* systemMatrixFormatName(SystemMatrixFormat format);

/// CG's preconditioner.
enum class SystemPreconditioner {
  Auto,       ///< Multigrid on the normal equations and square systems, Jacobi for CGLS
  None,
  Jacobi,     ///< 1 / diag(N) (NormalEquations) or 1 / squared column norms (Cgls)
  Multigrid,  ///< smoothed-aggregation multigrid on N (AggregationMultigrid.h), NormalEquations only
};
const char* systemPreconditionerName(SystemPreconditioner p);

struct SystemSolverOptions {
  LeastSquaresRoute route = LeastSquaresRoute::NormalEquations;
  /// The normal-equation (or square) matrix's format; Cgls always uses segment matrices.
  SystemMatrixFormat format = SystemMatrixFormat::Auto;
  /// Multigrid (NormalEquations and square systems) builds a hierarchy of N on the CPU, a
  /// few times the cost of forming N, after which CG needs tens of iterations where Jacobi
  /// needs thousands (docs/performance.md); CGLS takes Jacobi or none (std::invalid_argument
  /// for Multigrid).
  SystemPreconditioner preconditioner = SystemPreconditioner::Auto;
  /// For Multigrid: vectors the system's matrix nearly annihilates, each scalars() values
  /// in the system's scalar order (AggregationOptions::nearNullSpace; LSCM gives the plane's
  /// similarities). Empty: the constants per block component.
  std::vector<std::vector<double>> nearNullSpace;
  /// The GPU solve's options (cg, or cgls on the Cgls route): tolerance on the relative
  /// residual of the normal (or square) equations, the iteration cap of one solve (unset:
  /// 5000), checkEvery (unset: 8), onCheck and the others. The first solve of a refined
  /// system stops at a looser tolerance, and restartOnDrift is off while rounds follow (see
  /// above).
  CgOptions cg = defaultCg();
  /// Rounds of defect correction in double after the GPU solve at most (see above); 0
  /// leaves the float solve's verdict as it is. Where the float-rounded matrix limits each
  /// round to a constant gain (LSCM on large flat patches: about 10x a round) the tolerance
  /// needs several.
  int refinementSteps = 10;

  /// cg's default above: tolerance 1e-6, 5000 iterations, a check every 8.
  static CgOptions defaultCg();
};

/// Where the set-up time goes (milliseconds, GPU work finished).
struct SystemSolverSetup {
  double normalMatrixMs = 0;  ///< forming A^T A on the CPU (NormalEquations, least squares)
  double uploadMs = 0;  ///< building the GPU matrices (Cgls: A and A^T) and vectors
  /// The multigrid hierarchy (CPU) and its levels' upload (Multigrid): the hierarchy is built
  /// while the matrix uploads, so this is the time it adds beyond uploadMs.
  double multigridMs = 0;
  int multigridLevels = 0;
  /// multigridMs by phase (AggregationMultigrid.h), when multigrid was built.
  AggregationMultigridStats multigrid;
  std::size_t matrixRows = 0, matrixNonZeros = 0;  ///< of the matrix (or matrices) on the GPU
};

class SystemSolver {
 public:
  /// Uploads `system` (a current GL context is needed). std::invalid_argument for a square
  /// system that is not symmetric (CG needs SPD), a BCRS format on a size it does not divide
  /// or bad options; gl::Error when the GPU cannot hold the matrices.
  SystemSolver(const linalg::LinearSystem& system, SystemSolverOptions options = {});
  ~SystemSolver();
  SystemSolver(const SystemSolver&) = delete;
  SystemSolver& operator=(const SystemSolver&) = delete;

  /// Solves system k from its current values (warm start).
  SolverStatus solve(int system = 0);
  /// Every system in turn; the status of the slowest.
  SolverStatus solveAll();
  /// New right-hand sides and locked values from `system`, which must be the system this
  /// solver was built from with only LinearSystem::setRowRhs / setLockedValues applied
  /// (same sizes; std::invalid_argument otherwise). The current solutions stay as warm starts.
  void updateRightHandSides(const linalg::LinearSystem& system);
  /// New initial guesses from the system's (LinearSystem::setInitialGuess), for every system.
  void resetToInitialGuess(const linalg::LinearSystem& system);

  /// Every scalar of system k (see the file comment); current after each solve().
  const stream::Vector& values(int system = 0) const;
  /// values(k) on the CPU, scalars() doubles: locked scalars at their exact values; the
  /// unknowns from the double-precision solution where the last solve ran defect
  /// correction (values(k) holds its float rounding), else from values(k).
  std::vector<double> downloadValues(int system = 0) const;

  const SystemSolverOptions& options() const { return m_options; }
  void setTolerance(float tolerance, int maxIterations);
  const SystemSolverSetup& setup() const { return m_setup; }
  const SolverStatus& lastStatus(int system = 0) const;
  /// The operator CG or CGLS runs on (internal order), for benchmarks of its product.
  const linalg::LinearOperator& matrixOperator() const;
  /// The resolved format of the matrix CG runs on (Cgls: Segment).
  SystemMatrixFormat format() const { return m_format; }
  /// The resolved preconditioner (never Auto).
  SystemPreconditioner preconditioner() const { return m_preconditioner; }

 private:
  struct Gpu;
  void requireSystem(const char* where, int system) const;
  /// Uploads the right-hand sides and the locked values of every system.
  void uploadRightHandSides(const linalg::LinearSystem& system);
  /// values(k) from the internal solution (one gather pass).
  void expand(int system);
  SolverStatus runCg(const stream::Vector& b, stream::Vector& x, float tolerance);
  SolverStatus runCgls(const stream::Vector& b, stream::Vector& x, float tolerance);
  SolverStatus runSolver(const stream::Vector& b, stream::Vector& x, float tolerance);
  /// The double-precision residual of unknowns x (n values) for system k: its relative
  /// norm, and the right-hand side of the correction (NormalEquations: f - N x; Cgls:
  /// b - A x).
  double doubleResidual(int system, const std::vector<double>& x, std::vector<double>& correctionRhs) const;
  /// Defect correction of system k after the GPU solve `status` (see the file comment).
  void refine(int system, SolverStatus& status);

  std::string m_name;
  SystemSolverOptions m_options;
  SystemMatrixFormat m_format = SystemMatrixFormat::Segment;
  SystemPreconditioner m_preconditioner = SystemPreconditioner::Jacobi;
  linalg::SystemMode m_mode;
  int m_systems = 1;
  std::size_t m_unknowns = 0, m_rows = 0, m_scalars = 0;
  std::unique_ptr<Gpu> m_gpu;
  SystemSolverSetup m_setup;
  std::vector<SolverStatus> m_status;
};

}  // namespace systems
}  // namespace texstream::solvers
