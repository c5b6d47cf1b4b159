#include <texstream/solvers/krylov/MixedPrecisionRefinement.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/DoubleFloatVector.h>
#include <texstream/linalg/LinearOperator.h>
#include <texstream/linalg/OperatorShapes.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/stream/Vector.h>
#include <texstream/text/Format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace texstream::solvers {
inline namespace krylov {

namespace {

constexpr stream::EnumName<Precision> kPrecisionNames[] = {
    {Precision::Single, "single", "single (float)"},
    {Precision::Mixed, "mixed", "mixed (float CG in double defect correction)"},
    {Precision::Auto, "auto", "auto (float; mixed where float cannot reach the tolerance)"},
};


/// ||v||_2 of a float vector, summed on the GPU, read back.
double norm2(const stream::Vector& v) { return double(linalg::norm(v)); }

/// ||b||_2 of the pairs to float accuracy: ||hi|| differs from ||hi + lo|| by at most a
/// float rounding, far below any tolerance the ratio ||r|| / ||b|| is compared with. Summed
/// on the GPU: no download of b.
double norm2(const linalg::DoubleFloatVector& b) { return norm2(b.hi()); }

}  // namespace

std::span<const stream::EnumName<Precision>> precisionNames() { return kPrecisionNames; }

RefinementRecorder::RefinementRecorder(std::string where, std::function<void(int, int, double)> onStep)
    : m_where(std::move(where)), m_onStep(std::move(onStep)), m_start(std::chrono::steady_clock::now()) {}

void RefinementRecorder::record(int iteration, int innerIterations, double relative) {
  m_status.residualHistory.push_back(relative);
  m_status.checkedAt.push_back(iteration);
  m_status.relativeResidual = relative;
  if (m_onStep) m_onStep(int(m_status.residualHistory.size()) - 1, innerIterations, relative);
}

RefinementStatus RefinementRecorder::finish(Outcome outcome, const std::string& message) {
  m_status.outcome = outcome;
  m_status.trueRelativeResidual = m_status.relativeResidual;  // formed in the higher precision
  m_status.solver = m_where;
  m_status.message = m_where + ": " + message;
  m_status.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - m_start).count();
  return m_status;
}

bool needsMixedPrecision(const SolverStatus& single) {
  return single.outcome == Outcome::Stagnated || single.outcome == Outcome::MaxIterations ||
         single.outcome == Outcome::Breakdown;
}

void validateRefinementOptions(const std::string& solver, double tolerance, const RefinementOptions& o) {
  if (!(tolerance > 0.0 && tolerance < 1.0)) {
    throw std::invalid_argument(solver + ": tolerance must be in (0, 1), got " + text::formatNumber(tolerance));
  }
  if (!(o.innerTolerance > 0.0 && o.innerTolerance < 1.0)) {
    throw std::invalid_argument(solver + ": innerTolerance must be in (0, 1), got " +
                                text::formatNumber(o.innerTolerance));
  }
  if (o.maxOuterSteps < 1) {
    throw std::invalid_argument(solver + ": maxOuterSteps must be at least 1, got " + std::to_string(o.maxOuterSteps));
  }
  if (!(o.minimumReduction > 0.0 && o.minimumReduction < 1.0)) {
    throw std::invalid_argument(solver + ": minimumReduction must be in (0, 1), got " +
                                text::formatNumber(o.minimumReduction));
  }
}

RefinementStatus refine(const linalg::LinearOperator& A, const linalg::DoubleFloatVector& b,
                        linalg::DoubleFloatVector& x, const IterativeOptions& options,
                        const RefinementOptions& refinement, const InnerSolve& inner) {
  validateRefinementOptions("refine", options.tolerance, refinement);
  linalg::requireSquare("refine(\"" + A.name() + "\")", A);
  gl::StateGuard guard;
  return refine(b.layout(), pairDefectCorrection(A, b, x), options, refinement, inner);
}

DefectCorrection pairDefectCorrection(const linalg::LinearOperator& A, const linalg::DoubleFloatVector& b,
                                      linalg::DoubleFloatVector& x) {
  DefectCorrection pairs;
  pairs.rightHandSideNorm = norm2(b);
  pairs.defect = [&A, &b, &x](stream::Vector& r) {
    A.residualInDoubleFloat(b, x, r);
    return norm2(r);
  };
  pairs.addCorrection = [&x](const stream::Vector& c) { x.add(c); };
  pairs.setSolutionZero = [&x] { x.setZero(); };
  return pairs;
}

