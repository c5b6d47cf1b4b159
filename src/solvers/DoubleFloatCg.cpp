// Double-float CG (DoubleFloatCg.h): the classic PCG loop with every vector a pair, one pass
// per vector operation, ping-pong pairs for the vectors a pass both reads and writes.
#include <texstream/solvers/DoubleFloatCg.h>

#include <texstream/solvers/InternalOrder.h>

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

SolverStatus doubleFloatCgLoop(const linalg::LinearOperator& A, const DoubleFloatVector& b, DoubleFloatVector& x,
                               const IterationLimits& limits, const IterativeOptions& options,
                               const stream::Vector* weight, const std::string& where);

}  // namespace

SolverStatus doubleFloatCg(const linalg::LinearOperator& A, const DoubleFloatVector& b, DoubleFloatVector& x,
                           const IterativeOptions& options, const stream::Vector* weight) {
  const std::string where = "doubleFloatCg(" + text::quoted(A.name()) + ")";
  if (options.fixedIterations) throw std::invalid_argument(where + ": fixed iterations are not supported");
  if (options.asynchronousCheck) throw std::invalid_argument(where + ": asynchronous checks are not supported");
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
  const auto start = std::chrono::steady_clock::now();
  SolverStatus status;
  auto finish = [&](Outcome outcome, std::string message) {
    status.outcome = outcome;
    status.trueRelativeResidual = status.relativeResidual;  // formed in the higher precision
    status.message = where + ": " + std::move(message);
    status.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return status;
  };
  auto record = [&](int iteration, double relative) {
    status.residualHistory.push_back(relative);
    status.checkedAt.push_back(iteration);
    status.relativeResidual = relative;
    if (options.onCheck) options.onCheck(iteration, relative);
  };

  const stream::Layout& layout = b.layout();
  stream::Scalar rr = stream::Scalar::temporary("doubleFloatCg.rr");
  linalg::doubleFloatDot(b, b, rr);
  const double bNorm = std::sqrt(linalg::readDoubleFloat(rr));
  if (!std::isfinite(bNorm)) return finish(Outcome::NonFinite, "||b|| is not finite");
  if (bNorm == 0) {
    x.setZero();
    record(0, 0);
    return finish(Outcome::Converged, "b = 0, x = 0");
  }

  DoubleFloatVector xOther = DoubleFloatVector::temporary(layout, "doubleFloatCg.x'");
  DoubleFloatVector r = DoubleFloatVector::temporary(layout, "doubleFloatCg.r");
  DoubleFloatVector rOther = DoubleFloatVector::temporary(layout, "doubleFloatCg.r'");
  DoubleFloatVector p = DoubleFloatVector::temporary(layout, "doubleFloatCg.p");
  DoubleFloatVector pOther = DoubleFloatVector::temporary(layout, "doubleFloatCg.p'");
  DoubleFloatVector q = DoubleFloatVector::temporary(layout, "doubleFloatCg.q");
  stream::Scalar rz = stream::Scalar::temporary("doubleFloatCg.rz");
  stream::Scalar rzNext = stream::Scalar::temporary("doubleFloatCg.rz'");
  stream::Scalar pq = stream::Scalar::temporary("doubleFloatCg.pq");
  stream::Scalar alpha = stream::Scalar::temporary("doubleFloatCg.alpha");
  stream::Scalar beta = stream::Scalar::temporary("doubleFloatCg.beta");
  DoubleFloatVector* xs[2] = {&x, &xOther};
  DoubleFloatVector* rs[2] = {&r, &rOther};
  DoubleFloatVector* ps[2] = {&p, &pOther};
  int xi = 0, ri = 0, pi = 0;

  // r = b - A x (the true residual), rz = r . w r and, when starting, p = w r; returns
  // ||r|| / ||b||. Later the direction is kept where it can be (residual replacement: van
  // der Vorst & Ye 2000), so CG goes on at its rate with the recurrence's drift removed.
  auto replaceResidual = [&](bool start) {
    A.applyInDoubleFloat(*xs[xi], q);
    subtract(b, q, *rs[ri]);
    if (start) direction(*rs[ri], *ps[pi], weight, nullptr, *ps[pi]);
    linalg::doubleFloatDot(*rs[ri], *rs[ri], rz, weight);
    linalg::doubleFloatDot(*rs[ri], *rs[ri], rr);
    return std::sqrt(std::max(0.0, linalg::readDoubleFloat(rr))) / bNorm;
  };
  // The solution in the caller's x when the ping-pong left it in the other pair.
  auto settle = [&] {
    if (xi != 0) {
      linalg::copy(xOther.hi(), x.mutableHi());
      linalg::copy(xOther.lo(), x.mutableLo());
      xi = 0;
    }
  };

  double relative = replaceResidual(true);
  record(0, relative);
  if (!std::isfinite(relative)) return finish(Outcome::NonFinite, "the initial residual is not finite");
  const double tolerance = options.tolerance;
  if (relative <= tolerance) {
    return finish(Outcome::Converged, "the initial guess meets the tolerance (" + text::formatNumber(relative) + ")");
  }
  // The true residual at the last replacement, and replacements in a row that gained less
  // than half of it (two: the pairs' precision is reached, Stagnated).
  double lastTrue = relative;
  int slowReplacements = 0;
  for (int k = 1; k <= limits.maxIterations; ++k) {
    A.applyInDoubleFloat(*ps[pi], q);
    linalg::doubleFloatDot(*ps[pi], q, pq);
    quotient(rz, pq, alpha);
    stream::Pass("solvers/df_cg_update")
        .label("double-float cg update")
        .input("u_xHi", xs[xi]->hi())
        .input("u_xLo", xs[xi]->lo())
        .input("u_rHi", rs[ri]->hi())
        .input("u_rLo", rs[ri]->lo())
        .input("u_pHi", ps[pi]->hi())
        .input("u_pLo", ps[pi]->lo())
        .input("u_qHi", q.hi())
        .input("u_qLo", q.lo())
        .input("u_alpha", alpha)
        .output(xs[1 - xi]->mutableHi())
        .output(xs[1 - xi]->mutableLo())
        .output(rs[1 - ri]->mutableHi())
        .output(rs[1 - ri]->mutableLo())
        .run();
    xi = 1 - xi;
    ri = 1 - ri;
    linalg::doubleFloatDot(*rs[ri], *rs[ri], rzNext, weight);
    quotient(rzNext, rz, beta);
    std::swap(rz, rzNext);
    direction(*rs[ri], *ps[pi], weight, &beta, *ps[1 - pi]);
    pi = 1 - pi;
    status.iterations = k;
    if (!limits.due(k)) continue;

    linalg::doubleFloatDot(*rs[ri], *rs[ri], rr);
    relative = std::sqrt(std::max(0.0, linalg::readDoubleFloat(rr))) / bNorm;
    const auto alphaTexel = alpha.read4();
    record(k, relative);
    if (!std::isfinite(relative)) {
      settle();
      return finish(Outcome::NonFinite, "a non-finite residual at iteration " + std::to_string(k));
    }
    if (alphaTexel[2] != 0.0f) {
      settle();
      return finish(Outcome::Breakdown, "p^T A p <= 0 at iteration " + std::to_string(k) +
                                            " (A is not symmetric positive definite in double-float arithmetic)");
    }
    // The recurrence meets the tolerance, or has fallen by 1e-3 since the last replacement:
    // the true residual replaces it (the recurrence drifts from b - A x by the pairs'
    // rounding times the condition number).
    if (relative > tolerance && relative > kReplaceAfter * lastTrue) continue;
    const double recurrence = relative;
    relative = replaceResidual(false);
    record(k, relative);
    ++status.restarts;
    // Keeping p assumes r . p = r . z, which holds while b - A x is close to the
    // recurrence; where they differ by more than 2x, the direction restarts (p = w r).
    if (relative > 2 * recurrence) direction(*rs[ri], *ps[pi], weight, nullptr, *ps[pi]);
    if (relative <= tolerance) {
      settle();
      return finish(Outcome::Converged, "converged in " + std::to_string(k) + " iterations, true residual " +
                                            text::formatNumber(relative));
    }
    slowReplacements = relative > 0.5 * lastTrue ? slowReplacements + 1 : 0;
    lastTrue = std::min(lastTrue, relative);
    if (slowReplacements >= 2) {
      settle();
      return finish(Outcome::Stagnated, "stagnated at true residual " + text::formatNumber(relative) + " after " +
                                            std::to_string(k) + " iterations (the recurrence at " +
                                            text::formatNumber(recurrence) + ", tolerance " +
                                            text::formatNumber(tolerance) +
                                            "): the pairs' precision times the condition number");
    }
  }
  settle();
  return finish(Outcome::MaxIterations, "not converged in " + std::to_string(limits.maxIterations) +
                                            " iterations, residual " + text::formatNumber(relative));
}

}  // namespace

