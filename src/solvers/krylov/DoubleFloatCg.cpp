// Double-float CG (DoubleFloatCg.h): the classic PCG loop with every vector a pair, one pass
// per vector operation, ping-pong pairs for the vectors a pass both reads and writes.
#include <texstream/solvers/krylov/DoubleFloatCg.h>

#include <texstream/solvers/krylov/CgDriver.h>
#include <texstream/solvers/krylov/InternalOrder.h>
#include <texstream/solvers/SolveRecorder.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/DoubleFloatDot.h>
#include <texstream/linalg/DoubleFloatVector.h>
#include <texstream/linalg/LinearOperator.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/stream/Backend.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Runtime.h>
#include <texstream/stream/Scalar.h>
#include <texstream/text/Format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <utility>

namespace texstream::solvers {
inline namespace krylov {

namespace {

using linalg::DoubleFloatVector;

// The fall of the recurrence residual after which the true residual replaces it.
constexpr double kReplaceAfter = 1e-3;

void subtract(const DoubleFloatVector& a, const DoubleFloatVector& b, DoubleFloatVector& out) {
  stream::Pass("linalg/double_float_subtract")
      .label("double-float subtract")
      .input("u_aHi", a.hi())
      .input("u_aLo", a.lo())
      .input("u_bHi", b.hi())
      .input("u_bLo", b.lo())
      .output(out.mutableHi())
      .output(out.mutableLo())
      .run();
}

void quotient(const stream::Scalar& numerator, const stream::Scalar& denominator, stream::Scalar& out) {
  stream::Pass("solvers/df_cg_scalar")
      .label("double-float cg scalar")
      .input("u_numerator", numerator)
      .input("u_denominator", denominator)
      .output(out)
      .run();
}

// p' = w r + beta p (first: p' = w r).
void direction(const DoubleFloatVector& r, const DoubleFloatVector& p, const stream::Vector* weight,
               const stream::Scalar* beta, DoubleFloatVector& out) {
  stream::Pass pass("solvers/df_cg_direction");
  pass.label("double-float cg direction").input("u_rHi", r.hi()).input("u_rLo", r.lo());
  if (weight) pass.define("WEIGHTED").input("u_weight", *weight);
  if (beta) {
    pass.input("u_pHi", p.hi()).input("u_pLo", p.lo()).input("u_beta", *beta);
  } else {
    pass.define("FIRST");
  }
  pass.output(out.mutableHi()).output(out.mutableLo()).run();
}

// Classic PCG in pairs (Hestenes & Stiefel 1952) as a CgIteration, and its residual
// policy, "replaced from a double-float defect": when the recurrence residual meets the
// tolerance or has fallen by kReplaceAfter since the last replacement, the true residual
// b - A x in the pair arithmetic replaces it (the recurrence drifts from b - A x by the
// pairs' rounding times the condition number), the direction kept (van der Vorst & Ye 2000)
// where the two agree within 2x.
class DoubleFloatCgIteration final : public CgIteration, public ResidualPolicy {
 public:
  DoubleFloatCgIteration(const linalg::LinearOperator& A, const DoubleFloatVector& b, DoubleFloatVector& x,
                         const stream::Vector* weight, double bNorm, double tolerance, SolveRecorder& recorder)
      : m_A(A), m_b(b), m_x(x), m_weight(weight), m_bNorm(bNorm), m_tolerance(tolerance), m_recorder(recorder) {}

  /// r = b - A x (the true residual) and rz = r . w r; returns ||r|| / ||b||.
  double trueResidual() {
    m_A.applyInDoubleFloat(*m_xs[m_xi], m_q);
    subtract(m_b, m_q, *m_rs[m_ri]);
    linalg::doubleFloatDot(*m_rs[m_ri], *m_rs[m_ri], m_rz, m_weight);
    linalg::doubleFloatDot(*m_rs[m_ri], *m_rs[m_ri], m_rr);
    return std::sqrt(std::max(0.0, linalg::readDoubleFloat(m_rr))) / m_bNorm;
  }
  void setLastTrue(double relative) { m_lastTrue = relative; }

  // p = w r (rz is r's, from trueResidual).
  void start(int) override { direction(*m_rs[m_ri], *m_ps[m_pi], m_weight, nullptr, *m_ps[m_pi]); }

  void iterate(int, bool) override {
    m_A.applyInDoubleFloat(*m_ps[m_pi], m_q);          // q = A p
    linalg::doubleFloatDot(*m_ps[m_pi], m_q, m_pq);    // p . q
    quotient(m_rz, m_pq, m_alpha);                     // alpha = rz / p . q (flags p . q <= 0)
    stream::Pass("solvers/df_cg_update")               // x += alpha p, r -= alpha q
        .label("double-float cg update")
        .input("u_xHi", m_xs[m_xi]->hi()).input("u_xLo", m_xs[m_xi]->lo())
        .input("u_rHi", m_rs[m_ri]->hi()).input("u_rLo", m_rs[m_ri]->lo())
        .input("u_pHi", m_ps[m_pi]->hi()).input("u_pLo", m_ps[m_pi]->lo())
        .input("u_qHi", m_q.hi()).input("u_qLo", m_q.lo())
        .input("u_alpha", m_alpha)
        .output(m_xs[1 - m_xi]->mutableHi()).output(m_xs[1 - m_xi]->mutableLo())
        .output(m_rs[1 - m_ri]->mutableHi()).output(m_rs[1 - m_ri]->mutableLo())
        .run();
    m_xi = 1 - m_xi;
    m_ri = 1 - m_ri;
    linalg::doubleFloatDot(*m_rs[m_ri], *m_rs[m_ri], m_rzNext, m_weight);  // rz' = r . w r
    quotient(m_rzNext, m_rz, m_beta);                                      // beta = rz' / rz
    std::swap(m_rz, m_rzNext);
    direction(*m_rs[m_ri], *m_ps[m_pi], m_weight, &m_beta, *m_ps[1 - m_pi]);  // p = w r + beta p
    m_pi = 1 - m_pi;
  }

  void replaceResidual(int) override {}  // check() replaces the residual itself
  const stream::Scalar& residualSquared() override { return m_rr; }

  // (r . r as a pair, the breakdown flag of alpha's pass, 0).
  std::optional<std::array<float, 4>> readCheck() override {
    linalg::doubleFloatDot(*m_rs[m_ri], *m_rs[m_ri], m_rr);
    const std::array<float, 4> rr = m_rr.read4();
    return std::array<float, 4>{rr[0], rr[1], m_alpha.read4()[2], 0.0f};
  }

  std::optional<Verdict> check(CgIteration& it, int k, bool last, const std::array<float, 4>& texel) override;
  Verdict atCap(int cap) override {
    return {Outcome::MaxIterations, cap,
            "not converged in " + std::to_string(cap) + " iterations, residual " +
                text::formatNumber(m_recorder.status().relativeResidual)};
  }

  /// The solution in the caller's x where the ping-pong left it in the other pair.
  void settle() {
    if (m_xi == 0) return;
    linalg::copy(m_xOther.hi(), m_x.mutableHi());
    linalg::copy(m_xOther.lo(), m_x.mutableLo());
    m_xi = 0;
  }

 private:
  DoubleFloatVector temporary(const char* name) { return DoubleFloatVector::temporary(m_b.layout(), name); }

  const linalg::LinearOperator& m_A;
  const DoubleFloatVector& m_b;
  DoubleFloatVector& m_x;
  const stream::Vector* m_weight;
  double m_bNorm, m_tolerance;
  SolveRecorder& m_recorder;
  DoubleFloatVector m_xOther = temporary("doubleFloatCg.x'"), m_r = temporary("doubleFloatCg.r"),
                    m_rOther = temporary("doubleFloatCg.r'"), m_p = temporary("doubleFloatCg.p"),
                    m_pOther = temporary("doubleFloatCg.p'"), m_q = temporary("doubleFloatCg.q");
  stream::Scalar m_rr = stream::Scalar::temporary("doubleFloatCg.rr"), m_rz = stream::Scalar::temporary("doubleFloatCg.rz"),
                 m_rzNext = stream::Scalar::temporary("doubleFloatCg.rz'"),
                 m_pq = stream::Scalar::temporary("doubleFloatCg.pq"),
                 m_alpha = stream::Scalar::temporary("doubleFloatCg.alpha"),
                 m_beta = stream::Scalar::temporary("doubleFloatCg.beta");
  DoubleFloatVector* m_xs[2] = {&m_x, &m_xOther};
  DoubleFloatVector* m_rs[2] = {&m_r, &m_rOther};
  DoubleFloatVector* m_ps[2] = {&m_p, &m_pOther};
  int m_xi = 0, m_ri = 0, m_pi = 0;
  /// The true residual at the last replacement, and replacements in a row that gained
  /// less than half of it (two: the pairs' precision is reached, Stagnated).
  double m_lastTrue = 0;
  int m_slowReplacements = 0;
};

std::optional<Verdict> DoubleFloatCgIteration::check(CgIteration& it, int k, bool, const std::array<float, 4>& texel) {
  SolverStatus& status = m_recorder.status();
  const double recurrence = std::sqrt(std::max(0.0, double(texel[0]) + double(texel[1]))) / m_bNorm;
  m_recorder.record(k, recurrence);
  if (!std::isfinite(recurrence)) return Verdict{Outcome::NonFinite, k, "a non-finite residual at iteration " + std::to_string(k)};
  if (texel[2] != 0.0f) {
    return Verdict{Outcome::Breakdown, k, "p^T A p <= 0 at iteration " + std::to_string(k) +
                                              " (A is not symmetric positive definite in double-float arithmetic)"};
  }
  if (recurrence > m_tolerance && recurrence > kReplaceAfter * m_lastTrue) return std::nullopt;
  const double relative = trueResidual();
  m_recorder.record(k, relative);
  ++status.restarts;
  // Keeping p assumes r . p = r . z, which holds while b - A x is close to the recurrence;
  // where they differ by more than 2x, the direction restarts (p = w r).
  if (relative > 2 * recurrence) it.start(k + 1);
  if (relative <= m_tolerance) {
    return Verdict{Outcome::Converged, k,
                   "converged in " + std::to_string(k) + " iterations, true residual " + text::formatNumber(relative)};
  }
  m_slowReplacements = relative > 0.5 * m_lastTrue ? m_slowReplacements + 1 : 0;
  m_lastTrue = std::min(m_lastTrue, relative);
  if (m_slowReplacements < 2) return std::nullopt;
  return Verdict{Outcome::Stagnated, k,
                 "stagnated at true residual " + text::formatNumber(relative) + " after " + std::to_string(k) +
                     " iterations (the recurrence at " + text::formatNumber(recurrence) + ", tolerance " +
                     text::formatNumber(m_tolerance) + "): the pairs' precision times the condition number"};
}

SolverStatus doubleFloatCgLoop(const linalg::LinearOperator& A, const DoubleFloatVector& b, DoubleFloatVector& x,
                               const IterationLimits& limits, const IterativeOptions& options,
                               const stream::Vector* weight, const std::string& where);

}  // namespace

SolverStatus doubleFloatCg(const linalg::LinearOperator& A, const DoubleFloatVector& b, DoubleFloatVector& x,
                           const IterativeOptions& options, const stream::Vector* weight) {
  const std::string where = "doubleFloatCg(" + text::quoted(A.name()) + ")";
  if (options.fixedIterations) throw std::invalid_argument(where + ": fixed iterations are not supported");
  if (options.asynchronousCheck.value_or(false)) throw std::invalid_argument(where + ": asynchronous checks are not supported");
  const IterationLimits limits = resolveLimits("doubleFloatCg", options, kDoubleFloatCgDefaults);
  if (!(options.tolerance > 0 && options.tolerance < 1)) {
    throw std::invalid_argument(where + ": tolerance must be in (0, 1), got " + text::formatNumber(options.tolerance));
  }
  if (A.rows() != A.cols() || b.size() != A.rows() || x.size() != A.cols()) {
    throw gl::Error(where + ": the operator is " + std::to_string(A.rows()) + "x" + std::to_string(A.cols()) + ", b (" +
                    text::quoted(b.name()) + ") has " + std::to_string(b.size()) + " elements and x (" +
                    text::quoted(x.name()) + ") " + std::to_string(x.size()));
  }
  if (x.layout() != b.layout()) {
    throw gl::Error(where + ": x (" + text::quoted(x.name()) + ") has " + x.layout().describe() + ", b " +
                    b.layout().describe());
  }
  if (weight && weight->layout() != b.layout()) {
    throw gl::Error(where + ": the weight (" + text::quoted(weight->name()) + ") has " + weight->layout().describe() +
                    ", the vectors " + b.layout().describe());
  }

  gl::StateGuard guard;
  stream::BackendScope backendScope(options.backend);
  stream::Runtime& runtime = stream::Runtime::current();
  runtime.requireBackend(runtime.backend());
  // A reordered matrix is solved in its internal order: b, x and the weight gathered once
  // instead of two gathers of a pair around every product (as cg() does).
  const std::optional<InternalOrder> internal = internalOrderFor(A, nullptr, "doubleFloatCg");
  if (!internal) return doubleFloatCgLoop(A, b, x, limits, options, weight, where);
  const stream::Layout& inner = internal->layout();
  auto gather = [&](const DoubleFloatVector& user, const std::string& name) {
    DoubleFloatVector out = DoubleFloatVector::temporary(inner, name);
    internal->matrix->toInternal(user.hi(), out.mutableHi());
    internal->matrix->toInternal(user.lo(), out.mutableLo());
    return out;
  };
  const DoubleFloatVector bi = gather(b, "doubleFloatCg.b(internal)");
  DoubleFloatVector xi = gather(x, "doubleFloatCg.x(internal)");
  std::optional<stream::Vector> weightInternal;
  if (weight) {
    weightInternal.emplace(stream::Vector::temporary(inner, "doubleFloatCg.weight(internal)"));
    internal->matrix->toInternal(*weight, *weightInternal);
  }
  const SolverStatus status =
      doubleFloatCgLoop(internal->op, bi, xi, limits, options, weightInternal ? &*weightInternal : nullptr, where);
  internal->matrix->toUser(xi.hi(), x.mutableHi());
  internal->matrix->toUser(xi.lo(), x.mutableLo());
  return status;
}

namespace {

SolverStatus doubleFloatCgLoop(const linalg::LinearOperator& A, const DoubleFloatVector& b, DoubleFloatVector& x,
                               const IterationLimits& limits, const IterativeOptions& options,
                               const stream::Vector* weight, const std::string& where) {
  SolveRecorder recorder(where, options.onCheck);
  SolverStatus& status = recorder.status();
  // The residuals are formed in the pair arithmetic: the status's true residual is the last.
  auto finish = [&](Outcome outcome, int iterations, const std::string& message) {
    status.trueRelativeResidual = status.relativeResidual;
    return recorder.finish(outcome, iterations, message);
  };

  stream::Scalar bb = stream::Scalar::temporary("doubleFloatCg.bb");
  linalg::doubleFloatDot(b, b, bb);
  const double bNorm = std::sqrt(linalg::readDoubleFloat(bb));
  if (!std::isfinite(bNorm)) return finish(Outcome::NonFinite, 0, "||b|| is not finite");
  if (bNorm == 0) {
    x.setZero();
    recorder.record(0, 0);
    return finish(Outcome::Converged, 0, "b = 0, x = 0");
  }
  const double tolerance = options.tolerance;
  DoubleFloatCgIteration it(A, b, x, weight, bNorm, tolerance, recorder);
  const double relative = it.trueResidual();
  it.setLastTrue(relative);
  recorder.record(0, relative);
  if (!std::isfinite(relative)) return finish(Outcome::NonFinite, 0, "the initial residual is not finite");
  if (relative <= tolerance) {
    return finish(Outcome::Converged, 0, "the initial guess meets the tolerance (" + text::formatNumber(relative) + ")");
  }
  CgDriver driver(nullptr, limits, options, recorder);
  const Verdict verdict = driver.iterate(it, it);
  it.settle();
  return finish(verdict.outcome, verdict.iterations, verdict.message);
}

}  // namespace

RefinementStatus refineWithDoubleFloatCg(const stream::Layout& layout, const PairDefectCorrection& target,
                                         const linalg::LinearOperator& A, const IterativeOptions& options,
                                         const RefinementOptions& refinement, const stream::Vector* weight) {
  const std::string where = "refineWithDoubleFloatCg(" + text::quoted(A.name()) + ")";
  validateRefinementOptions("refineWithDoubleFloatCg", options.tolerance, refinement);
  const double tolerance = options.tolerance;
  const int cap = resolveLimits("refineWithDoubleFloatCg", options, kDoubleFloatCgDefaults).maxIterations;
  if (!target.defect || !target.addCorrection || !target.subtractCorrection)
    throw std::invalid_argument(where + ": the defect correction lacks one of its three calls");
  RefinementRecorder recorder(where, refinement.onStep);
  RefinementStatus& status = recorder.status();
  gl::StateGuard guard;
  DoubleFloatVector r = DoubleFloatVector::temporary(layout, "refineWithDoubleFloatCg.r");
  DoubleFloatVector c = DoubleFloatVector::temporary(layout, "refineWithDoubleFloatCg.c");
  const double bNorm = target.rightHandSideNorm;
  auto defect = [&] {
    const double rNorm = target.defect(r);
    return bNorm > 0 ? rNorm / bNorm : rNorm;
  };
  double relative = defect();
  recorder.record(status.iterations, 0, relative);
  if (!std::isfinite(relative)) return recorder.finish(Outcome::NonFinite, "the initial defect is not finite");
  int slowSteps = 0;
  std::string last = "no inner solve";
  for (int step = 0; step < refinement.maxOuterSteps; ++step) {
    if (relative <= tolerance) {
      return recorder.finish(Outcome::Converged, "true residual " + text::formatNumber(relative) + " after " +
                                            std::to_string(status.outerSteps()) + " steps, " +
                                            std::to_string(status.iterations) + " double-float CG iterations");
    }
    if (status.iterations >= cap) break;
    IterativeOptions solve = options;
    solve.maxIterations = cap - status.iterations;
    solve.tolerance = float(std::clamp(0.5 * tolerance / relative, 1e-8, 0.5));
    solve.onCheck = nullptr;
    c.setZero();
    const SolverStatus s = doubleFloatCg(A, r, c, solve, weight);
    status.iterations += s.iterations;
    status.innerIterations.push_back(s.iterations);
    last = s.message;
    if (s.outcome == Outcome::NonFinite || s.outcome == Outcome::Breakdown) {
      const double kept = defect();  // r again for the caller's x, which has not moved
      recorder.record(status.iterations, s.iterations, kept);
      return recorder.finish(s.outcome, "the inner solve failed: " + s.message);
    }
    target.addCorrection(c);
    const double now = defect();
    if (!(now < relative)) {  // the correction did not help: undone
      target.subtractCorrection(c);
      recorder.record(status.iterations, s.iterations, relative);
      if (s.outcome == Outcome::MaxIterations && status.iterations >= cap) {
        return recorder.finish(Outcome::MaxIterations,
                      "true residual " + text::formatNumber(relative) + " when the cap of " + std::to_string(cap) +
                          " double-float CG iterations cut the last inner solve short (its correction was undone; " +
                          s.message + ")");
      }
      return recorder.finish(Outcome::Stagnated, "stagnated at true residual " + text::formatNumber(relative) +
                                            " (tolerance " + text::formatNumber(tolerance) +
                                            "; the last correction raised it and was undone; last inner solve: " + last +
                                            ")");
    }
    slowSteps = now > refinement.minimumReduction * relative ? slowSteps + 1 : 0;
    relative = now;
    recorder.record(status.iterations, s.iterations, relative);
    if (slowSteps >= 2 && relative > tolerance) {
      return recorder.finish(Outcome::Stagnated, "stagnated at true residual " + text::formatNumber(relative) +
                                            " (tolerance " + text::formatNumber(tolerance) +
                                            "; last inner solve: " + last + ")");
    }
  }
  if (relative <= tolerance) {
    return recorder.finish(Outcome::Converged, "true residual " + text::formatNumber(relative) + " after " +
                                          std::to_string(status.outerSteps()) + " steps, " +
                                          std::to_string(status.iterations) + " double-float CG iterations");
  }
  return recorder.finish(Outcome::MaxIterations, "true residual " + text::formatNumber(relative) + " after " +
                                            std::to_string(status.outerSteps()) + " steps, " +
                                            std::to_string(status.iterations) + " double-float CG iterations (at most " +
                                            std::to_string(refinement.maxOuterSteps) + " steps and " +
                                            std::to_string(cap) + " iterations; tolerance " +
                                            text::formatNumber(tolerance) + ")");
}

}  // namespace krylov
}  // namespace texstream::solvers
