// The checks, read-backs, verdicts and the drift restart around either CG algorithm.
#include <texstream/solvers/krylov/CgDriver.h>

#include <texstream/linalg/DoubleFloatVector.h>
#include <texstream/linalg/LinearOperator.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/solvers/SolverInputs.h>
#include <texstream/solvers/StationaryLoop.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Reduction.h>
#include <texstream/stream/Runtime.h>

#include <glad/gl.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace texstream::solvers {
inline namespace krylov {

namespace {

using stream::Pass;
using stream::Vector;


// A convergence the updated residual reports is checked against the true residual b - A x
// (one product, in double-float where the operator has the kernel, and one read-back), on
// both backends, and the verdict is the true residual's (holdToTrueResidual): "converged"
// means ||b - A x|| / ||b|| meets the tolerance.
// Chronopoulos-Gear updates s = A p by a recurrence too, so its r drifts from b - A x
// further than standard CG's (Ghysels & Vanroose 2014, §4, for pipelined CG); standard CG
// drifts too in float. Where the true residual misses the tolerance the iteration restarts
// from it and asks its recurrence for as much more as the true residual missed by (the
// drift seen so far), up to kMaxRestarts times while each restart at least halves the true
// residual. Where one does not, float has reached its floor (the attainable accuracy, or
// the float-rounded matrix on an ill-conditioned system) and the outcome is Stagnated at
// float precision, naming mixed precision. A residual replacement that keeps the
// directions (Ghysels & Vanroose's) breaks down here: near convergence the float residual
// no longer satisfies the orthogonality Chronopoulos-Gear's alpha recurrence assumes, and
// its denominator goes negative. docs/performance.md has the cases.
constexpr int kMaxRestarts = 3;
constexpr const char* kFloatRemedy =
    "solve in mixed precision (solvers::cg on double-float pairs: the residual replaced by b - A x in double-float), or "
    "loosen the tolerance";

/// r = b - A x.
void trueResidual(CgSystem& s) {
  Vector ax = Vector::temporary(s.b.layout(), "cg.Ax");
  s.A.apply(s.x, ax);
  linalg::linearCombination(1.0f, s.b, -1.0f, ax, s.r);
}

/// r = b - A x for the verdict: in double-float arithmetic where A has the kernel (the
/// exact residual of the float x against the float A, rounded to float: in float, forming
/// b - A x has a rounding floor of its own near the tolerances float CG reaches), else in
/// float. Returns how it was formed, for the message.
const char* verdictResidual(CgSystem& s) {
  if (!s.A.hasResidualInDoubleFloat()) {
    trueResidual(s);
    return "in float on the GPU";
  }
  linalg::DoubleFloatVector b = linalg::DoubleFloatVector::temporary(s.b.layout(), "cg.b(pairs)");
  linalg::DoubleFloatVector x = linalg::DoubleFloatVector::temporary(s.x.layout(), "cg.x(pairs)");
  b.assign(s.b);
  x.assign(s.x);
  s.A.residualInDoubleFloat(b, x, s.r);
  return "in double-float on the GPU";
}

}  // namespace

std::string cgFailureMessage(int code, int when, double value, const std::string& preconditioner) {
  const std::string at = " at iteration " + std::to_string(when);
  switch (code) {
    case kCgPqNotPositive:
      return "breakdown" + at + ": p^T A p = " + formatNumber(value) + " <= 0, the matrix is not symmetric positive definite";
    case kCgRhoNegative:
      return "breakdown" + at + ": r^T M^-1 r = " + formatNumber(value) + " < 0, the preconditioner " + preconditioner +
             " is not positive definite";
    case kCgRhoZero:
      return "breakdown" + at + ": r^T M^-1 r = 0 with a non-zero residual, the preconditioner " + preconditioner +
             " is singular";
    default:
      return "a non-finite value (" + formatNumber(value) + ") appeared" + at + " (overflow, or NaN/Inf in the matrix)";
  }
}

CgDriver::CgDriver(CgSystem* system, const IterationLimits& limits, const IterativeOptions& options,
                   SolveRecorder& recorder)
    : m_sys(system), m_limits(limits), m_recorder(recorder), m_rr(stream::Scalar::temporary("cg.rr")),
      m_check(stream::Scalar::temporary("cg.check")), m_restartsLeft(options.restartOnDrift ? kMaxRestarts : 0),
      m_checkTrueResidual(options.checkTrueResidual), m_recurrenceTarget(limits.tolerance) {
  if (limits.asynchronousCheck && system) m_readback = std::make_unique<stream::ScalarReadback>();
}

SolverStatus CgDriver::finish(const Verdict& v) {
  SolverStatus status = m_recorder.finish(v);
  if (std::isfinite(m_trueRelres))
    holdToTrueResidual(status, m_trueRelres, m_limits.tolerance, m_trueHow, kFloatRemedy);
  return status;
}

void CgDriver::precondition() {
  if (m_sys->M) m_sys->M->apply(m_sys->r, m_sys->z);
}

void CgDriver::setUpInPasses() {
  stream::Scalar bb = stream::Scalar::temporary("cg.bb");
  stream::dot(m_sys->b, m_sys->b, bb);
  trueResidual(*m_sys);
  stream::dot(m_sys->r, m_sys->r, m_rr);
  const double tolerance = m_limits.tolerance;
  Pass("solvers/cg_set_up_check").label("cg set-up check").input("u_bb", bb).input("u_rr", m_rr)
      .uniform("u_toleranceSquared", float(tolerance * tolerance)).output(m_check).output(m_sys->status).run();
}

bool CgDriver::setUpFused(CgIteration& it) {
  // A x lands in r, and the reduction writes r = b - A x over it.
  m_sys->A.apply(m_sys->x, m_sys->r);
  const bool jacobi = m_sys->M && m_sys->inverseDiagonal;
  const CgIteration::StartSums sums = (!m_sys->M || jacobi) ? it.startSums() : CgIteration::StartSums{};
  const bool giveSums = sums.ru && sums.rr;
  const double tolerance = m_limits.tolerance;
  stream::reduceCustom(m_sys->b.layout(), {"solvers/cg_set_up_reduce", [&](Pass& pass) {
    pass.label("cg set-up: residual, sums, check").inPlace();
    pass.input("u_b", m_sys->b).input("u_ax", m_sys->r).uniform("u_toleranceSquared", float(tolerance * tolerance))
        .uniform("u_n", int(m_sys->b.size())).uniform("u_width", m_sys->b.layout().width());
    pass.output(m_sys->r);
    if (jacobi) pass.define("JACOBI").input("u_inverseDiagonal", *m_sys->inverseDiagonal).output(m_sys->z);
    pass.output(m_check).output(m_sys->status);
    if (giveSums) pass.define("START_SUMS").output(*sums.ru).output(*sums.rr);
  }});
  m_preconditioned = jacobi;
  return giveSums;
}

std::optional<Verdict> CgDriver::setUp(CgIteration& it) {
  if (stream::Runtime::current().backend() == stream::Backend::Compute) m_startSumsGiven = setUpFused(it);
  else setUpInPasses();
  if (m_limits.maxIterations == 0) {
    if (std::optional<Verdict> v = initialVerdict(m_check.read4())) return v;
    return Verdict{Outcome::MaxIterations, 0, "maxIterations = 0"};
  }
  m_initialCheck = std::make_unique<stream::ScalarReadback>();
  m_initialCheck->start(m_check);
  if (!m_preconditioned) precondition();
  return std::nullopt;
}

std::optional<Verdict> CgDriver::initialVerdict(const std::array<float, 4>& texel) {
  const double bb0 = texel[0], rr0 = texel[1];
  const bool stopped = texel[2] != 0.0f;
  if (auto v = rightHandSideVerdict(std::sqrt(bb0), "b", m_sys->b.name(), m_recorder)) {
    if (v->outcome == Outcome::Converged) m_sys->x.setZero();
    return v;
  }
  if (!std::isfinite(rr0)) {
    m_recorder.status().relativeResidual = NAN;
    return Verdict{Outcome::NonFinite, 0,
                   "the initial residual b - A x is not finite: NaN or Inf in x " + quoted(m_sys->x.name()) + " or in A"};
  }
  m_bnorm2 = bb0;
  m_recorder.record(0, std::sqrt(rr0 / m_bnorm2));
  // The GPU's float test decided whether x moves; the verdict follows it (at the boundary
  // ||r|| / ||b|| may read a rounding above the tolerance). r0 = b - A x0 is x0's true
  // residual, formed in float.
  if (!stopped) return std::nullopt;
  m_recorder.status().trueRelativeResidual = std::sqrt(rr0 / m_bnorm2);
  return Verdict{Outcome::Converged, 0,
                 "the initial guess already meets the tolerance (||r||/||b|| = " +
                     formatNumber(m_recorder.status().relativeResidual) + ")"};
}

std::optional<Verdict> CgDriver::takeInitialCheck(bool wait) {
  if (!m_initialCheck || (!wait && !m_initialCheck->ready())) return std::nullopt;
  const std::array<float, 4> texel = m_initialCheck->value();
  m_initialCheck.reset();
  return initialVerdict(texel);
}

std::array<float, 4> CgDriver::readCheck(CgIteration& it) {
  if (std::optional<std::array<float, 4>> texel = it.readCheck()) return *texel;
  enqueueCheck(it);
  return m_check.read4();
}

void CgDriver::enqueueCheck(CgIteration& it) {
  // The packed check texel: (||r||^2, status code, iteration, value).
  Pass("solvers/cg_check").label("cg check").input("u_rr", it.residualSquared()).input("u_status", m_sys->status)
      .output(m_check).run();
}

double CgDriver::confirmConvergence(CgIteration& it, int now, bool& restarted) {
  if (m_readback && m_readback->pending()) m_readback->value();  // a stale check: drop it
  m_trueHow = verdictResidual(*m_sys);
  stream::dot(m_sys->r, m_sys->r, m_rr);
  const double trueRelres = std::sqrt(double(m_rr.read4()[0]) / m_bnorm2);
  // A restart after the first must have gained: else the float floor is reached.
  const bool gaining = !std::isfinite(m_trueRelres) || trueRelres <= 0.5 * m_lastMiss;
  m_trueRelres = trueRelres;
  restarted = !(trueRelres <= m_limits.tolerance) && std::isfinite(trueRelres) && now < m_limits.maxIterations &&
              m_restartsLeft > 0 && gaining;
  if (restarted) {
    m_lastMiss = trueRelres;
    // The recurrence is asked for the drift's worth more (at most ten times the tolerance).
    m_recurrenceTarget = std::max(0.1 * m_limits.tolerance, m_recurrenceTarget * m_limits.tolerance / trueRelres);
    --m_restartsLeft;
    ++m_recorder.status().restarts;
    m_sys->status.write4({0.0f, 0.0f, 0.0f, 0.0f});  // a fresh start: no code from before it
    precondition();
    it.start(now + 1);
  }
  return trueRelres;
}

// `at`: the iteration the check texel was taken at; `now`: the current one (later with
// asynchronous checks). The verdict's iteration is where the solve really ended.
std::optional<Verdict> CgDriver::evaluate(CgIteration& it, int at, int now, const std::array<float, 4>& v) {
  const int code = int(std::lround(v[1]));
  const int when = int(std::lround(v[2]));
  const double value = v[3];
  const double tol = m_limits.tolerance;
  const double relres = std::sqrt(double(v[0]) / m_bnorm2);
  const std::string preconditioner = quoted(m_sys->M ? m_sys->M->name() : "");
  std::string trueResidual;
  if (m_checkTrueResidual && relres <= m_recurrenceTarget && (code == kCgRunning || code == kCgRhoZero)) {
    bool restarted = false;
    const double trueRelres = confirmConvergence(it, now, restarted);
    if (restarted) {
      m_recorder.record(now, trueRelres);
      return std::nullopt;
    }
    trueResidual = " (||b - A x||/||b|| = " + formatNumber(trueRelres) +
                   (m_recorder.status().restarts > 0 ? ", after a restart from b - A x)" : ")");
  }
  if (std::isfinite(relres) && code != kCgNonFinite) m_recorder.record(at, relres);
  if (code == kCgPqNotPositive || code == kCgRhoNegative || code == kCgNonFinite) {
    if (code == kCgNonFinite) m_recorder.status().relativeResidual = NAN;
    return Verdict{code == kCgNonFinite ? Outcome::NonFinite : Outcome::Breakdown, when,
                   cgFailureMessage(code, when, value, preconditioner)};
  }
  if (!std::isfinite(relres)) {
    m_recorder.status().relativeResidual = NAN;
    return Verdict{Outcome::NonFinite, at,
                   "||r||^2 = " + formatNumber(v[0]) + " at iteration " + std::to_string(at) +
                       " (overflow, or NaN/Inf in the matrix)"};
  }
  if (relres <= m_recurrenceTarget) {
    // rho = 0 at iteration `when` means iteration when - 1 left r exactly 0, and x has
    // not moved since (alpha = 0): that is where the solve really ended.
    return Verdict{Outcome::Converged, code == kCgRhoZero ? when - 1 : now,
                   "converged: ||r||/||b|| = " + formatNumber(relres) + " <= " + formatNumber(tol) + " at iteration " +
                       std::to_string(at) + trueResidual};
  }
  if (code == kCgRhoZero) {
    return Verdict{Outcome::Breakdown, when,
                   "breakdown at iteration " + std::to_string(when) + ": r^T M^-1 r = 0 while ||r||/||b|| = " + formatNumber(relres) +
                       ", the preconditioner " + preconditioner + " is singular"};
  }
  return std::nullopt;
}

std::optional<Verdict> CgDriver::judge(CgIteration& it, int at, int now, const std::array<float, 4>& texel) {
  if (m_policy) return m_policy->check(it, now, now == m_limits.maxIterations, texel);
  return evaluate(it, at, now, texel);
}

Verdict CgDriver::iterate(CgIteration& it, ResidualPolicy& policy) {
  m_policy = &policy;
  return iterate(it);
}

Verdict CgDriver::iterate(CgIteration& it) {
  const int cap = m_limits.maxIterations;
  if (m_startSumsGiven) it.startFromSetUpSums(1);
  else it.start(1);
  // The set-up and the first product go to the GPU now: a driver holds commands until its
  // buffer fills or something flushes, and after the wait that ended the previous solve
  // the GPU would idle until then (docs/performance.md, "CG's fixed cost per solve").
  glFlush();
  int pendingAt = 0, lastChecked = 0;
  for (int k = 1; k <= cap; ++k) {
    it.iterate(k, k == cap);
    const bool due = k >= m_limits.firstCheck && k % m_limits.checkEvery == 0;
    // The set-up check lands while the first iterations run; a check waits for it.
    if (std::optional<Verdict> initial = takeInitialCheck(/*wait=*/due)) return *initial;
    std::optional<Verdict> verdict;
    // A policy checks the cap itself (unless the work is fixed), on the current iterate.
    const bool policyAtCap = m_policy && k == cap && !m_limits.fixed;
    if (!m_readback || policyAtCap) {
      if (due || policyAtCap) {
        if (m_readback && m_readback->pending()) m_readback->value();  // stale: the cap reads the current state
        verdict = judge(it, k, k, readCheck(it));
        lastChecked = k;
      }
    } else {
      if (due && !m_readback->pending()) {
        enqueueCheck(it);
        m_readback->start(m_check);
        pendingAt = k;
      }
      // Take the value when it has landed, or wait for it once the CPU has run a whole
      // check interval ahead: without that bound a fast CPU enqueues every remaining
      // iteration before the GPU reaches the read-back, and a solve needing a few
      // iterations runs to its cap.
      if (m_readback->pending() && (m_readback->ready() || k - pendingAt >= m_limits.checkEvery)) {
        verdict = judge(it, pendingAt, k, m_readback->value());
        lastChecked = pendingAt;
      }
    }
    if (verdict) return *verdict;
  }

  // The cap: take a read-back still in flight, then (unless the work was fixed) check the
  // final iterate itself.
  if (std::optional<Verdict> initial = takeInitialCheck(/*wait=*/true)) return *initial;
  if (m_readback && m_readback->pending()) {
    const int at = pendingAt;
    if (std::optional<Verdict> verdict = evaluate(it, at, cap, m_readback->value())) return *verdict;
    lastChecked = at;
  }
  if (lastChecked != cap && !m_limits.fixed) {
    enqueueCheck(it);
    if (std::optional<Verdict> verdict = evaluate(it, cap, cap, m_check.read4())) return *verdict;
  }
  if (m_policy) return m_policy->atCap(cap);
  const std::string relres = formatNumber(m_recorder.status().relativeResidual);
  if (m_limits.fixed) return Verdict{Outcome::MaxIterations, cap, "ran the fixed " + std::to_string(cap) + " iterations: ||r||/||b|| = " + relres};
  return Verdict{Outcome::MaxIterations, cap,
                 "not converged after " + std::to_string(cap) + " iterations: ||r||/||b|| = " + relres + " > " +
                     formatNumber(m_recurrenceTarget) +
                     (m_recurrenceTarget < m_limits.tolerance
                          ? " (the tolerance " + formatNumber(m_limits.tolerance) +
                                " less the drift of the recurrence from b - A x seen at the restarts)"
                          : std::string())};
}

}  // namespace krylov
}  // namespace texstream::solvers