RefinementStatus refine(const stream::Layout& layout, const DefectCorrection& target, const IterativeOptions& options,
                        const RefinementOptions& refinement, const InnerSolve& inner) {
  validateRefinementOptions("refine", options.tolerance, refinement);
  const double tolerance = options.tolerance;
  if (!inner) throw std::invalid_argument("refine: no inner solve given");
  if (!target.defect || !target.addCorrection || !target.setSolutionZero)
    throw std::invalid_argument("refine: the defect correction lacks one of its three calls");
  gl::StateGuard guard;
  RefinementRecorder recorder("refine", refinement.onStep);
  RefinementStatus& status = recorder.status();

  stream::Vector r = stream::Vector::temporary(layout, "refine.r"), c = stream::Vector::temporary(layout, "refine.c");
  const double bNorm = target.rightHandSideNorm;
  auto defect = [&] {
    const double rNorm = target.defect(r);
    return bNorm > 0 ? rNorm / bNorm : rNorm;
  };
  double relative = defect();
  recorder.record(0, 0, relative);
  if (!std::isfinite(relative)) return recorder.finish(Outcome::NonFinite, "the initial residual is not finite");
  if (bNorm == 0) {
    target.setSolutionZero();
    status.relativeResidual = 0;
    return recorder.finish(Outcome::Converged, "b = 0, x = 0");
  }

  int slowSteps = 0;
  for (int step = 1; step <= refinement.maxOuterSteps; ++step) {
    if (relative <= tolerance) break;
    c.setZero();
    const double innerTolerance = std::clamp(0.5 * tolerance / relative, refinement.innerTolerance, 0.5);
    const SolverStatus innerStatus = inner(r, c, innerTolerance);
    status.innerIterations.push_back(innerStatus.iterations);
    status.iterations += innerStatus.iterations;
    // A breakdown after some iterations (float CG meeting p . A p <= 0 on a nearly singular
    // step) still leaves a correction worth adding: the defect decides whether it helped.
    const bool noCorrection = innerStatus.outcome == Outcome::Breakdown && innerStatus.iterations == 0;
    if (innerStatus.outcome == Outcome::NonFinite || noCorrection) {
      return recorder.finish(innerStatus.outcome, "step " + std::to_string(step) + ": the inner solve ended in " +
                                             outcomeName(innerStatus.outcome) + ": " + innerStatus.message);
    }
    target.addCorrection(c);
    const double before = relative;
    relative = defect();
    if (!(relative < before) && std::isfinite(relative)) {
      // The correction made things worse (an inner solve that broke down or ran out of
      // iterations on a nearly singular system): undo it, and stop.
      linalg::scale(-1.0f, c);
      target.addCorrection(c);
      relative = defect();
      recorder.record(status.iterations, innerStatus.iterations, relative);
      if (relative <= tolerance) break;
      return recorder.finish(Outcome::Stagnated, "stagnated at relative residual " + text::formatNumber(relative) +
                                            ": step " + std::to_string(step) + "'s correction (inner solve: " +
                                            innerStatus.message + ") raised it, and was undone (" +
                                            std::to_string(status.iterations) + " inner iterations; tolerance " +
                                            text::formatNumber(tolerance) + ")");
    }
    const double previous = before;
    recorder.record(status.iterations, innerStatus.iterations, relative);
    if (!std::isfinite(relative)) {
      return recorder.finish(Outcome::NonFinite, "the residual became non-finite at step " + std::to_string(step));
    }
    slowSteps = relative > refinement.minimumReduction * previous ? slowSteps + 1 : 0;
    if (slowSteps >= 2 && relative > tolerance) {
      return recorder.finish(Outcome::Stagnated, "stagnated at relative residual " + text::formatNumber(relative) +
                                            " after " + std::to_string(step) + " steps (" +
                                            std::to_string(status.iterations) + " inner iterations; tolerance " +
                                            text::formatNumber(tolerance) + ")");
    }
  }
  if (relative <= tolerance) {
    return recorder.finish(Outcome::Converged, "relative residual " + text::formatNumber(relative) + " after " +
                                          std::to_string(status.outerSteps()) + " steps (" +
                                          std::to_string(status.iterations) + " inner iterations)");
  }
  return recorder.finish(Outcome::MaxIterations, "relative residual " + text::formatNumber(relative) + " after " +
                                            std::to_string(refinement.maxOuterSteps) + " steps, above the tolerance " +
                                            text::formatNumber(tolerance));
}

InnerSolve cgInnerSolve(const linalg::LinearOperator& A, CgOptions options, const Preconditioner* M) {
  return [&A, options, M](const stream::Vector& r, stream::Vector& c, double tolerance) {
    CgOptions o = options;
    o.tolerance = float(tolerance);
    // The refinement forms the true residual itself, in the higher precision.
    o.checkTrueResidual = false;
    return cg(A, r, c, o, M);
  };
}

InnerSolve iterativeInnerSolve(IterativeSolver& solver, IterativeOptions options) {
  return [&solver, options](const stream::Vector& r, stream::Vector& c, double tolerance) {
    IterativeOptions o = options;
    o.tolerance = float(tolerance);
    return solver.solve(r, c, o);
  };
}

}  // namespace krylov
}  // namespace texstream::solvers
