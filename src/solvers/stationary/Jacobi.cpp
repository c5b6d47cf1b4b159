// Weighted Jacobi (Bolz et al. 2003, §4.2 uses it, omega = 2/3, as the multigrid smoother).
#include <texstream/solvers/stationary/Jacobi.h>

#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/LinearOperator.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/solvers/SolveRecorder.h>
#include <texstream/solvers/SolverInputs.h>
#include <texstream/solvers/StationaryLoop.h>
#include <texstream/stream/Aliasing.h>
#include <texstream/stream/Layout.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Reduction.h>
#include <texstream/stream/Runtime.h>
#include <texstream/stream/Scalar.h>
#include <texstream/stream/Vector.h>

#include <cmath>
#include <stdexcept>

namespace texstream::solvers {
inline namespace stationary {

namespace {

using stream::Pass;
using stream::Scalar;
using stream::Vector;

float requireOmega(float omega) {
  if (!(omega > 0.0f) || !std::isfinite(omega)) {
    throw std::invalid_argument("jacobi: omega must be finite and > 0, got " + formatNumber(omega));
  }
  return omega;
}

/// x = x + omega D^-1 (b - ax); `diagonal` is D, or D^-1 when `inverse`.
void sweep(const Vector& b, const Vector& ax, const Vector& diagonal, bool inverse, float omega, Vector& x) {
  Pass pass("solvers/jacobi_sweep");
  pass.label("jacobi sweep").input("u_x", x).input("u_b", b).input("u_ax", ax).input("u_diagonal", diagonal)
      .uniform("u_omega", omega).uniform("u_n", int(x.size())).output(x);
  if (inverse) pass.define("INVERSE_DIAGONAL");
  pass.run();
}

}  // namespace

WeightedJacobi::WeightedJacobi(const linalg::LinearOperator& A, float omega)
    : WeightedJacobi(A, stream::Layout::forSize(A.rows()), omega) {}

WeightedJacobi::WeightedJacobi(const linalg::LinearOperator& A, const stream::Layout& layout, float omega)
    : m_A(&A), m_inverse(JacobiPreconditioner(A, layout)), m_omega(requireOmega(omega)) {}

SolverStatus WeightedJacobi::run(const Vector& b, Vector& x, const IterativeOptions& options) {
  const linalg::LinearOperator& A = *m_A;
  const IterationLimits limits = resolveLimits("jacobi", options, kJacobiDefaults);
  requireSquareSystem("jacobi", A, b, x);
  const Vector& inverseDiagonal = *m_inverse.inverseDiagonal();
  stream::requireSameLayout(("jacobi(" + quoted(A.name()) + "): the inverse diagonal").c_str(), b, inverseDiagonal);
  SolveRecorder recorder("jacobi(" + quoted(A.name()) + ")", options.onCheck, limits.checks());
  gl::StateGuard guard;
  stream::BackendScope backendScope(options.backend);
  stream::Runtime::current().requireBackend(stream::Runtime::current().backend());

  Vector ax = Vector::temporary(b.layout(), "jacobi.Ax");
  Vector r = Vector::temporary(b.layout(), "jacobi.r");
  Scalar rr = Scalar::temporary("jacobi.rr");
  double bnorm2 = 0;
  if (limits.checks()) {
    Scalar bb = Scalar::temporary("jacobi.bb");
    stream::dot(b, b, bb);
    bnorm2 = bb.read();
    if (std::optional<Verdict> v = rightHandSideVerdict(std::sqrt(bnorm2), "b", b.name(), recorder)) {
      if (v->outcome == Outcome::Converged) x.setZero();
      return recorder.finish(*v);
    }
  }

  // Sweep k turns x_k into x_{k+1} using A x_k; a check at k uses that same A x_k for the
  // true residual b - A x_k, so it costs a combination pass and a reduction, not an apply.
  bool axCurrent = false;
  StationaryLoop loop;
  loop.residual = "||b - A x||/||b||";
  loop.nonFiniteCause = "divergence: A not diagonally dominant or omega too large?";
  loop.relativeResidual = [&] {
    A.apply(x, ax);
    axCurrent = true;
    linalg::linearCombination(1.0f, b, -1.0f, ax, r);
    stream::dot(r, r, rr);
    return std::sqrt(double(rr.read()) / bnorm2);
  };
  loop.step = [&](int) {
    if (!axCurrent) A.apply(x, ax);
    axCurrent = false;
    sweep(b, ax, inverseDiagonal, true, m_omega, x);
  };
  return recorder.finish(runStationary(loop, limits, recorder));
}

SolverStatus jacobi(const linalg::LinearOperator& A, const Vector& b, Vector& x, const IterativeOptions& options,
                    float omega) {
  // The cheap checks before the diagonal is read back.
  resolveLimits("jacobi", options, kJacobiDefaults);
  requireOmega(omega);
  requireSquareSystem("jacobi", A, b, x);
  return WeightedJacobi(A, b.layout(), omega).solve(b, x, options);
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

}  // namespace stationary
}  // namespace texstream::solvers
