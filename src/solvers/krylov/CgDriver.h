#pragma once
// What the CG algorithms of cg() (ConjugateGradient.h) share: the system and its state
// (CgSystem), the interface an algorithm implements (CgIteration: the paper's loop body),
// and the driver around it (CgDriver): the set-up r = b - A x, residual checks every
// checkEvery iterations (read blocking, or through a PBO and a fence), and the verdicts from
// the check texel under a residual policy:
//  - plain: the recurrence residual decides, checked once against b - A x
//    (IterativeOptions::checkTrueResidual; the verdict is the true residual's,
//    SolverStatus.h, holdToTrueResidual);
//  - restart on drift: where b - A x misses the tolerance the recurrence met, the iteration
//    restarts from it (IterativeOptions::restartOnDrift);
//  - replaced from a defect: each time the recurrence residual has fallen far enough, a
//    defect formed in higher precision (on the host, or in double-float pairs) replaces it
//    (the reliable updates of cg's mixed precision, MixedPrecisionCg.cpp; double-float CG,
//    DoubleFloatCg.cpp).
// A method whose verdicts are its own (those two, and CGLS's on the normal equations,
// Cgls.cpp) hands the driver a ResidualPolicy; the driver keeps the loop, the check
// schedule and the read-backs.
// The algorithms: ClassicCg.cpp (Krüger & Westermann; Bolz et al.), ChronopoulosGearCg.cpp,
// and the iterations of DoubleFloatCg.cpp and Cgls.cpp.
#include <texstream/solvers/IterativeSolver.h>
#include <texstream/solvers/Preconditioner.h>
#include <texstream/solvers/SolveRecorder.h>
#include <texstream/stream/Scalar.h>
#include <texstream/stream/Vector.h>

#include <array>
#include <cmath>
#include <memory>
#include <optional>
#include <string>

namespace texstream::linalg {
class LinearOperator;
}

