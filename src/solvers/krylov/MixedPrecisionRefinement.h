#pragma once
// Mixed-precision iterative refinement (defect correction): double-precision accuracy from
// float solvers (Göddeke, Strzodka & Turek 2007, "Performance and accuracy of
// hardware-oriented native-, emulated- and mixed-precision solvers in FEM simulations", §3).
// The solution x and the right-hand side b stay double-float pairs on the GPU
// (linalg::DoubleFloatVector); each outer step
//   r = b - A x                 in double-float arithmetic (LinearOperator::residualInDoubleFloat)
//   solve A c = r               by a float solver (CG, PCG, multigrid) to a modest accuracy
//   x += c                      in double-float arithmetic
// so each step gains the inner solve's digits until ||b - A x|| / ||b|| reaches the
// tolerance (down to about 1e-12 for matrices whose entries are floats), or two steps in a
// row gain less than minimumReduction: then the outcome is Stagnated with the residual
// reached. The residual is the true one, b - A x from the pairs, not a recurrence.
//
//   DoubleFloatVector b(n, "b"), x(n, "x");  b.upload(rhs);  // x starts at zero
//   RefinementStatus s = refine(A, b, x, {.tolerance = 1e-11f}, {}, cgInnerSolve(A, {}));
#include <texstream/solvers/krylov/ConjugateGradient.h>
#include <texstream/solvers/IterativeSolver.h>
#include <texstream/solvers/SolverStatus.h>
#include <texstream/stream/EnumNames.h>

#include <chrono>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace texstream::linalg {
class DoubleFloatVector;
class LinearOperator;
}  // namespace texstream::linalg

namespace texstream::stream {
class Layout;
class Vector;
}

