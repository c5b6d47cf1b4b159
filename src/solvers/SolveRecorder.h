#pragma once
// texstream::solvers::SolveRecorder: how every iterative solver (cg, jacobi,
// enhancedBlockJacobi, Multigrid) fills its SolverStatus, in one place: each check goes
// into the residual history and to the caller's onCheck; finishing waits for the GPU
// (unless the solve read nothing back: fixed work that stays asynchronous) and stamps the
// outcome, the iteration count, "where: message" and the wall time since the recorder was
// made.
#include <texstream/solvers/SolverStatus.h>

#include <chrono>
#include <functional>
#include <string>

namespace texstream::solvers {

/// How a solve ended: what a solver's loop hands to SolveRecorder::finish.
struct Verdict {
  Outcome outcome;
  int iterations;
  std::string message;
};

class SolveRecorder {
 public:
  /// where: "cg(\"A\")" and the like, the prefix of the message; onCheck may be empty.
  /// waitForGpu = false: finish() does not wait for the GPU (a solve with no read-back,
  /// whose passes may still run after it returns).
  SolveRecorder(std::string where, std::function<void(int, double)> onCheck, bool waitForGpu = true);

  /// A check: relres joins the history (at `iteration`), becomes relativeResidual and goes
  /// to onCheck.
  void record(int iteration, double relres);
  /// glFinish (waitForGpu), then the status with outcome, iterations, "where: message" and
  /// the time.
  SolverStatus finish(Outcome outcome, int iterations, const std::string& message);
  SolverStatus finish(const Verdict& v) { return finish(v.outcome, v.iterations, v.message); }
  /// The status being built (for fields a solver sets itself: restarts, a NaN residual).
  SolverStatus& status() { return m_status; }

 private:
  std::string m_where;
  std::function<void(int, double)> m_onCheck;
  bool m_waitForGpu;
  std::chrono::steady_clock::time_point m_start;
  SolverStatus m_status;
};

}  // namespace texstream::solvers
