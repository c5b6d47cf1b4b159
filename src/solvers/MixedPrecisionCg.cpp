// Mixed-precision CG with reliable updates (MixedPrecisionCg.h): the float iteration of
// either CG algorithm (CgDriver.h's CgIteration: the classic loop on the fragment backend,
// Chronopoulos-Gear on the compute backend) under a loop of its own that reads the
// recurrence residual every checkEvery iterations and replaces it by the true one as it
// falls.
#include <texstream/solvers/MixedPrecisionCg.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/DoubleFloatVector.h>
#include <texstream/linalg/LinearOperator.h>
#include <texstream/linalg/OperatorShapes.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/solvers/CgDriver.h>
#include <texstream/solvers/InternalOrder.h>
#include <texstream/solvers/SolverInputs.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Runtime.h>
#include <texstream/stream/Scalar.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <optional>
#include <stdexcept>

namespace texstream::solvers {

RefinementStatus mixedPrecisionCg(const stream::Layout& layout, const DefectCorrection& target,
                                  const linalg::LinearOperator& A, const RefinementOptions& options,
                                  const CgOptions& cgOptions, const Preconditioner* M) {
  const std::string where = "mixedPrecisionCg(" + quoted(A.name()) + ")";
  validateRefinementOptions("mixedPrecisionCg", options);
  if (!target.defect || !target.addCorrection || !target.setSolutionZero)
    throw std::invalid_argument(where + ": the defect correction lacks one of its three calls");
  if (A.rows() != A.cols() || A.rows() != layout.size()) {
    throw gl::Error(where + ": the operator is " + std::to_string(A.rows()) + "x" + std::to_string(A.cols()) +
                    ", the vectors have " + std::to_string(layout.size()) + " elements");
  }
  CgOptions limitsOptions = cgOptions;
  limitsOptions.tolerance = 0.5f;  // unused: the refinement's tolerance decides
  limitsOptions.fixedIterations = false;
  const IterationLimits limits = resolveLimits("mixedPrecisionCg", limitsOptions, kMixedPrecisionCgDefaults);
  if (M && M->isIdentity()) M = nullptr;
  const stream::Vector* inverseDiagonal = M ? M->inverseDiagonal() : nullptr;

  gl::StateGuard guard;
  stream::BackendScope backendScope(cgOptions.backend);
  stream::Runtime& runtime = stream::Runtime::current();
  runtime.requireBackend(runtime.backend());
  if (inverseDiagonal && inverseDiagonal->layout() != layout) {
    throw gl::Error(where + ": the preconditioner's inverse diagonal has " + inverseDiagonal->layout().describe() +
                    ", the vectors " + layout.describe());
  }
  const auto start = std::chrono::steady_clock::now();
  RefinementStatus status;
  auto finish = [&](Outcome outcome, std::string message) {
    status.outcome = outcome;
    status.trueRelativeResidual = status.relativeResidual;  // formed in the higher precision
    status.message = where + ": " + std::move(message);
    status.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return status;
  };
  auto record = [&](int iteration, int inner, double relative) {
    status.residualHistory.push_back(relative);
    status.checkedAt.push_back(iteration);
    status.relativeResidual = relative;
    if (options.onStep) options.onStep(int(status.residualHistory.size()) - 1, inner, relative);
  };

  stream::Vector xf = stream::Vector::temporary(layout, "mixedPrecisionCg.x");
  CgSystem system{A, xf, xf, M, inverseDiagonal, stream::Vector::temporary(layout, "mixedPrecisionCg.r"), {},
                  stream::Scalar::temporary("mixedPrecisionCg.status")};
  if (M) system.z = stream::Vector::temporary(layout, "mixedPrecisionCg.z");
  stream::Scalar check = stream::Scalar::temporary("mixedPrecisionCg.check");

  const double bNorm = target.rightHandSideNorm;
  auto defect = [&] {
    const double rNorm = target.defect(system.r);
    return bNorm > 0 ? rNorm / bNorm : rNorm;
  };
  double relative = defect();
  record(0, 0, relative);
  if (!std::isfinite(relative)) return finish(Outcome::NonFinite, "the initial residual is not finite");
  if (bNorm == 0) {
    target.setSolutionZero();
    status.relativeResidual = 0;
    return finish(Outcome::Converged, "b = 0, x = 0");
  }
  if (relative <= options.tolerance) {
    return finish(Outcome::Converged, "the initial guess already meets the tolerance (" + formatNumber(relative) + ")");
  }

  auto precondition = [&] {
    if (M) M->apply(system.r, system.z);
  };
  xf.setZero();
  system.status.write4({0.0f, 0.0f, 0.0f, 0.0f});
  precondition();
  const std::unique_ptr<CgIteration> it =
      runtime.backend() == stream::Backend::Compute ? chronopoulosGearCg(system) : classicCg(system);
  it->start(1);

  const std::string preconditioner = quoted(M ? M->name() : "");
  int lastReplacement = 0, slowSteps = 0;
  std::string lastFailure;  // why the last step restarted, if it did
  bool lastFailureNonFinite = false;
  // With asynchronousCheck the check texel travels through a PBO and a fence and is taken
  // when it has landed (or one check interval later, waiting then), so the GPU never idles
  // on a read-back; a replacement then happens up to checkEvery iterations after the check
  // that called for it, with the residual only smaller by then.
  std::unique_ptr<stream::ScalarReadback> readback;
  if (cgOptions.asynchronousCheck) readback = std::make_unique<stream::ScalarReadback>();
  int pendingAt = 0;
  auto enqueueCheck = [&] {
    stream::Pass("solvers/cg_check").label("cg check").input("u_rr", it->residualSquared()).input("u_status", system.status)
        .output(check).run();
  };
  for (int k = 1; k <= limits.maxIterations; ++k) {
    const bool last = k == limits.maxIterations;
    it->iterate(k, last);
    const bool checkDue = k % limits.checkEvery == 0;
    std::array<float, 4> texel;
    if (!readback || last) {
      if (!checkDue && !last) continue;
      if (readback && readback->pending()) readback->value();  // stale: the cap reads the current state
      enqueueCheck();
      texel = check.read4();
    } else {
      if (checkDue && !readback->pending()) {
        enqueueCheck();
        readback->start(check);
        pendingAt = k;
      }
      if (!readback->pending() || !(readback->ready() || k - pendingAt >= limits.checkEvery)) continue;
      texel = readback->value();
    }
    const int code = int(std::lround(texel[1]));
    const double recurrence = std::sqrt(double(texel[0])) / bNorm;
    const bool nonFinite = code == kCgNonFinite || !std::isfinite(recurrence);
    // A failure (a breakdown, r^T M^-1 r = 0, a non-finite value) ends the float iteration
    // here: on a system CG has solved to float's floor between two checks, or one whose
    // float rounding is not SPD any more. The defect decides what it gained, and the
    // iteration restarts from the true residual.
    if (cgOptions.onCheck && !nonFinite) cgOptions.onCheck(k, recurrence);
    const bool failed = code != kCgRunning || nonFinite;
    const bool due = recurrence <= std::max(options.innerTolerance * relative, 0.5 * options.tolerance);
    if (!due && !failed && !last) continue;

    // Move x_f into the solution (unless it may hold non-finite values: after a recorded
    // failure alpha is 0, so x_f stays where the iteration was still sound) and form the
    // true residual.
    if (!nonFinite) target.addCorrection(xf);
    const double before = relative;
    relative = defect();
    const int inner = k - lastReplacement;
    lastReplacement = k;
    status.innerIterations.push_back(inner);
    status.iterations = k;
    lastFailure.clear();
    if (code != kCgRunning) lastFailure = cgFailureMessage(code, int(std::lround(texel[2])), texel[3], preconditioner);
    else if (nonFinite) lastFailure = cgFailureMessage(kCgNonFinite, k, texel[0], preconditioner);
    lastFailureNonFinite = nonFinite;
    bool worse = false;
    if (!nonFinite && !(relative < before) && std::isfinite(relative) && relative > options.tolerance) {
      // The correction made things worse: undo it.
      linalg::scale(-1.0f, xf);
      target.addCorrection(xf);
      relative = defect();
      worse = true;
      if (lastFailure.empty()) lastFailure = "the float iteration's correction raised the true residual, and was undone";
    }
    xf.setZero();
    record(k, inner, relative);
    if (!std::isfinite(relative)) {
      return finish(Outcome::NonFinite, "the true residual became non-finite at iteration " + std::to_string(k));
    }
    if (relative <= options.tolerance) {
      return finish(Outcome::Converged, "relative residual " + formatNumber(relative) + " after " + std::to_string(k) +
                                            " iterations, " + std::to_string(status.outerSteps()) +
                                            " residual replacements" +
                                            (status.restarts ? ", " + std::to_string(status.restarts) + " restart(s)" : ""));
    }
    slowSteps = relative > options.minimumReduction * before ? slowSteps + 1 : 0;
    if (slowSteps >= 2) {
      const std::string reached = "relative residual " + formatNumber(relative) + " after " + std::to_string(k) +
                                  " iterations (tolerance " + formatNumber(options.tolerance) + ")";
      if (lastFailure.empty() || worse) return finish(Outcome::Stagnated, "stagnated at " + reached + (worse ? ": " + lastFailure : ""));
      return finish(lastFailureNonFinite ? Outcome::NonFinite : Outcome::Breakdown, lastFailure + "; no progress after a restart, " + reached);
    }
    if (status.outerSteps() >= options.maxOuterSteps && !last) {
      return finish(Outcome::MaxIterations, "relative residual " + formatNumber(relative) + " after " +
                                                std::to_string(options.maxOuterSteps) +
                                                " residual replacements (maxOuterSteps), above the tolerance " +
                                                formatNumber(options.tolerance));
    }
    if (last) break;
    precondition();
    if (failed || worse) {
      system.status.write4({0.0f, 0.0f, 0.0f, 0.0f});  // a fresh start: no code from before it
      ++status.restarts;
      it->start(k + 1);
    } else {
      it->replaceResidual(k + 1);
    }
  }
  return finish(Outcome::MaxIterations, "relative residual " + formatNumber(relative) + " after " +
                                            std::to_string(limits.maxIterations) + " iterations, above the tolerance " +
                                            formatNumber(options.tolerance));
}

RefinementStatus mixedPrecisionCg(const linalg::LinearOperator& A, const linalg::DoubleFloatVector& b,
                                  linalg::DoubleFloatVector& x, const RefinementOptions& options,
                                  const CgOptions& cgOptions, const Preconditioner* M) {
  const std::string where = "mixedPrecisionCg(" + quoted(A.name()) + ")";
  linalg::requireSquare(where, A);
  if (b.size() != A.rows() || x.size() != A.cols() || b.layout() != x.layout()) {
    throw gl::Error(where + ": b (\"" + b.name() + "\", " + std::to_string(b.size()) + " elements, " +
                    b.layout().describe() + ") and x (\"" + x.name() + "\", " + std::to_string(x.size()) +
                    " elements, " + x.layout().describe() + ") must both have the operator's " +
                    std::to_string(A.rows()) + " elements in one layout");
  }
  if (M && M->isIdentity()) M = nullptr;
  gl::StateGuard guard;
  stream::BackendScope backendScope(cgOptions.backend);
  const double bNorm = double(linalg::norm(b.hi()));  // to float accuracy, as refine() takes it

  if (std::optional<InternalOrder> internal = internalOrderFor(A, M, "mixedPrecisionCg")) {
    // The whole solve in the matrix's internal order: the pairs gathered once each way.
    const linalg::PermutedMatrix& P = *internal->matrix;
    using linalg::DoubleFloatVector;
    DoubleFloatVector bi = DoubleFloatVector::temporary(internal->layout(), "mixedPrecisionCg.b(internal)");
    DoubleFloatVector xi = DoubleFloatVector::temporary(internal->layout(), "mixedPrecisionCg.x(internal)");
    P.toInternal(b.hi(), bi.mutableHi());
    P.toInternal(b.lo(), bi.mutableLo());
    P.toInternal(x.hi(), xi.mutableHi());
    P.toInternal(x.lo(), xi.mutableLo());
    DefectCorrection pairs;
    pairs.rightHandSideNorm = bNorm;
    pairs.defect = [&](stream::Vector& r) {
      internal->op.residualInDoubleFloat(bi, xi, r);
      return double(linalg::norm(r));
    };
    pairs.addCorrection = [&](const stream::Vector& c) { xi.add(c); };
    pairs.setSolutionZero = [&] { xi.setZero(); };
    RefinementStatus status =
        mixedPrecisionCg(internal->layout(), pairs, internal->op, options, cgOptions, internal->preconditioner());
    P.toUser(xi.hi(), x.mutableHi());
    P.toUser(xi.lo(), x.mutableLo());
    return status;
  }
  DefectCorrection pairs;
  pairs.rightHandSideNorm = bNorm;
  pairs.defect = [&](stream::Vector& r) {
    A.residualInDoubleFloat(b, x, r);
    return double(linalg::norm(r));
  };
  pairs.addCorrection = [&](const stream::Vector& c) { x.add(c); };
  pairs.setSolutionZero = [&] { x.setZero(); };
  return mixedPrecisionCg(b.layout(), pairs, A, options, cgOptions, M);
}

}  // namespace texstream::solvers
