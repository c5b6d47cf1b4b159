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
//   RefinementStatus s = refine(A, b, x, {.tolerance = 1e-11}, cgInnerSolve(A, {}));
#include <texstream/solvers/ConjugateGradient.h>
#include <texstream/solvers/IterativeSolver.h>
#include <texstream/solvers/SolverStatus.h>
#include <texstream/stream/EnumNames.h>

#include <functional>
#include <span>
#include <vector>

namespace texstream::linalg {
class DoubleFloatVector;
class LinearOperator;
}  // namespace texstream::linalg

namespace texstream::stream {
class Vector;
}

namespace texstream::solvers {

/// How a solver that offers both runs: float throughout, or float inside double-float
/// refinement.
enum class Precision { Single, Mixed };
/// The precisions' names ("single", "mixed"), for command lines, panels and reports.
std::span<const stream::EnumName<Precision>> precisionNames();

struct RefinementOptions {
  /// Stop when ||b - A x|| / ||b|| <= tolerance (in (0, 1)).
  double tolerance = 1e-10;
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

/// Refines x (the initial guess, often zero) towards A x = b. A square; b, x of A's size
/// (x in any layout, b in the layout of A's products). Throws gl::Error on shapes (naming
/// the vectors), std::invalid_argument on bad options; solver failures are in the status.
RefinementStatus refine(const linalg::LinearOperator& A, const linalg::DoubleFloatVector& b,
                        linalg::DoubleFloatVector& x, const RefinementOptions& options, const InnerSolve& inner);

/// The inner solve by (preconditioned) CG from a zero guess, with `options` but the
/// tolerance each outer step asks for.
InnerSolve cgInnerSolve(const linalg::LinearOperator& A, CgOptions options, const Preconditioner* M = nullptr);
/// The inner solve by any iterative solver of the shared shape (IterativeSolver.h: a
/// ConjugateGradient, a Multigrid, ...), from a zero guess, with `options` but the
/// tolerance each outer step asks for. Keep the solver alive while refining.
InnerSolve iterativeInnerSolve(IterativeSolver& solver, IterativeOptions options);

}  // namespace texstream::solvers
