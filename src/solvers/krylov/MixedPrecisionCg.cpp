// Mixed-precision CG with reliable updates (MixedPrecisionCg.h): the float iteration of
// either CG algorithm (the classic loop on the fragment backend, Chronopoulos-Gear on the
// compute backend) under CgDriver, whose checks go to ReliableUpdates: the "replaced from a
// defect" residual policy, which replaces the recurrence residual by the true one as it
// falls (Sleijpen & van der Vorst 1996; van der Vorst & Ye 2000).
#include <texstream/solvers/krylov/MixedPrecisionCg.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/DoubleFloatVector.h>
#include <texstream/linalg/LinearOperator.h>
#include <texstream/linalg/OperatorShapes.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/solvers/krylov/CgDriver.h>
#include <texstream/solvers/krylov/InternalOrder.h>
#include <texstream/solvers/SolverInputs.h>
#include <texstream/stream/Runtime.h>
#include <texstream/stream/Scalar.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <stdexcept>

namespace texstream::solvers {
inline namespace krylov {

namespace {

// The residual policy of mixed precision: the float iteration's x_f and r, and the
// solution in the higher precision that each replacement moves x_f into.
class ReliableUpdates final : public ResidualPolicy {
 public:
  ReliableUpdates(CgSystem& system, const DefectCorrection& target, double tolerance, const RefinementOptions& updates,
                  const CgOptions& options, RefinementRecorder& recorder)
      : m_s(system), m_target(target), m_tolerance(tolerance), m_updates(updates), m_onCheck(options.onCheck),
        m_recorder(recorder), m_preconditioner(quoted(system.M ? system.M->name() : "")) {}

  /// The true residual ||b - A x|| / ||b|| into r (the relative one, b = 0 aside).
  double defect() {
    const double bNorm = m_target.rightHandSideNorm;
    const double rNorm = m_target.defect(m_s.r);
    return bNorm > 0 ? rNorm / bNorm : rNorm;
  }
  void setRelative(double relative) { m_relative = relative; }

  std::optional<Verdict> check(CgIteration& it, int k, bool last, const std::array<float, 4>& texel) override;

  Verdict atCap(int cap) override {
    return {Outcome::MaxIterations, cap,
            "relative residual " + formatNumber(m_relative) + " after " + std::to_string(cap) +
                " iterations, above the tolerance " + formatNumber(m_tolerance)};
  }

 private:
  CgSystem& m_s;
  const DefectCorrection& m_target;
  double m_tolerance;
  const RefinementOptions& m_updates;
  const std::function<void(int, double)>& m_onCheck;
  RefinementRecorder& m_recorder;
  std::string m_preconditioner;
  double m_relative = 0;  ///< the last true residual
  int m_lastReplacement = 0, m_slowSteps = 0;
  std::string m_lastFailure;  ///< why the last step restarted, if it did
  bool m_lastFailureNonFinite = false;
};

std::optional<Verdict> ReliableUpdates::check(CgIteration& it, int k, bool last, const std::array<float, 4>& texel) {
  RefinementStatus& status = m_recorder.status();
  const int code = int(std::lround(texel[1]));
  const double recurrence = std::sqrt(double(texel[0])) / m_target.rightHandSideNorm;
  const bool nonFinite = code == kCgNonFinite || !std::isfinite(recurrence);
  // A failure (a breakdown, r^T M^-1 r = 0, a non-finite value) ends the float iteration
  // here: on a system CG has solved to float's floor between two checks, or one whose
  // float rounding is not SPD any more. The defect decides what it gained, and the
  // iteration restarts from the true residual.
  if (m_onCheck && !nonFinite) m_onCheck(k, recurrence);
  const bool failed = code != kCgRunning || nonFinite;
  const bool due = recurrence <= std::max(m_updates.innerTolerance * m_relative, 0.5 * m_tolerance);
  if (!due && !failed && !last) return std::nullopt;

  // Move x_f into the solution (unless it may hold non-finite values: after a recorded
  // failure alpha is 0, so x_f stays where the iteration was still sound) and form the
  // true residual.
  stream::Vector& xf = m_s.x;
  if (!nonFinite) m_target.addCorrection(xf);
  const double before = m_relative;
  m_relative = defect();
  const int inner = k - m_lastReplacement;
  m_lastReplacement = k;
  status.innerIterations.push_back(inner);
  status.iterations = k;
  m_lastFailure.clear();
  if (code != kCgRunning) m_lastFailure = cgFailureMessage(code, int(std::lround(texel[2])), texel[3], m_preconditioner);
  else if (nonFinite) m_lastFailure = cgFailureMessage(kCgNonFinite, k, texel[0], m_preconditioner);
  m_lastFailureNonFinite = nonFinite;
  bool worse = false;
  if (!nonFinite && !(m_relative < before) && std::isfinite(m_relative) && m_relative > m_tolerance) {
    // The correction made things worse: undo it.
    linalg::scale(-1.0f, xf);
    m_target.addCorrection(xf);
    m_relative = defect();
    worse = true;
    if (m_lastFailure.empty()) m_lastFailure = "the float iteration's correction raised the true residual, and was undone";
  }
  xf.setZero();
  m_recorder.record(k, inner, m_relative);
  if (!std::isfinite(m_relative))
    return Verdict{Outcome::NonFinite, k, "the true residual became non-finite at iteration " + std::to_string(k)};
  if (m_relative <= m_tolerance) {
    return Verdict{Outcome::Converged, k,
                   "relative residual " + formatNumber(m_relative) + " after " + std::to_string(k) + " iterations, " +
                       std::to_string(status.outerSteps()) + " residual replacements" +
                       (status.restarts ? ", " + std::to_string(status.restarts) + " restart(s)" : "")};
  }
  m_slowSteps = m_relative > m_updates.minimumReduction * before ? m_slowSteps + 1 : 0;
  if (m_slowSteps >= 2) {
    const std::string reached = "relative residual " + formatNumber(m_relative) + " after " + std::to_string(k) +
                                " iterations (tolerance " + formatNumber(m_tolerance) + ")";
    if (m_lastFailure.empty() || worse)
      return Verdict{Outcome::Stagnated, k, "stagnated at " + reached + (worse ? ": " + m_lastFailure : "")};
    return Verdict{m_lastFailureNonFinite ? Outcome::NonFinite : Outcome::Breakdown, k,
                   m_lastFailure + "; no progress after a restart, " + reached};
  }
  if (status.outerSteps() >= m_updates.maxOuterSteps && !last) {
    return Verdict{Outcome::MaxIterations, k,
                   "relative residual " + formatNumber(m_relative) + " after " + std::to_string(m_updates.maxOuterSteps) +
                       " residual replacements (maxOuterSteps), above the tolerance " + formatNumber(m_tolerance)};
  }
  if (last) return std::nullopt;
  if (m_s.M) m_s.M->apply(m_s.r, m_s.z);
  if (failed || worse) {
    m_s.status.write4({0.0f, 0.0f, 0.0f, 0.0f});  // a fresh start: no code from before it
    ++status.restarts;
    it.start(k + 1);
  } else {
    it.replaceResidual(k + 1);
  }
  return std::nullopt;
}

}  // namespace

RefinementStatus cg(const stream::Layout& layout, const DefectCorrection& target, const linalg::LinearOperator& A,
                    const CgOptions& options, const Preconditioner* M, const RefinementOptions& updates) {
  const std::string where = "cg(" + quoted(A.name()) + ") in mixed precision";
  validateRefinementOptions(where, options.tolerance, updates);
  if (!target.defect || !target.addCorrection || !target.setSolutionZero)
    throw std::invalid_argument(where + ": the defect correction lacks one of its three calls");
  if (A.rows() != A.cols() || A.rows() != layout.size()) {
    throw gl::Error(where + ": the operator is " + std::to_string(A.rows()) + "x" + std::to_string(A.cols()) +
                    ", the vectors have " + std::to_string(layout.size()) + " elements");
  }
  CgOptions limitsOptions = options;
  limitsOptions.fixedIterations = false;
  const IterationLimits limits = resolveLimits(where, limitsOptions, kMixedPrecisionCgDefaults);
  const double tolerance = options.tolerance;
  if (M && M->isIdentity()) M = nullptr;
  const stream::Vector* inverseDiagonal = M ? M->inverseDiagonal() : nullptr;

  gl::StateGuard guard;
  stream::BackendScope backendScope(options.backend);
  stream::Runtime& runtime = stream::Runtime::current();
  runtime.requireBackend(runtime.backend());
  if (inverseDiagonal && inverseDiagonal->layout() != layout) {
    throw gl::Error(where + ": the preconditioner's inverse diagonal has " + inverseDiagonal->layout().describe() +
                    ", the vectors " + layout.describe());
  }
  RefinementRecorder recorder(where, updates.onStep);
  RefinementStatus& status = recorder.status();

  // x_f, the float iterate, is the correction the next replacement adds to the solution; b
  // is not read (the defect is the caller's).
  stream::Vector xf = stream::Vector::temporary(layout, "cg.x(mixed)");
  CgSystem system{A, xf, xf, M, inverseDiagonal, stream::Vector::temporary(layout, "cg.r(mixed)"), {},
                  stream::Scalar::temporary("cg.status(mixed)")};
  if (M) system.z = stream::Vector::temporary(layout, "cg.z(mixed)");
  ReliableUpdates policy(system, target, tolerance, updates, options, recorder);

  double relative = policy.defect();
  policy.setRelative(relative);
  recorder.record(0, 0, relative);
  if (!std::isfinite(relative)) return recorder.finish(Outcome::NonFinite, "the initial residual is not finite");
  if (target.rightHandSideNorm == 0) {
    target.setSolutionZero();
    status.relativeResidual = 0;
    return recorder.finish(Outcome::Converged, "b = 0, x = 0");
  }
  if (relative <= tolerance) {
    return recorder.finish(Outcome::Converged,
                           "the initial guess already meets the tolerance (" + formatNumber(relative) + ")");
  }

  xf.setZero();
  system.status.write4({0.0f, 0.0f, 0.0f, 0.0f});
  if (M) M->apply(system.r, system.z);
  const std::unique_ptr<CgIteration> it =
      runtime.backend() == stream::Backend::Compute ? chronopoulosGearCg(system) : classicCg(system);
  // The driver's own recorder takes no check: the policy records the true residuals.
  SolveRecorder unused(where, nullptr, false);
  CgDriver driver(&system, limits, options, unused);
  const Verdict verdict = driver.iterate(*it, policy);
  return recorder.finish(verdict.outcome, verdict.message);
}

RefinementStatus cg(const linalg::LinearOperator& A, const linalg::DoubleFloatVector& b, linalg::DoubleFloatVector& x,
                    const CgOptions& options, const Preconditioner* M, const RefinementOptions& updates) {
  const std::string where = "cg(" + quoted(A.name()) + ") in mixed precision";
  linalg::requireSquare(where, A);
  if (b.size() != A.rows() || x.size() != A.cols() || b.layout() != x.layout()) {
    throw gl::Error(where + ": b (\"" + b.name() + "\", " + std::to_string(b.size()) + " elements, " +
                    b.layout().describe() + ") and x (\"" + x.name() + "\", " + std::to_string(x.size()) +
                    " elements, " + x.layout().describe() + ") must both have the operator's " +
                    std::to_string(A.rows()) + " elements in one layout");
  }
  if (M && M->isIdentity()) M = nullptr;
  gl::StateGuard guard;
  stream::BackendScope backendScope(options.backend);

  if (std::optional<InternalOrder> internal = internalOrderFor(A, M, "cg")) {
    // The whole solve in the matrix's internal order: the pairs gathered once each way.
    const linalg::PermutedMatrix& P = *internal->matrix;
    using linalg::DoubleFloatVector;
    DoubleFloatVector bi = DoubleFloatVector::temporary(internal->layout(), "cg.b(internal)");
    DoubleFloatVector xi = DoubleFloatVector::temporary(internal->layout(), "cg.x(internal)");
    P.toInternal(b.hi(), bi.mutableHi());
    P.toInternal(b.lo(), bi.mutableLo());
    P.toInternal(x.hi(), xi.mutableHi());
    P.toInternal(x.lo(), xi.mutableLo());
    DefectCorrection pairs = pairDefectCorrection(internal->op, bi, xi);
    pairs.rightHandSideNorm = double(linalg::norm(b.hi()));  // summed in the user's order, as below
    RefinementStatus status = cg(internal->layout(), pairs, internal->op, options, internal->preconditioner(), updates);
    P.toUser(xi.hi(), x.mutableHi());
    P.toUser(xi.lo(), x.mutableLo());
    return status;
  }
  return cg(b.layout(), pairDefectCorrection(A, b, x), A, options, M, updates);
}

}  // namespace krylov
}  // namespace texstream::solvers