RefinementStatus refineWithDoubleFloatCg(const stream::Layout& layout, const PairDefectCorrection& target,
                                         const linalg::LinearOperator& A, const RefinementOptions& options,
                                         const IterativeOptions& inner, const stream::Vector* weight) {
  const std::string where = "refineWithDoubleFloatCg(" + text::quoted(A.name()) + ")";
  validateRefinementOptions("refineWithDoubleFloatCg", options);
  const int cap = resolveLimits("refineWithDoubleFloatCg", inner, kDoubleFloatCgDefaults).maxIterations;
  if (!target.defect || !target.addCorrection || !target.subtractCorrection)
    throw std::invalid_argument(where + ": the defect correction lacks one of its three calls");
  const auto start = std::chrono::steady_clock::now();
  RefinementStatus status;
  auto finish = [&](Outcome outcome, std::string message) {
    status.outcome = outcome;
    status.trueRelativeResidual = status.relativeResidual;  // formed in the higher precision
    status.message = where + ": " + std::move(message);
    status.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return status;
  };
  auto record = [&](int inner, double relative) {
    status.residualHistory.push_back(relative);
    status.checkedAt.push_back(status.iterations);
    status.relativeResidual = relative;
    if (options.onStep) options.onStep(int(status.residualHistory.size()) - 1, inner, relative);
  };
  gl::StateGuard guard;
  DoubleFloatVector r = DoubleFloatVector::temporary(layout, "refineWithDoubleFloatCg.r");
  DoubleFloatVector c = DoubleFloatVector::temporary(layout, "refineWithDoubleFloatCg.c");
  const double bNorm = target.rightHandSideNorm;
  auto defect = [&] {
    const double rNorm = target.defect(r);
    return bNorm > 0 ? rNorm / bNorm : rNorm;
  };
  double relative = defect();
  record(0, relative);
  if (!std::isfinite(relative)) return finish(Outcome::NonFinite, "the initial defect is not finite");
  int slowSteps = 0;
  std::string last = "no inner solve";
  for (int step = 0; step < options.maxOuterSteps; ++step) {
    if (relative <= options.tolerance) {
      return finish(Outcome::Converged, "true residual " + text::formatNumber(relative) + " after " +
                                            std::to_string(status.outerSteps()) + " steps, " +
                                            std::to_string(status.iterations) + " double-float CG iterations");
    }
    if (status.iterations >= cap) break;
    IterativeOptions solve = inner;
    solve.maxIterations = cap - status.iterations;
    solve.tolerance = float(std::clamp(0.5 * options.tolerance / relative, 1e-8, 0.5));
    solve.onCheck = nullptr;
    c.setZero();
    const SolverStatus s = doubleFloatCg(A, r, c, solve, weight);
    status.iterations += s.iterations;
    status.innerIterations.push_back(s.iterations);
    last = s.message;
    if (s.outcome == Outcome::NonFinite || s.outcome == Outcome::Breakdown) {
      const double kept = defect();  // r again for the caller's x, which has not moved
      record(s.iterations, kept);
      return finish(s.outcome, "the inner solve failed: " + s.message);
    }
    target.addCorrection(c);
    const double now = defect();
    if (!(now < relative)) {  // the correction did not help: undone
      target.subtractCorrection(c);
      record(s.iterations, relative);
      if (s.outcome == Outcome::MaxIterations && status.iterations >= cap) {
        return finish(Outcome::MaxIterations,
                      "true residual " + text::formatNumber(relative) + " when the cap of " + std::to_string(cap) +
                          " double-float CG iterations cut the last inner solve short (its correction was undone; " +
                          s.message + ")");
      }
      return finish(Outcome::Stagnated, "stagnated at true residual " + text::formatNumber(relative) +
                                            " (tolerance " + text::formatNumber(options.tolerance) +
                                            "; the last correction raised it and was undone; last inner solve: " + last +
                                            ")");
    }
    slowSteps = now > options.minimumReduction * relative ? slowSteps + 1 : 0;
    relative = now;
    record(s.iterations, relative);
    if (slowSteps >= 2 && relative > options.tolerance) {
      return finish(Outcome::Stagnated, "stagnated at true residual " + text::formatNumber(relative) +
                                            " (tolerance " + text::formatNumber(options.tolerance) +
                                            "; last inner solve: " + last + ")");
    }
  }
  if (relative <= options.tolerance) {
    return finish(Outcome::Converged, "true residual " + text::formatNumber(relative) + " after " +
                                          std::to_string(status.outerSteps()) + " steps, " +
                                          std::to_string(status.iterations) + " double-float CG iterations");
  }
  return finish(Outcome::MaxIterations, "true residual " + text::formatNumber(relative) + " after " +
                                            std::to_string(status.outerSteps()) + " steps, " +
                                            std::to_string(status.iterations) + " double-float CG iterations (at most " +
                                            std::to_string(options.maxOuterSteps) + " steps and " +
                                            std::to_string(cap) + " iterations; tolerance " +
                                            text::formatNumber(options.tolerance) + ")");
}

}  // namespace texstream::solvers
