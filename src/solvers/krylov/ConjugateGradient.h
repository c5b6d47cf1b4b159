#pragma once
// Conjugate gradients and preconditioned CG on the GPU with every scalar kept on the GPU
// (Bolz et al. 2003, §3.1; Krüger & Westermann 2005, §44.3-44.4, Listing 44-1).
//
// The algorithm follows the backend: the fragment backend runs the classic loop of the
// papers (ClassicCg.cpp), the compute backend Chronopoulos & Gear's CG (1989;
// ChronopoulosGearCg.cpp), the same iterates in exact arithmetic with one synchronisation
// point an iteration, whose updated residual drifts further from b - A x in float. A
// preconditioner with an inverse diagonal (JacobiPreconditioner) is fused into the update
// pass of either; others take their own pass.
// Around both (CgDriver.h): every checkEvery iterations the CPU reads ||r||^2 together with
// a status texel (breakdown, NaN) written by the 1x1 passes, blocking, or with
// asynchronousCheck through a PBO and a fence whose value is used when it lands (at most
// one check interval later: then the CPU waits for it), so the GPU never idles waiting for
// the CPU and the solve overshoots convergence by at most 2 checkEvery - 1 iterations.
// A convergence the updated residual reports is checked against b - A x (one more
// product, in double-float arithmetic where the operator has the kernel:
// LinearOperator::residualInDoubleFloat; IterativeOptions::checkTrueResidual) and, where
// that misses the tolerance, the
// iteration restarts (once) from the true residual (unless IterativeOptions::restartOnDrift
// is false). The verdict is the true residual's: Converged where it meets the tolerance,
// else Stagnated at float precision, the message giving both residuals and the remedy
// (mixed precision); status.trueRelativeResidual holds it.
//
//   SolverStatus s = cg(A, b, x, {.tolerance = 1e-6f, .maxIterations = 500});  // x: the initial guess
//   JacobiPreconditioner M(A, b.layout());
//   s = cg(A, b, x, {.tolerance = 1e-6f}, &M);                                 // PCG
//   ConjugateGradient solver(A, &M);                                           // the same, as an object
//   s = solver.solve(b, x, {.tolerance = 1e-6f});
#include <texstream/solvers/IterativeSolver.h>  // IterativeOptions, SolverStatus, stream::Vector
#include <texstream/solvers/Preconditioner.h>

namespace texstream::linalg {
class LinearOperator;
}

namespace texstream::solvers {
inline namespace krylov {

/// The unset fields of cg's options: 1000 iterations, a check every 8 (a blocking check
/// then costs under about a tenth of an iteration and the overshoot past convergence stays
/// under 8 iterations; docs/performance.md).
inline constexpr IterationDefaults kCgDefaults{1000, 8};
/// cg's options: tolerance on the recurrence residual ||r|| / ||b||.
using CgOptions = IterativeOptions;

/// Solves A x = b for symmetric positive definite A (and M); x holds the initial guess
/// and receives the solution. b and x have A.rows() == A.cols() elements in one layout.
/// M: nullptr or an IdentityPreconditioner for plain CG. Throws gl::Error on size or
/// layout mismatches and when x is b (the iteration reads b after updating x),
/// std::invalid_argument on bad options; solver failures (breakdown,
/// NaN/Inf, the iteration cap) are reported in the returned status, never thrown.
/// b = 0 gives x = 0, converged at iteration 0. Fixed mode (IterativeOptions) still reads
/// ||b|| and the initial residual once.
SolverStatus cg(const linalg::LinearOperator& A, const stream::Vector& b, stream::Vector& x,
                const IterativeOptions& options = {}, const Preconditioner* M = nullptr);

/// cg() as an IterativeSolver: A and M (may be null) must outlive it.
class ConjugateGradient : public IterativeSolver {
 public:
  explicit ConjugateGradient(const linalg::LinearOperator& A, const Preconditioner* M = nullptr) : m_A(&A), m_M(M) {}

 protected:
  SolverStatus run(const stream::Vector& b, stream::Vector& x, const IterativeOptions& options) override {
    return cg(*m_A, b, x, options, m_M);
  }

 private:
  const linalg::LinearOperator* m_A;
  const Preconditioner* m_M;
};

}  // namespace krylov
}  // namespace texstream::solvers
