// CGLS (Björck 1996, §7.4.1, Algorithm 7.4.1 with a preconditioner of A^T A), scalars on
// the GPU: the 1x1 passes of cg() compute alpha and beta and keep the sticky status
// (shaders/solvers/cg_alpha.glsl, cg_beta.glsl, cg_status.glsl).
#include <texstream/solvers/krylov/Cgls.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/LinearOperator.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/solvers/krylov/CgDriver.h>
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
inline namespace krylov {

namespace {

using stream::Coefficient;
using stream::Pass;
using stream::Scalar;
using stream::Vector;

// Mirrors shaders/solvers/cg_status.glsl (CgStatusCode, with cgls_converged.glsl's code).
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

// CGLS's iteration and its residual policy: the recurrence's normal residual s = A^T r
// decides, each convergence or failure confirmed by the true A^T (b - A x), a drift beyond
// twice the tolerance restarting once from it (as cg() does).
class CglsIteration final : public CgIteration, public ResidualPolicy {
 public:
  /// M: nullptr without a preconditioner; `preconditioner` names it for the messages.
  CglsIteration(const linalg::LinearOperator& A, const linalg::LinearOperator& At, const Vector& b, Vector& x,
                const Preconditioner* M, std::string preconditioner, double tolerance, SolveRecorder& recorder)
      : m_A(A), m_At(At), m_b(b), m_x(x), m_M(M), m_preconditioner(std::move(preconditioner)), m_tol(tolerance),
        m_recorder(recorder) {
    if (M) m_z = Vector::temporary(x.layout(), "cgls.z");
  }
  /// ||A^T b||^2, which the relative residuals divide by.
  void setAtb2(double atb2) { m_atb2 = atb2; }

  /// r = b - A x, s = A^T r and ||s||^2 into ss (not read).
  void normalResidual() {
    m_A.apply(m_x, m_q);
    linalg::linearCombination(1.0f, m_b, -1.0f, m_q, m_r);
    m_At.apply(m_r, m_s);
    stream::dot(m_s, m_s, m_ss);
  }
  Scalar& ss() { return m_ss; }
  Scalar& qq() { return m_qq; }
  Vector& s() { return m_s; }

  // p = z = M^-1 s, gamma = s.z: from the set-up or from the true residual after a drift.
  void start(int) override {
    if (m_M) m_M->apply(m_s, m_z);
    stream::dot(m_s, zs(), m_gamma);
    linalg::copy(zs(), m_p);
    m_status.write4({0.0f, 0.0f, 0.0f, 0.0f});
  }

  void iterate(int k, bool last) override {
    m_A.apply(m_p, m_q);            // q = A p
    stream::dot(m_q, m_q, m_qq);    // alpha = gamma / q.q
    Pass("solvers/cg_alpha").label("cgls alpha").input("u_rho", m_gamma).input("u_pq", m_qq).input("u_status", m_status)
        .uniform("u_iteration", k).output(m_alpha).output(m_status).run();
    linalg::axpy(Coefficient(m_alpha), m_p, m_x);  // x += alpha p
    linalg::axpy(-m_alpha, m_q, m_r);              // r -= alpha q
    m_At.apply(m_r, m_s);                          // s = A^T r
    if (m_M) m_M->apply(m_s, m_z);                 // z = M^-1 s
    stream::dot(m_s, zs(), m_gammaNew);            // gamma' = s.z
    if (m_M) stream::dot(m_s, m_s, m_ss);
    // The GPU freezes x at the first iterate meeting the tolerance (Cgls.h).
    Pass("solvers/cgls_converged").label("cgls converged").input("u_ss", m_M ? m_ss : m_gammaNew)
        .input("u_status", m_status).uniform("u_threshold", float(m_tol * m_tol * m_atb2)).uniform("u_iteration", k)
        .output(m_status).run();
    if (!last) {  // beta = gamma' / gamma; p = z + beta p
      Pass("solvers/cg_beta").label("cgls beta").input("u_rhoNew", m_gammaNew).input("u_rho", m_gamma).output(m_beta).run();
      linalg::xpay(zs(), Coefficient(m_beta), m_p);
    }
    std::swap(m_gamma, m_gammaNew);
  }

  void replaceResidual(int) override {}  // check() restarts instead
  const Scalar& residualSquared() override { return m_M ? m_ss : m_gamma; }

  std::optional<std::array<float, 4>> readCheck() override {
    Pass("solvers/cg_check").label("cgls check").input("u_rr", residualSquared()).input("u_status", m_status)
        .output(m_check).run();
    return m_check.read4();
  }

  std::optional<Verdict> check(CgIteration& it, int k, bool last, const std::array<float, 4>& texel) override;
  Verdict atCap(int cap) override {
    return {Outcome::MaxIterations, cap,
            "not converged after " + std::to_string(cap) + " iterations: ||A^T r||/||A^T b|| = " +
                formatNumber(m_recorder.status().relativeResidual) + " > " + formatNumber(m_tol)};
  }

 private:
  Vector& zs() { return m_M ? m_z : m_s; }

  const linalg::LinearOperator& m_A;
  const linalg::LinearOperator& m_At;
  const Vector& m_b;
  Vector& m_x;
  const Preconditioner* m_M;
  std::string m_preconditioner;
  double m_atb2 = 1, m_tol;
  SolveRecorder& m_recorder;
  Vector m_r = Vector::temporary(m_b.layout(), "cgls.r"), m_q = Vector::temporary(m_b.layout(), "cgls.q");
  Vector m_s = Vector::temporary(m_x.layout(), "cgls.s"), m_p = Vector::temporary(m_x.layout(), "cgls.p"), m_z;
  Scalar m_gamma = Scalar::temporary("cgls.gamma"), m_gammaNew = Scalar::temporary("cgls.gammaNew");
  Scalar m_qq = Scalar::temporary("cgls.qq"), m_alpha = Scalar::temporary("cgls.alpha"),
         m_beta = Scalar::temporary("cgls.beta");
  Scalar m_ss = Scalar::temporary("cgls.ss"), m_status = Scalar::temporary("cgls.status"),
         m_check = Scalar::temporary("cgls.check");
  int m_restartsLeft = 1;
};

std::optional<Verdict> CglsIteration::check(CgIteration& it, int k, bool last, const std::array<float, 4>& v) {
  SolverStatus& result = m_recorder.status();
  const double tol = m_tol;
  const int code = int(std::lround(v[1]));
  const int when = int(std::lround(v[2]));
  const double relres = std::sqrt(double(v[0]) / m_atb2);
  const bool reportsConvergence = code == kConverged || (relres <= tol && code == kRunning);
  if (code == kRunning && !reportsConvergence && std::isfinite(relres)) {
    m_recorder.record(k, relres);
    return std::nullopt;
  }
  // A verdict. A failure after the last step that mattered (s underflowing once x solves
  // the problem: 0/0 in alpha) leaves x unchanged since (alpha = 0), so x itself decides.
  normalResidual();
  const double trueRelres = std::sqrt(double(m_ss.read4()[0]) / m_atb2);
  if (trueRelres <= tol || (reportsConvergence && trueRelres <= 2.0 * tol)) {
    m_recorder.record(k, trueRelres);
    const int at = code == kRunning ? k : code == kConverged ? when : std::max(when - 1, 1);
    return Verdict{Outcome::Converged, at,
                   "converged: ||A^T r||/||A^T b|| = " + formatNumber(trueRelres) + " <= " +
                       formatNumber(trueRelres <= tol ? tol : 2.0 * tol) + " at iteration " + std::to_string(at) +
                       (result.restarts > 0 ? " (after a restart from b - A x)" : "")};
  }
  if (reportsConvergence && std::isfinite(trueRelres) && !last && m_restartsLeft > 0) {
    // The recurrence drifted from the true residual: restart from it once (as cg() does).
    --m_restartsLeft;
    ++result.restarts;
    m_recorder.record(k, trueRelres);
    it.start(k + 1);
    return std::nullopt;
  }
  if (code == kNonFinite || !std::isfinite(relres) || !std::isfinite(trueRelres)) {
    result.relativeResidual = NAN;
    const int at = code == kNonFinite ? when : k;
    return Verdict{Outcome::NonFinite, at,
                   "a non-finite value appeared by iteration " + std::to_string(at) + " (overflow, or NaN/Inf in the matrix)"};
  }
  m_recorder.record(k, trueRelres);
  if (code == kPqNotPositive) {
    return Verdict{Outcome::Breakdown, when,
                   "breakdown at iteration " + std::to_string(when) + ": ||A p||^2 = " + formatNumber(v[3]) +
                       " while ||A^T r||/||A^T b|| = " + formatNumber(trueRelres) +
                       ": A is rank deficient (an unknown no row determines, or a null space)"};
  }
  if (code == kRhoNegative || code == kRhoZero) {
    return Verdict{Outcome::Breakdown, when,
                   "breakdown at iteration " + std::to_string(when) + ": s^T M^-1 s = " + formatNumber(v[3]) +
                       " while ||A^T r||/||A^T b|| = " + formatNumber(trueRelres) + ": the preconditioner " +
                       m_preconditioner + " is not positive definite"};
  }
  if (reportsConvergence) {  // drifted again after the restart, or at the cap
    return Verdict{Outcome::MaxIterations, k,
                   "the recurrence reports convergence but ||A^T (b - A x)||/||A^T b|| = " + formatNumber(trueRelres) +
                       " > 2 x " + formatNumber(tol) + " (float accuracy limit: ask for a looser tolerance)"};
  }
  return std::nullopt;
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
  SolverStatus& result = recorder.status();

  const bool preconditioned = M != nullptr && !M->isIdentity();
  CglsIteration it(A, At, b, x, preconditioned ? M : nullptr, quoted(M ? M->name() : ""), limits.tolerance, recorder);

  // ||A^T b||^2 and the first normal residual s = A^T (b - A x), one read-back for both.
  Scalar check = Scalar::temporary("cgls.check");
  At.apply(b, it.s());
  stream::dot(it.s(), it.s(), it.qq());
  it.normalResidual();
  Pass("solvers/cg_initial").label("cgls initial").input("u_bb", it.qq()).input("u_rr", it.ss()).output(check).run();
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
  recorder.record(0, std::sqrt(ss0 / atb2));
  if (result.relativeResidual <= limits.tolerance)
    return recorder.finish(Outcome::Converged, 0, "the initial guess already meets the tolerance (||A^T r||/||A^T b|| = " +
                                                      formatNumber(result.relativeResidual) + ")");
  if (limits.maxIterations == 0) return recorder.finish(Outcome::MaxIterations, 0, "maxIterations = 0");
  it.setAtb2(atb2);
  CgDriver driver(nullptr, limits, opts, recorder);
  return recorder.finish(driver.iterate(it, it));
}

}  // namespace krylov
}  // namespace texstream::solvers
