#pragma once
// Conjugate gradients and preconditioned CG on the GPU (Bolz et al. 2003, §3.1; Krüger &
// Westermann 2005, §44.4, Listing 44-1), with every scalar kept on the GPU.
//
// Fragment backend, one iteration as Listing 44-1: q = A p; pq = p.q (mip reduction to a
// 1x1 Scalar); alpha = rho / pq (1x1 pass, which also records breakdown in a sticky status
// Scalar); x += alpha p, r -= alpha q (one pass, two outputs; with a JacobiPreconditioner
// also z = r / diag(A), three outputs); z = M^-1 r (other preconditioners); rho' = r.z;
// beta = rho' / rho (1x1 pass); p = z + beta p.
// Compute backend: Chronopoulos & Gear's CG (1989), the same iterates in exact arithmetic
// with one synchronisation point an iteration: p = u + beta p, s = w + beta s, x += alpha p,
// r -= alpha s (u = z = M^-1 r too for Jacobi) in one dispatch that also sums r.u and r.r;
// then w = A u with w.u and, in the last workgroup, the next alpha and beta
// (LinearOperator::applyAndDot: one product with the dot folded in for a SegmentMatrix in
// internal order or a BcrsMatrix, a product and a reduction otherwise). Two or three passes an iteration;
// standard CG needs four there. Its updated residual drifts more in float. On both
// backends a convergence the updated residual reports is checked once against b - A x
// and, beyond 2x the tolerance, the iteration restarts (once) from the true residual; the
// message gives both residuals.
// The CPU only enqueues passes. Every `checkEvery` iterations it reads
// ||r||^2 together with the status texel, blocking, or, with asynchronousCheck, through a
// PBO + fence (stream::ScalarReadback) whose value is used when it lands (at most one
// check interval later: then the CPU waits for it), so the GPU never idles waiting for the
// CPU and the solve overshoots convergence by at most 2 checkEvery - 1 iterations.
//
//   CgOptions opts{.tolerance = 1e-6f, .maxIterations = 500};
//   SolverStatus s = cg(A, b, x, opts);                 // plain CG, x is the initial guess
//   JacobiPreconditioner M(A, b.layout());
//   s = cg(A, b, x, opts, &M);                          // PCG
#include <texstream/solvers/Preconditioner.h>
#include <texstream/solvers/SolverStatus.h>
#include <texstream/stream/Backend.h>

#include <functional>
#include <optional>

namespace texstream::linalg {
class LinearOperator;
}

namespace texstream::stream {
class Vector;
}

namespace texstream::solvers {

struct CgOptions {
  /// Stop when ||r|| / ||b|| <= tolerance (r the recurrence residual).
  float tolerance = 1e-6f;
  int maxIterations = 1000;
  /// Iterations between residual checks (each check is a 1x1 pass and one read-back).
  /// 8 keeps a blocking check's cost under about a tenth of an iteration's and the
  /// overshoot past convergence under 8 iterations (docs/performance.md); asynchronous
  /// checks cost little at any interval.
  int checkEvery = 8;
  /// Read the residual without stalling: the solve goes on while the read-back is in
  /// flight and stops when a landed value says converged (x is then a few iterations
  /// further along than the recorded residual, so at least as good).
  bool asynchronousCheck = false;
  /// Run on this backend instead of the thread's current one.
  std::optional<stream::Backend> backend;
  /// Called at each check (iteration 0 included) with the relative residual.
  std::function<void(int iteration, double relativeResidual)> onCheck;
};

/// Solves A x = b for symmetric positive definite A (and M); x holds the initial guess
/// and receives the solution. b and x have A.rows() == A.cols() elements in one layout.
/// M: nullptr or an IdentityPreconditioner for plain CG. Throws gl::Error on size or
/// layout mismatches and when x is b (the iteration reads b after updating x),
/// std::invalid_argument on bad options; solver failures (breakdown,
/// NaN/Inf, the iteration cap) are reported in the returned status, never thrown.
/// b = 0 gives x = 0, converged at iteration 0.
SolverStatus cg(const linalg::LinearOperator& A, const stream::Vector& b, stream::Vector& x,
                const CgOptions& opts = {}, const Preconditioner* M = nullptr);

}  // namespace texstream::solvers
