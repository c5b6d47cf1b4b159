#include <texstream/solvers/SolveRecorder.h>

#include <glad/gl.h>

#include <utility>

namespace texstream::solvers {

SolveRecorder::SolveRecorder(std::string where, std::function<void(int, double)> onCheck, bool waitForGpu)
    : m_where(std::move(where)), m_onCheck(std::move(onCheck)), m_waitForGpu(waitForGpu),
      m_start(std::chrono::steady_clock::now()) {}

void SolveRecorder::record(int iteration, double relres) {
  m_status.residualHistory.push_back(relres);
  m_status.checkedAt.push_back(iteration);
  m_status.relativeResidual = relres;
  if (m_onCheck) m_onCheck(iteration, relres);
}

SolverStatus SolveRecorder::finish(Outcome outcome, int iterations, const std::string& message) {
  if (m_waitForGpu) glFinish();  // the time includes the GPU work
  m_status.outcome = outcome;
  m_status.iterations = iterations;
  m_status.solver = m_where;
  m_status.message = m_where + ": " + message;
  m_status.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - m_start).count();
  return m_status;
}

}  // namespace texstream::solvers
