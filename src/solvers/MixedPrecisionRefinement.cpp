#include <texstream/solvers/MixedPrecisionRefinement.h>

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

namespace texstream::solvers {

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

bool needsMixedPrecision(const SolverStatus& single) {
  return single.outcome == Outcome::Stagnated || single.outcome == Outcome::MaxIterations ||
         single.outcome == Outcome::Breakdown;
}

void validateRefinementOptions(const std::string& solver, const RefinementOptions& o) {
  if (!(o.tolerance > 0.0 && o.tolerance < 1.0)) {
    throw std::invalid_argument(solver + ": tolerance must be in (0, 1), got " + text::formatNumber(o.tolerance));
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
                        linalg::DoubleFloatVector& x, const RefinementOptions& options, const InnerSolve& inner) {
  validateRefinementOptions("refine", options);
  linalg::requireSquare("refine(\"" + A.name() + "\")", A);
  gl::StateGuard guard;
  DefectCorrection pairs;
  pairs.rightHandSideNorm = norm2(b);
  pairs.defect = [&](stream::Vector& r) {
    A.residualInDoubleFloat(b, x, r);
    return norm2(r);
  };
  pairs.addCorrection = [&](const stream::Vector& c) { x.add(c); };
  pairs.setSolutionZero = [&] { x.setZero(); };
  return refine(b.layout(), pairs, options, inner);
}

RefinementStatus refine(const stream::Layout& layout, const DefectCorrection& target,
                        const RefinementOptions& options, const InnerSolve& inner) {
  validateRefinementOptions("refine", options);
  if (!inner) throw std::invalid_argument("refine: no inner solve given");
  if (!target.defect || !target.addCorrection || !target.setSolutionZero)
    throw std::invalid_argument("refine: the defect correction lacks one of its three calls");
  gl::StateGuard guard;
  const auto start = std::chrono::steady_clock::now();
  RefinementStatus status;
  auto finish = [&](Outcome outcome, std::string message) {
    status.outcome = outcome;
    status.trueRelativeResidual = status.relativeResidual;  // formed in the higher precision
    status.message = std::move(message);
    status.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return status;
  };

  stream::Vector r = stream::Vector::temporary(layout, "refine.r"), c = stream::Vector::temporary(layout, "refine.c");
  const double bNorm = target.rightHandSideNorm;
  auto defect = [&] {
    const double rNorm = target.defect(r);
    return bNorm > 0 ? rNorm / bNorm : rNorm;
  };
  double relative = defect();
  status.residualHistory.push_back(relative);
  status.checkedAt.push_back(0);
  status.relativeResidual = relative;
  if (options.onStep) options.onStep(0, 0, relative);
  if (!std::isfinite(relative)) return finish(Outcome::NonFinite, "refine: the initial residual is not finite");
  if (bNorm == 0) {
    target.setSolutionZero();
    status.relativeResidual = 0;
    return finish(Outcome::Converged, "refine: b = 0, x = 0");
  }

  int slowSteps = 0;
  for (int step = 1; step <= options.maxOuterSteps; ++step) {
    if (relative <= options.tolerance) break;
    c.setZero();
    const double innerTolerance = std::clamp(0.5 * options.tolerance / relative, options.innerTolerance, 0.5);
    const SolverStatus innerStatus = inner(r, c, innerTolerance);
    status.innerIterations.push_back(innerStatus.iterations);
    status.iterations += innerStatus.iterations;
    // A breakdown after some iterations (float CG meeting p . A p <= 0 on a nearly singular
    // step) still leaves a correction worth adding: the defect decides whether it helped.
    const bool noCorrection = innerStatus.outcome == Outcome::Breakdown && innerStatus.iterations == 0;
    if (innerStatus.outcome == Outcome::NonFinite || noCorrection) {
      return finish(innerStatus.outcome, "refine: step " + std::to_string(step) + ": the inner solve ended in " +
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
      status.residualHistory.push_back(relative);
      status.checkedAt.push_back(status.iterations);
      status.relativeResidual = relative;
      if (options.onStep) options.onStep(step, innerStatus.iterations, relative);
      if (relative <= options.tolerance) break;
      return finish(Outcome::Stagnated, "refine: stagnated at relative residual " + text::formatNumber(relative) +
                                            ": step " + std::to_string(step) + "'s correction (inner solve: " +
                                            innerStatus.message + ") raised it, and was undone (" +
                                            std::to_string(status.iterations) + " inner iterations; tolerance " +
                                            text::formatNumber(options.tolerance) + ")");
    }
    const double previous = before;
    status.residualHistory.push_back(relative);
    status.checkedAt.push_back(status.iterations);
    status.relativeResidual = relative;
    if (options.onStep) options.onStep(step, innerStatus.iterations, relative);
    if (!std::isfinite(relative)) {
      return finish(Outcome::NonFinite, "refine: the residual became non-finite at step " + std::to_string(step));
    }
    slowSteps = relative > options.minimumReduction * previous ? slowSteps + 1 : 0;
    if (slowSteps >= 2 && relative > options.tolerance) {
      return finish(Outcome::Stagnated, "refine: stagnated at relative residual " + text::formatNumber(relative) +
                                            " after " + std::to_string(step) + " steps (" +
                                            std::to_string(status.iterations) + " inner iterations; tolerance " +
                                            text::formatNumber(options.tolerance) + ")");
    }
  }
  if (relative <= options.tolerance) {
    return finish(Outcome::Converged, "refine: relative residual " + text::formatNumber(relative) + " after " +
                                          std::to_string(status.outerSteps()) + " steps (" +
                                          std::to_string(status.iterations) + " inner iterations)");
  }
  return finish(Outcome::MaxIterations, "refine: relative residual " + text::formatNumber(relative) + " after " +
                                            std::to_string(options.maxOuterSteps) + " steps, above the tolerance " +
                                            text::formatNumber(options.tolerance));
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

}  // namespace texstream::solvers
