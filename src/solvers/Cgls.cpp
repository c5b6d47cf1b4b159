// CGLS (Björck 1996, §7.4.1, Algorithm 7.4.1 with a preconditioner of A^T A), scalars on
// the GPU: the 1x1 passes of cg() compute alpha and beta and keep the sticky status
// (shaders/solvers/cg_alpha.glsl, cg_beta.glsl, cg_status.glsl).
#include <texstream/solvers/Cgls.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/LinearOperator.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/solvers/SolveRecorder.h>
#include <texstream/solvers/SolverInputs.h>
#include <texstream/stream/Aliasing.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Reduction.h>
#include <texstream/stream/Runtime.h>
#include <texstream/stream/Scalar.h>
#include <texstream/stream/Vector.h>

#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <utility>

namespace texstream::solvers {

namespace {

using stream::Coefficient;
using stream::Pass;
using stream::Scalar;
using stream::Vector;

// Mirrors shaders/solvers/cg_status.glsl.
enum StatusCode { kRunning = 0, kPqNotPositive = 1, kNonFinite = 2, kRhoZero = 3, kRhoNegative = 4, kConverged = 5 };

IterationLimits validate(const linalg::LinearOperator& A, const linalg::LinearOperator& At, const Vector& b,
                         const Vector& x, const CglsOptions& opts) {
  const IterationLimits limits = resolveLimits("cgls", opts, kCglsDefaults);
  const std::string where = "cgls(" + quoted(A.name()) + ", " + quoted(At.name()) + ")";
  if (At.rows() != A.cols() || At.cols() != A.rows()) {
    throw gl::Error(where + ": A is " + std::to_string(A.rows()) + "x" + std::to_string(A.cols()) + " but A^T is " +
                    std::to_string(At.rows()) + "x" + std::to_string(At.cols()));
  }
  if (b.empty() || x.empty()) throw gl::Error(where + ": b or x is an empty vector");
  if (b.size() != A.rows()) {
    throw gl::Error(where + ": b " + quoted(b.name()) + " has n=" + std::to_string(b.size()) + ", A has " +
                    std::to_string(A.rows()) + " rows");
  }
  if (x.size() != A.cols()) {
    throw gl::Error(where + ": x " + quoted(x.name()) + " has n=" + std::to_string(x.size()) + ", A has " +
                    std::to_string(A.cols()) + " columns");
  }
  stream::requireDistinct(where, {"x", x}, {"b", b},
                          "the solver updates x while it still reads b; solve into a separate vector");
  return limits;
}

}  // namespace

SolverStatus cgls(const linalg::LinearOperator& A, const linalg::LinearOperator& At, const Vector& b, Vector& x,
                  const CglsOptions& opts, const Preconditioner* M) {
  const IterationLimits limits = validate(A, At, b, x, opts);
  const std::string where = "cgls(" + quoted(A.name()) + ")";
  SolveRecorder recorder(where, opts.onCheck);
  gl::StateGuard guard;
  stream::BackendScope backendScope(opts.backend);
  stream::Runtime::current().requireBackend(stream::Runtime::current().backend());
  const bool preconditioned = M != nullptr && !M->isIdentity();

  Vector r = Vector::temporary(b.layout(), "cgls.r");
  Vector q = Vector::temporary(b.layout(), "cgls.q");
  Vector s = Vector::temporary(x.layout(), "cgls.s");
  Vector p = Vector::temporary(x.layout(), "cgls.p");
  Vector z;
  if (preconditioned) z = Vector::temporary(x.layout(), "cgls.z");
  Vector& zs = preconditioned ? z : s;
  Scalar gamma = Scalar::temporary("cgls.gamma"), gammaNew = Scalar::temporary("cgls.gammaNew");
  Scalar qq = Scalar::temporary("cgls.qq"), alpha = Scalar::temporary("cgls.alpha"), beta = Scalar::temporary("cgls.beta");
  Scalar ss = Scalar::temporary("cgls.ss"), status = Scalar::temporary("cgls.status"), check = Scalar::temporary("cgls.check");
  SolverStatus& result = recorder.status();

  // ||A^T b||^2 and the first normal residual s = A^T (b - A x), one read-back for both.
  At.apply(b, s);
  stream::dot(s, s, qq);
  A.apply(x, q);
  linalg::linearCombination(1.0f, b, -1.0f, q, r);
  At.apply(r, s);
  stream::dot(s, s, ss);
  Pass("solvers/cg_initial").label("cgls initial").input("u_bb", qq).input("u_rr", ss).output(check).run();
  const std::array<float, 4> initial = check.read4();
  const double atb2 = initial[0], ss0 = initial[1];
  if (!std::isfinite(atb2)) {
    result.relativeResidual = NAN;
    return recorder.finish(Outcome::NonFinite, 0, "||A^T b||^2 = " + formatNumber(atb2) + ": b " + quoted(b.name()) +
                                                      " or the matrix holds NaN or Inf (or overflows)");
  }
  if (atb2 == 0.0) {
    x.setZero();
    recorder.record(0, 0.0);
    return recorder.finish(Outcome::Converged, 0, "A^T b is zero, so x = 0");
  }
  if (!std::isfinite(ss0)) {
    result.relativeResidual = NAN;
    return recorder.finish(Outcome::NonFinite, 0,
                           "the initial residual A^T (b - A x) is not finite: NaN or Inf in x " + quoted(x.name()));
  }
  const double tol = limits.tolerance;
  recorder.record(0, std::sqrt(ss0 / atb2));
  if (result.relativeResidual <= tol)
    return recorder.finish(Outcome::Converged, 0, "the initial guess already meets the tolerance (||A^T r||/||A^T b|| = " +
                                                      formatNumber(result.relativeResidual) + ")");
  if (limits.maxIterations == 0) return recorder.finish(Outcome::MaxIterations, 0, "maxIterations = 0");

  // p = z = M^-1 s, gamma = s.z; from the set-up or, once, from the true residual after a
  // drifted convergence.
  auto startDirections = [&]() {
    if (preconditioned) M->apply(s, z);
    stream::dot(s, zs, gamma);
    linalg::copy(zs, p);
    status.write4({0.0f, 0.0f, 0.0f, 0.0f});
  };
  startDirections();
  int restartsLeft = 1;
  // The true normal residual ||A^T (b - A x)|| / ||A^T b|| (r and s become the true ones).
  auto trueResidual = [&]() -> double {
    A.apply(x, q);
    linalg::linearCombination(1.0f, b, -1.0f, q, r);
    At.apply(r, s);
    stream::dot(s, s, ss);
    return std::sqrt(double(ss.read4()[0]) / atb2);
  };

  for (int k = 1; k <= limits.maxIterations; ++k) {
    A.apply(p, q);
    stream::dot(q, q, qq);
    Pass("solvers/cg_alpha").label("cgls alpha").input("u_rho", gamma).input("u_pq", qq).input("u_status", status)
        .uniform("u_iteration", k).output(alpha).output(status).run();
    linalg::axpy(Coefficient(alpha), p, x);
    linalg::axpy(-alpha, q, r);
    At.apply(r, s);
    if (preconditioned) M->apply(s, z);
    stream::dot(s, zs, gammaNew);
    if (preconditioned) stream::dot(s, s, ss);
    Pass("solvers/cgls_converged").label("cgls converged").input("u_ss", preconditioned ? ss : gammaNew)
        .input("u_status", status).uniform("u_threshold", float(tol * tol * atb2)).uniform("u_iteration", k)
        .output(status).run();
    if (k < limits.maxIterations) {
      Pass("solvers/cg_beta").label("cgls beta").input("u_rhoNew", gammaNew).input("u_rho", gamma).output(beta).run();
      linalg::xpay(zs, Coefficient(beta), p);
    }
    std::swap(gamma, gammaNew);

    if (!limits.due(k)) continue;
    Pass("solvers/cg_check").label("cgls check").input("u_rr", preconditioned ? ss : gamma).input("u_status", status)
        .output(check).run();
    const std::array<float, 4> v = check.read4();
    const int code = int(std::lround(v[1]));
    const int when = int(std::lround(v[2]));
    const double relres = std::sqrt(double(v[0]) / atb2);
    const bool reportsConvergence = code == kConverged || (relres <= tol && code == kRunning);
    if (code == kRunning && !reportsConvergence && std::isfinite(relres)) {
      recorder.record(k, relres);
      continue;
    }
    // A verdict. A failure after the last step that mattered (s underflowing once x solves
    // the problem: 0/0 in alpha) leaves x unchanged since (alpha = 0), so x itself decides.
    const double trueRelres = trueResidual();
    if (trueRelres <= tol || (reportsConvergence && trueRelres <= 2.0 * tol)) {
      recorder.record(k, trueRelres);
      const int at = code == kRunning ? k : code == kConverged ? when : std::max(when - 1, 1);
      return recorder.finish(Outcome::Converged, at,
                             "converged: ||A^T r||/||A^T b|| = " + formatNumber(trueRelres) + " <= " +
                                 formatNumber(trueRelres <= tol ? tol : 2.0 * tol) + " at iteration " +
                                 std::to_string(at) + (result.restarts > 0 ? " (after a restart from b - A x)" : ""));
    }
    if (reportsConvergence && std::isfinite(trueRelres) && k < limits.maxIterations && restartsLeft > 0) {
      // The recurrence drifted from the true residual: restart from it once (as cg() does).
      --restartsLeft;
      ++result.restarts;
      recorder.record(k, trueRelres);
      startDirections();
      continue;
    }
    if (code == kNonFinite || !std::isfinite(relres) || !std::isfinite(trueRelres)) {
      result.relativeResidual = NAN;
      const int at = code == kNonFinite ? when : k;
      return recorder.finish(Outcome::NonFinite, at,
                             "a non-finite value appeared by iteration " + std::to_string(at) +
                                 " (overflow, or NaN/Inf in the matrix)");
    }
    recorder.record(k, trueRelres);
    if (code == kPqNotPositive)
      return recorder.finish(Outcome::Breakdown, when,
                             "breakdown at iteration " + std::to_string(when) + ": ||A p||^2 = " + formatNumber(v[3]) +
                                 " while ||A^T r||/||A^T b|| = " + formatNumber(trueRelres) +
                                 ": A is rank deficient (an unknown no row determines, or a null space)");
    if (code == kRhoNegative || code == kRhoZero)
      return recorder.finish(Outcome::Breakdown, when,
                             "breakdown at iteration " + std::to_string(when) + ": s^T M^-1 s = " + formatNumber(v[3]) +
                                 " while ||A^T r||/||A^T b|| = " + formatNumber(trueRelres) + ": the preconditioner " +
                                 quoted(M ? M->name() : "") + " is not positive definite");
    if (reportsConvergence)  // drifted again after the restart, or at the cap
      return recorder.finish(Outcome::MaxIterations, k,
                             "the recurrence reports convergence but ||A^T (b - A x)||/||A^T b|| = " +
                                 formatNumber(trueRelres) + " > 2 x " + formatNumber(tol) +
                                 " (float accuracy limit: ask for a looser tolerance)");
  }
  return recorder.finish(Outcome::MaxIterations, limits.maxIterations,
                         "not converged after " + std::to_string(limits.maxIterations) +
                             " iterations: ||A^T r||/||A^T b|| = " + formatNumber(result.relativeResidual) + " > " +
                             formatNumber(tol));
}

}  // namespace texstream::solvers
