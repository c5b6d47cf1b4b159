#include "StepAdvice.h"

#include <cstdio>

namespace texstream::app {

namespace {

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", v);
  return text;
}

/// Whether CG was still converging when the cap stopped it: its residual fell more than
/// tenfold over the second half of its iterations (then a larger cap is the first remedy;
/// otherwise the step's system is what needs changing).
bool stillFalling(const solvers::SolverStatus& status) {
  const std::vector<double>& r = status.residualHistory;
  const std::vector<int>& at = status.checkedAt;
  if (r.size() < 2 || at.size() != r.size()) return false;
  std::size_t half = 0;
  while (half + 1 < at.size() && at[half + 1] <= at.back() / 2) ++half;
  return r.back() < 0.1 * r[half];
}

}  // namespace

std::vector<std::string> stepRemedies(const StepSettings& s, const solvers::SolverStatus& status) {
  using solvers::Outcome;
  std::vector<std::string> remedies;
  if (status.converged()) return remedies;
  const bool matrixFailed = status.outcome == Outcome::Breakdown || status.outcome == Outcome::NonFinite;
  const bool stalled = status.outcome == Outcome::Stagnated;

  if (s.dsi) {
    // DSI's system is fixed by the mesh and the data weight; only the solve can change.
    if (status.outcome == Outcome::MaxIterations)
      remedies.push_back("cg-max-iter " + std::to_string(s.cgMaxIterations * 4) + " (now " +
                         std::to_string(s.cgMaxIterations) + ")");
    remedies.push_back("dsi-weight " + number(s.dsiWeight * 10) +
                       " (data rows make the least-squares system better conditioned; now " + number(s.dsiWeight) + ")");
    if (stalled) remedies.push_back("cg-tol " + number(s.cgTolerance * 10) + " (float CG stalls below it; now " +
                                    number(s.cgTolerance) + ")");
    return remedies;
  }

  const bool capFirst = status.outcome == Outcome::MaxIterations && stillFalling(status);
  const std::string largerCap = "cg-max-iter " + std::to_string(s.cgMaxIterations * 4) + " (" +
                                (capFirst ? "CG was still converging at the cap; " : "") + "now " +
                                std::to_string(s.cgMaxIterations) + ")";
  if (capFirst) remedies.push_back(largerCap);
  if (s.flow == geometry::Flow::MeanCurvature)
    remedies.push_back("flow cmcf (the conformalized flow keeps the first step's stiffness, so thin features do not "
                       "pinch into a singular system)");
  if (!s.jacobi && !matrixFailed)
    remedies.push_back("precond jacobi (real scans' diagonals vary by orders of magnitude)");
  if (s.precision == solvers::Precision::Single && !matrixFailed)
    remedies.push_back("precision mixed (reaches the tolerance where float CG stalls on an ill-conditioned step)");
  remedies.push_back("dt " + number(s.lambdaDt / 4) + " (a smaller step keeps the system well conditioned; now " +
                     number(s.lambdaDt) + ")");
  if (status.outcome == Outcome::MaxIterations && !capFirst) remedies.push_back(largerCap);
  if (stalled && s.precision == solvers::Precision::Mixed)
    remedies.push_back("cg-tol " + number(s.cgTolerance * 10) + " (now " + number(s.cgTolerance) + ")");
  return remedies;
}

std::string stepAdvice(long long step, const StepSettings& s, const solvers::SolverStatus& status, bool commandLine) {
  const std::vector<std::string> remedies = stepRemedies(s, status);
  if (status.converged()) return {};
  std::string text = "step " + std::to_string(step) + " did not converge (" + solvers::outcomeName(status.outcome) +
                     ", |r|/|b| = " + number(status.relativeResidual) + " after " + std::to_string(status.iterations) +
                     " iterations, tolerance " + number(s.cgTolerance) + "); ";
  text += status.outcome == solvers::Outcome::NonFinite
              ? "the step was undone, the mesh is the previous step's."
              : "the mesh shows where CG stopped, not the step's solution.";
  if (!remedies.empty()) {
    text += " Try ";
    for (std::size_t i = 0; i < remedies.size(); ++i) {
      if (i > 0) text += i + 1 == remedies.size() ? ", or " : ", ";
      text += (commandLine ? "--" : "") + remedies[i];
    }
    text += ".";
  }
  return text;
}

}  // namespace texstream::app
