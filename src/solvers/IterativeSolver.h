#pragma once
// texstream::solvers::IterativeSolver: what every iterative solver shares, once, as Eigen's
// IterativeSolverBase holds it: the options (tolerance, iteration cap, check interval,
// backend, progress callback), one call shape, solve(b, x, options) -> SolverStatus, and the
// last status (Eigen's info(), iterations(), error()).
//
// The solvers: ConjugateGradient (ConjugateGradient.h), WeightedJacobi (Jacobi.h),
// Multigrid (Multigrid.h), EnhancedBlockJacobi (EnhancedBlockJacobi.h); the free functions
// cg(), jacobi(), enhancedBlockJacobi() and cgls() (Cgls.h) take the same options.
//
//   SolverStatus s = cg(A, b, x, {.tolerance = 1e-6f, .maxIterations = 500}, &M);
//   std::unique_ptr<IterativeSolver> solver = std::make_unique<ConjugateGradient>(A, &M);
//   s = solver->solve(b, x, {.tolerance = 1e-6f});   // or a Multigrid, a WeightedJacobi ...
#include <texstream/solvers/SolverStatus.h>
#include <texstream/stream/Backend.h>

#include <functional>
#include <optional>
#include <string>

namespace texstream::stream {
class Vector;
}

namespace texstream::solvers {

struct IterativeOptions {
  /// Stop when ||r|| / ||b|| <= tolerance. Which r: each solver says (CG: its recurrence
  /// residual; the stationary iterations: b - A x).
  float tolerance = 1e-6f;
  /// The iteration cap (multigrid: cycles), >= 0. Unset: the solver's default
  /// (IterationDefaults in its header).
  std::optional<int> maxIterations;
  /// Iterations between residual checks, >= 1 (a check: a residual evaluation and a
  /// read-back, which waits for the GPU). Unset: the solver's default.
  std::optional<int> checkEvery;
  /// No check before this iteration (>= 1; unset: 1), except iteration 0's (the initial
  /// residual) and the cap's. A sequence of warm-started solves of one system (a fluid's
  /// projection each step) sets the iterations the previous one needed, less one: each
  /// check it skips is a read-back that drains the GPU, and a solve that would have
  /// converged earlier runs on to this iteration, its residual only lower.
  std::optional<int> firstCheck;
  /// Fixed work (a time step's solve): exactly maxIterations iterations, ending early only on
  /// an exactly zero residual or a failure. Checks only at multiples of checkEvery (none
  /// when checkEvery > maxIterations, and then nothing is read back), and no set-up work
  /// that only a convergence test needs (each solver says what it skips).
  bool fixedIterations = false;
  /// cg and mixed-precision cg: read the checks without stalling (ConjugateGradient.h):
  /// no read-back waits for the GPU, and a solve runs up to 2 checkEvery - 1 iterations
  /// past its convergence. Unset: the solver's default (IterationDefaults): on for
  /// mixed-precision cg (but in the browser), whose solves to 1e-10 run hundreds of
  /// iterations; off for cg,
  /// whose warm-started solves of a few iterations would overshoot by more than a
  /// read-back costs. The other solvers read theirs blocking.
  std::optional<bool> asynchronousCheck;
  /// cg: when the updated residual says converged, form the true residual b - A x once (one
  /// product and a read-back) and judge by it (SolverStatus.h, holdToTrueResidual):
  /// Converged where it meets the tolerance, else Stagnated at float precision.
  /// false: the updated residual alone decides, as where the caller forms the true residual
  /// in higher precision itself (a refinement's defect).
  bool checkTrueResidual = true;
  /// cg, with checkTrueResidual: when b - A x misses the tolerance, restart once from it
  /// (CgDriver.cpp) before judging. false where the caller corrects the result in double
  /// itself (SystemSolver's defect correction): a restart in float cannot go below the
  /// floor the float-rounded matrix sets either, and on LSCM's normal matrices it spent a
  /// third of the iterations finding that out.
  bool restartOnDrift = true;
  /// Run on this backend instead of the thread's current one.
  std::optional<stream::Backend> backend;
  /// Called at each check (iteration 0 included) with the relative residual.
  std::function<void(int iteration, double relativeResidual)> onCheck;
};

/// A solver's defaults for the unset fields of IterativeOptions.
struct IterationDefaults {
  int maxIterations;
  int checkEvery;
  bool asynchronousCheck = false;
};

/// IterativeOptions with the solver's defaults filled in and checked.
struct IterationLimits {
  double tolerance = 0;  ///< 0 in fixed mode
  int maxIterations = 0;
  int checkEvery = 1;
  int firstCheck = 1;
  bool fixed = false;
  bool asynchronousCheck = false;
  /// Whether iteration k is checked: 0 (the initial residual), each checkEvery-th from
  /// firstCheck on, and the cap unless fixed.
  bool due(int k) const {
    return (k % checkEvery == 0 && (k == 0 || k >= firstCheck)) || (!fixed && k == maxIterations);
  }
  /// Whether any check happens (only fixed mode can have none).
  bool checks() const { return !fixed || checkEvery <= maxIterations; }
};

/// Fills in `defaults`; throws std::invalid_argument("solver: tolerance must be ...") for a
/// negative or non-finite tolerance, maxIterations < 0 or checkEvery < 1.
IterationLimits resolveLimits(const std::string& solver, const IterativeOptions& options,
                              const IterationDefaults& defaults);

class IterativeSolver {
 public:
  virtual ~IterativeSolver() = default;

  /// Solves A x = b: x holds the initial guess and receives the solution; which vectors
  /// (sizes, layouts): each solver says. Throws on wrong sizes or options; failures of the
  /// iteration (breakdown, NaN, the cap) are in the returned status, which status() keeps.
  SolverStatus solve(const stream::Vector& b, stream::Vector& x, const IterativeOptions& options = {});
  /// The last solve's status (Eigen's info()): outcome, iterations, residual history.
  const SolverStatus& status() const { return m_status; }

 protected:
  IterativeSolver() = default;
  IterativeSolver(const IterativeSolver&) = default;
  IterativeSolver(IterativeSolver&&) noexcept = default;
  IterativeSolver& operator=(const IterativeSolver&) = default;
  IterativeSolver& operator=(IterativeSolver&&) noexcept = default;
  virtual SolverStatus run(const stream::Vector& b, stream::Vector& x, const IterativeOptions& options) = 0;

 private:
  SolverStatus m_status;
};

}  // namespace texstream::solvers