namespace texstream::solvers {
inline namespace krylov {

/// A x = b with x the iterate; r = b - A x (the recurrence residual once iterating), z =
/// M^-1 r, and the sticky status code the 1x1 passes write (shaders/solvers/cg_status.glsl).
/// The codes of CG's status texel (mirrors shaders/solvers/cg_status.glsl).
enum CgStatusCode {
  kCgRunning = 0,
  kCgPqNotPositive = 1,
  kCgNonFinite = 2,
  kCgRhoZero = 3,
  kCgRhoNegative = 4,
  kCgStopped = 6,  ///< the set-up check ended the solve (solvers/cg_set_up_check.glsl)
};

/// The message for a failure the status texel recorded: `code` (not kCgRunning) at
/// iteration `when` with `value`; `preconditioner` quoted, as the messages name it.
/// kCgRhoZero reads "r^T M^-1 r = 0 with a non-zero residual" (cg() words it with the
/// residual it read).
std::string cgFailureMessage(int code, int when, double value, const std::string& preconditioner);

struct CgSystem {
  const linalg::LinearOperator& A;
  const stream::Vector& b;
  stream::Vector& x;
  const Preconditioner* M;                  ///< nullptr: plain CG
  const stream::Vector* inverseDiagonal;    ///< M's (Preconditioner::inverseDiagonal), or nullptr
  stream::Vector r, z;                      ///< z is empty without M
  stream::Scalar status;
  /// u = M^-1 r: z, or r itself without a preconditioner.
  stream::Vector& u() { return M ? z : r; }
};

/// One CG algorithm: its own vectors and scalars, and its loop body over a CgSystem.
class CgIteration {
 public:
  virtual ~CgIteration() = default;
  /// Starts from r and u = M^-1 r (the beginning, or a restart from the true residual):
  /// the first direction and whatever the next iteration, `next`, reads.
  virtual void start(int next) = 0;
  /// Iteration k: x, r and u updated; `last`: no iteration follows.
  virtual void iterate(int k, bool last) = 0;
  /// After iteration `next` - 1 (not a last one), r and u = M^-1 r were replaced by the
  /// true residual (reliable updates, MixedPrecisionCg.h): recomputes what depends on them
  /// and keeps the search direction, so the iteration goes on as CG, not from scratch.
  virtual void replaceResidual(int next) = 0;
  /// ||r||^2 of the current r, on the GPU, for a check.
  virtual const stream::Scalar& residualSquared() = 0;
  /// A check read blocking by the iteration itself, for one whose arithmetic the check
  /// texel of solvers/cg_check.glsl cannot carry (double-float CG: ||r||^2 as a pair); its
  /// ResidualPolicy reads it. nullopt: the driver's check texel.
  virtual std::optional<std::array<float, 4>> readCheck() { return std::nullopt; }

  /// Where the set-up may write r . u and ||r||^2 for start() (the compute backend's set-up
  /// sums them in the dispatch that forms r): both null where start() takes them itself.
  struct StartSums {
    stream::Scalar* ru = nullptr;
    stream::Scalar* rr = nullptr;
  };
  virtual StartSums startSums() { return {}; }
  /// start(next) after the set-up wrote startSums(): the same, without taking the sums again.
  virtual void startFromSetUpSums(int next) { start(next); }
};

/// Krüger & Westermann 2005, §44.3.2 (Bolz et al. 2003, §3.1): the fragment backend's loop.
std::unique_ptr<CgIteration> classicCg(CgSystem& system);
/// Chronopoulos & Gear 1989: one synchronisation point an iteration (the compute backend's).
std::unique_ptr<CgIteration> chronopoulosGearCg(CgSystem& system);

/// A residual policy of a method's own: what a check decides instead of the driver's
/// verdicts (reliable updates, double-float CG's replacements, CGLS's drift restart).
class ResidualPolicy {
 public:
  virtual ~ResidualPolicy() = default;
  /// The check texel (||r||^2, status code, iteration, value; or the iteration's own,
  /// CgIteration::readCheck) read after iteration k (the cap where `last`): a verdict, or
  /// nullopt to iterate on, having replaced the residual or restarted `it` where it decided
  /// to.
  virtual std::optional<Verdict> check(CgIteration& it, int k, bool last, const std::array<float, 4>& texel) = 0;
  /// The verdict when the cap ended the solve without one.
  virtual Verdict atCap(int cap) = 0;
};

class CgDriver {
 public:
  /// options: asynchronousCheck, checkTrueResidual and restartOnDrift. system: nullptr for
  /// an iteration that keeps its own vectors (double-float CG), which only
  /// iterate(it, policy) runs, with blocking checks.
  CgDriver(CgSystem* system, const IterationLimits& limits, const IterativeOptions& options, SolveRecorder& recorder);
  /// r = b - A x, u = M^-1 r and the set-up check, decided on the GPU
  /// (solvers/cg_set_up_decision.glsl): where the solve ends there (b = 0 or not finite, r
  /// not finite, x already converged) the status stops the iterations from moving x. Its
  /// read-back is asynchronous, so the GPU goes on to the first iterations without waiting
  /// for the CPU; iterate() takes its verdict. On the compute backend one dispatch after
  /// the product forms r (with u = r .* D^-1 for a diagonal M), sums ||b||^2, ||r||^2 and
  /// r . u, and decides (solvers/cg_set_up_reduce.glsl), handing `it` its start sums. A
  /// verdict here only without iterations to run (maxIterations = 0).
  std::optional<Verdict> setUp(CgIteration& it);
  /// Iterates `it` (after setUp) to a verdict.
  Verdict iterate(CgIteration& it);
  /// Iterates `it` from the state the caller set up (no setUp), `policy` deciding at each
  /// check and at the cap, which it checks whether or not it is due (unless the work is
  /// fixed); with asynchronousCheck a decision comes up to checkEvery iterations after the
  /// check it reads.
  Verdict iterate(CgIteration& it, ResidualPolicy& policy);
  /// The status of verdict `v` (SolveRecorder::finish), judged by the true residual where
  /// a convergence formed it: Stagnated at float precision where it misses the tolerance.
  SolverStatus finish(const Verdict& v);

 private:
  /// The set-up check's verdict from its texel (||b||^2, ||r0||^2, stopped): b = 0 or not
  /// finite, r0 not finite, or converged where the GPU stopped the solve; also ||b||^2 for
  /// the later checks and the residual at iteration 0.
  std::optional<Verdict> initialVerdict(const std::array<float, 4>& texel);
  /// Takes the set-up check's read-back once it has landed (or, with `wait`, waits for it);
  /// nullopt while it is in flight, once taken, or when the solve goes on.
  std::optional<Verdict> takeInitialCheck(bool wait);
  void enqueueCheck(CgIteration& it);
  /// The check texel after the current iteration, read blocking.
  std::array<float, 4> readCheck(CgIteration& it);
  std::optional<Verdict> evaluate(CgIteration& it, int at, int now, const std::array<float, 4>& texel);
  /// evaluate(), or the policy's check where there is one.
  std::optional<Verdict> judge(CgIteration& it, int at, int now, const std::array<float, 4>& texel);
  /// The true relative residual (kept for finish()); restarts `it` from it (once, with
  /// restartOnDrift) when it misses the tolerance.
  double confirmConvergence(CgIteration& it, int now, bool& restarted);
  void precondition();
  /// The set-up's passes on the fragment backend (and for operators without a fused one):
  /// the residual, two reductions and the 1x1 check.
  void setUpInPasses();
  /// The compute backend's: the product, then one reduction that also decides; true when
  /// it wrote `it`'s start sums (and, with a diagonal M, u).
  bool setUpFused(CgIteration& it);

  CgSystem* m_sys;
  IterationLimits m_limits;
  SolveRecorder& m_recorder;
  std::unique_ptr<stream::ScalarReadback> m_readback;
  std::unique_ptr<stream::ScalarReadback> m_initialCheck;  ///< in flight until iterate() takes it
  ResidualPolicy* m_policy = nullptr;
  stream::Scalar m_rr, m_check;
  double m_bnorm2 = 0;
  bool m_startSumsGiven = false;  ///< setUp wrote the iteration's start sums
  bool m_preconditioned = false;  ///< setUp wrote u = M^-1 r
  int m_restartsLeft;
  bool m_checkTrueResidual;
  double m_trueRelres = NAN;  ///< the last true residual a convergence formed
  double m_lastMiss = NAN;    ///< the true residual the last restart started from
  /// The recurrence residual the iteration stops at: the tolerance, less after a restart
  /// (the drift seen).
  double m_recurrenceTarget;
  const char* m_trueHow = "";  ///< how it was formed ("in double-float on the GPU")
};

}  // namespace krylov
}  // namespace texstream::solvers
