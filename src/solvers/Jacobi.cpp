// Weighted Jacobi (Bolz et al. 2003, §4.2 uses it, omega = 2/3, as the multigrid smoother).
#include <texstream/solvers/Jacobi.h>

#include <texstream/solvers/SolveRecorder.h>
#include <texstream/solvers/SolverInputs.h>
#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/LinearOperator.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/solvers/JacobiPreconditioner.h>
#include <texstream/stream/Aliasing.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Reduction.h>
#include <texstream/stream/Runtime.h>
#include <texstream/stream/Scalar.h>
#include <texstream/stream/Vector.h>

#include <glad/gl.h>

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace texstream::solvers {

namespace {

using stream::Pass;
using stream::Scalar;
using stream::Vector;


/// x = x + omega D^-1 (b - ax); `diagonal` is D, or D^-1 when `inverse`.
void sweep(const Vector& b, const Vector& ax, const Vector& diagonal, bool inverse, float omega, Vector& x) {
  Pass pass("solvers/jacobi_sweep");
  pass.label("jacobi sweep").input("u_x", x).input("u_b", b).input("u_ax", ax).input("u_diagonal", diagonal)
      .uniform("u_omega", omega).uniform("u_n", int(x.size())).output(x);
  if (inverse) pass.define("INVERSE_DIAGONAL");
  pass.run();
}

}  // namespace

SolverStatus jacobi(const linalg::LinearOperator& A, const Vector& b, Vector& x, const JacobiOptions& opts) {
  requireIterationOptions("jacobi", opts.tolerance, opts.maxIterations, opts.checkEvery);
  if (!(opts.omega > 0.0f) || !std::isfinite(opts.omega)) {
    throw std::invalid_argument("jacobi: omega must be finite and > 0, got " + formatNumber(opts.omega));
  }
  requireSquareSystem("jacobi", A, b, x);
  SolveRecorder recorder("jacobi(" + quoted(A.name()) + ")", opts.onCheck);
  gl::StateGuard guard;
  stream::BackendScope backendScope(opts.backend);
  stream::Runtime::current().requireBackend(stream::Runtime::current().backend());

  // Checks the diagonal (naming a zero row) and keeps D^-1 in b's layout.
  const JacobiPreconditioner inverse(A, b.layout());
  Vector ax = Vector::temporary(b.layout(), "jacobi.Ax");
  Vector r = Vector::temporary(b.layout(), "jacobi.r");
  Scalar bb = Scalar::temporary("jacobi.bb"), rr = Scalar::temporary("jacobi.rr");

  SolverStatus& result = recorder.status();
  auto finish = [&](Outcome outcome, int iterations, const std::string& message) {
    return recorder.finish(outcome, iterations, message);
  };

  stream::dot(b, b, bb);
  const double bnorm2 = bb.read();
  if (!std::isfinite(bnorm2)) {
    result.relativeResidual = NAN;
    return finish(Outcome::NonFinite, 0,
                  "||b||^2 = " + formatNumber(bnorm2) + ": b " + quoted(b.name()) + " holds NaN or Inf (or overflows)");
  }
  if (bnorm2 == 0.0) {
    x.setZero();
    recorder.record(0, 0.0);
    return finish(Outcome::Converged, 0, "b " + quoted(b.name()) + " is zero, so x = 0");
  }

  // Sweep k turns x_k into x_{k+1} using A x_k; a check at k uses that same A x_k for the
  // true residual b - A x_k, so it costs a combination pass and a reduction, not an apply.
  for (int k = 0;; ++k) {
    A.apply(x, ax);
    if (k % opts.checkEvery == 0 || k == opts.maxIterations) {
      linalg::linearCombination(1.0f, b, -1.0f, ax, r);
      stream::dot(r, r, rr);
      const double relres = std::sqrt(double(rr.read()) / bnorm2);
      if (!std::isfinite(relres)) {
        result.relativeResidual = relres;
        return finish(Outcome::NonFinite, k,
                      "||b - A x||^2 is not finite at iteration " + std::to_string(k) +
                          " (divergence: A not diagonally dominant or omega too large?)");
      }
      recorder.record(k, relres);
      if (relres <= opts.tolerance) {
        return finish(Outcome::Converged, k,
                      "converged: ||b - A x||/||b|| = " + formatNumber(relres) + " <= " +
                          formatNumber(opts.tolerance) + " at iteration " + std::to_string(k));
      }
      if (k == opts.maxIterations) {
        return finish(Outcome::MaxIterations, k,
                      "not converged after " + std::to_string(k) + " iterations: ||b - A x||/||b|| = " +
                          formatNumber(relres) + " > " + formatNumber(opts.tolerance));
      }
    }
    sweep(b, ax, inverse.inverseDiagonal(), true, opts.omega, x);
  }
}

void jacobiSmooth(const linalg::LinearOperator& A, const Vector& diag, const Vector& b, Vector& x, int sweeps,
                  float omega) {
  requireSquareSystem("jacobiSmooth", A, b, x);
  stream::requireSameLayout("jacobiSmooth: diagonal", b, diag);
  stream::requireDistinct("jacobiSmooth(" + quoted(A.name()) + ")", {"x", x}, {"diag", diag},
                          "the sweeps update x while they still read the diagonal");
  if (sweeps < 0) throw std::invalid_argument("jacobiSmooth: sweeps must be >= 0, got " + std::to_string(sweeps));
  if (sweeps == 0) return;
  gl::StateGuard guard;
  Vector ax = Vector::temporary(b.layout(), "jacobiSmooth.Ax");
  for (int s = 0; s < sweeps; ++s) {
    A.apply(x, ax);
    sweep(b, ax, diag, false, omega, x);
  }
}

}  // namespace texstream::solvers