namespace texstream::solvers {
inline namespace krylov {

/// How a solver that offers both runs: float throughout, float inside double-float
/// refinement, or float first and mixed where float cannot reach the tolerance
/// (needsMixedPrecision).
enum class Precision { Single, Mixed, Auto };
/// The precisions' names ("single", "mixed", "auto"), for command lines, panels and reports.
std::span<const stream::EnumName<Precision>> precisionNames();

/// Precision::Auto's rule, for every solver and tool that offers it (CurvatureFlow,
/// texstream-solve --precision auto): a float solve that ended without converging for a
/// reason float's precision explains is solved again in mixed precision. Those reasons:
/// stagnated at float precision (the true residual missed the tolerance the recurrence
/// met), the iteration cap (a float residual that stalls above the tolerance), a breakdown
/// (the float-rounded matrix no longer quite SPD). A non-finite value is the input's
/// problem, and a converged solve needs nothing.
bool needsMixedPrecision(const SolverStatus& single);

/// What a refinement adds to the options every solver shares (IterativeOptions): its
/// tolerance is IterativeOptions::tolerance, on ||b - A x|| / ||b||, in (0, 1).
struct RefinementOptions {
  /// The residual reduction each inner solve asks for (in (0, 1)); the last steps ask only
  /// for what remains to the tolerance (half of it, for margin), so they stop early.
  double innerTolerance = 1e-3;
  /// Outer steps (defects and corrections) at most.
  int maxOuterSteps = 30;
  /// A step whose residual is above minimumReduction times the previous one gains too
  /// little; two such steps in a row end the refinement as Stagnated (in (0, 1)).
  double minimumReduction = 0.5;
  /// Called after the initial defect (step 0, no inner iterations) and after each step.
  std::function<void(int step, int innerIterations, double relativeResidual)> onStep;
};

/// Solves A c = r in float to ||r - A c|| <= tolerance ||r||; c holds zeros on entry (the
/// layout of r).
using InnerSolve = std::function<SolverStatus(const stream::Vector& r, stream::Vector& c, double tolerance)>;

struct RefinementStatus : SolverStatus {
  /// Inner iterations of each outer step (iterations is their sum); residualHistory holds
  /// the true relative residual before the first step and after each one.
  std::vector<int> innerIterations;
  int outerSteps() const { return int(innerIterations.size()); }
};

/// How every refinement (refine, cg in mixed precision, refineWithDoubleFloatCg) fills its
/// RefinementStatus: each true residual joins the history (step: its index there) and goes to
/// onStep; finishing stamps the outcome, "where: message" and the wall time, the true
/// residual being the last one recorded (formed in the higher precision).
class RefinementRecorder {
 public:
  RefinementRecorder(std::string where, std::function<void(int step, int innerIterations, double relativeResidual)> onStep);
  /// relative, the true residual after `innerIterations` more iterations, at `iteration`.
  void record(int iteration, int innerIterations, double relative);
  RefinementStatus finish(Outcome outcome, const std::string& message);
  RefinementStatus& status() { return m_status; }

 private:
  std::string m_where;
  std::function<void(int, int, double)> m_onStep;
  std::chrono::steady_clock::time_point m_start;
  RefinementStatus m_status;
};

/// Throws std::invalid_argument("solver: tolerance must be in (0, 1), got ...") and the like
/// for a tolerance or options out of range.
void validateRefinementOptions(const std::string& solver, double tolerance, const RefinementOptions& options);

/// Refines x (the initial guess, often zero) towards A x = b. A square; b, x of A's size
/// (x in any layout, b in the layout of A's products). Of options only the tolerance is
/// read (the inner solve has its own). Throws gl::Error on shapes (naming the vectors),
/// std::invalid_argument on bad options; solver failures are in the status.
RefinementStatus refine(const linalg::LinearOperator& A, const linalg::DoubleFloatVector& b,
                        linalg::DoubleFloatVector& x, const IterativeOptions& options,
                        const RefinementOptions& refinement, const InnerSolve& inner);

/// The higher-precision side of a refinement, wherever the caller keeps x and b: as
/// double-float pairs on the GPU (refine() above), or as doubles on the host with the
/// defect formed on the CPU from a matrix assembled in double, as Göddeke et al. ran their
/// outer loop (CurvatureFlow's mixed precision: there the matrix entries themselves need
/// more than float).
struct DefectCorrection {
  /// ||b||, in the higher precision.
  double rightHandSideNorm = 0;
  /// Forms b - A x in the higher precision, rounds it to float into r (the layout passed
  /// to refine) and returns its norm in the higher precision.
  std::function<double(stream::Vector& r)> defect;
  /// x += c in the higher precision.
  std::function<void(const stream::Vector& c)> addCorrection;
  /// x = 0 (the answer when b = 0).
  std::function<void()> setSolutionZero;
};

/// The defect correction of x and b held as double-float pairs on the GPU: the defect by
/// A.residualInDoubleFloat (A: its float operator, square), ||b|| to float accuracy (||hi||
/// differs from ||hi + lo|| by a float rounding, far below any tolerance). Keep A, b and x
/// alive while it is used.
DefectCorrection pairDefectCorrection(const linalg::LinearOperator& A, const linalg::DoubleFloatVector& b,
                                      linalg::DoubleFloatVector& x);

/// The refinement loop of refine() on any DefectCorrection; r and c are float vectors of
/// `layout`, the inner solve's right-hand side and correction.
RefinementStatus refine(const stream::Layout& layout, const DefectCorrection& target, const IterativeOptions& options,
                        const RefinementOptions& refinement, const InnerSolve& inner);

/// The inner solve by (preconditioned) CG from a zero guess, with `options` but the
/// tolerance each outer step asks for.
InnerSolve cgInnerSolve(const linalg::LinearOperator& A, CgOptions options, const Preconditioner* M = nullptr);
/// The inner solve by any iterative solver of the shared shape (IterativeSolver.h: a
/// ConjugateGradient, a Multigrid, ...), from a zero guess, with `options` but the
/// tolerance each outer step asks for. Keep the solver alive while refining.
InnerSolve iterativeInnerSolve(IterativeSolver& solver, IterativeOptions options);

}  // namespace krylov
}  // namespace texstream::solvers
