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

StepRemedy largerCap(const StepSettings& s, bool stillConverging) {
  const std::string value = std::to_string(s.cgMaxIterations * 4);
  return {"max-iterations", value, "CG iteration cap", value,
          std::string(stillConverging ? "CG was still converging at the cap; " : "") + "now " +
              std::to_string(s.cgMaxIterations)};
}

StepRemedy looserTolerance(const StepSettings& s, const std::string& why) {
  const std::string value = number(s.cgTolerance * 10);
  return {"tolerance", value, "CG tolerance", value, why + "now " + number(s.cgTolerance)};
}

}  // namespace

std::string StepRemedy::text(bool commandLine) const {
  return (commandLine ? "--" + option + " " + value : "set " + panelLabel + " to " + panelValue) + " (" + why + ")";
}

std::vector<StepRemedy> stepRemedies(const StepSettings& s, const solvers::SolverStatus& status) {
  using solvers::Outcome;
  std::vector<StepRemedy> remedies;
  if (status.converged()) return remedies;
  const bool matrixFailed = status.outcome == Outcome::Breakdown || status.outcome == Outcome::NonFinite;
  const bool stalled = status.outcome == Outcome::Stagnated;

  if (s.dsi) {
    // DSI's system is fixed by the mesh and the data weight; only the solve can change.
    if (status.outcome == Outcome::MaxIterations) remedies.push_back(largerCap(s, false));
    const std::string weight = number(s.dsiWeight * 10);
    remedies.push_back({"dsi-weight", weight, "DSI data weight", weight,
                        "data rows make the least-squares system better conditioned; now " + number(s.dsiWeight)});
    if (stalled) remedies.push_back(looserTolerance(s, "float CG stalls below it; "));
    return remedies;
  }

  const bool capFirst = status.outcome == Outcome::MaxIterations && stillFalling(status);
  if (capFirst) remedies.push_back(largerCap(s, true));
  if (s.flow == geometry::Flow::MeanCurvature)
    remedies.push_back({"flow", "cmcf", "flow", "conformalized (cMCF)",
                        "the conformalized flow keeps the first step's stiffness, so thin features do not pinch into "
                        "a singular system"});
  if (!s.jacobi && !matrixFailed)
    remedies.push_back({"precond", "jacobi", "preconditioner", "Jacobi", "real scans' diagonals vary by orders of magnitude"});
  if (s.precision == solvers::Precision::Single && !matrixFailed)
    remedies.push_back({"precision", "mixed", "precision", "mixed",
                        "reaches the tolerance where float CG stalls on an ill-conditioned step"});
  const double scale = s.lambdaDt / s.edgeLengthSquared;
  remedies.push_back({"dt", number(s.lambdaDt / 4), "lambda dt / h^2", number(scale / 4),
                      "a smaller step keeps the system well conditioned; now " + number(s.lambdaDt) + " = " +
                          number(scale) + " h^2"});
  if (status.outcome == Outcome::MaxIterations && !capFirst) remedies.push_back(largerCap(s, false));
  if (stalled && s.precision == solvers::Precision::Mixed) remedies.push_back(looserTolerance(s, ""));
  return remedies;
}

std::string stepAdvice(long long step, const StepSettings& s, const solvers::SolverStatus& status, bool commandLine) {
  const std::vector<StepRemedy> remedies = stepRemedies(s, status);
  if (status.converged()) return {};
  std::string text = "step " + std::to_string(step) + " did not converge (" + solvers::outcomeName(status.outcome) +
                     ", |r|/|b| = " + number(status.relativeResidual) + " after " + std::to_string(status.iterations) +
                     " iterations, tolerance " + number(s.cgTolerance) + "); ";
  text += status.outcome == solvers::Outcome::NonFinite
              ? "the step was undone, the mesh is the previous step's."
              : "the mesh shows where CG stopped, not the step's solution.";
  if (!remedies.empty()) {
    text += " Try: ";
    for (std::size_t i = 0; i < remedies.size(); ++i) {
      if (i > 0) text += i + 1 == remedies.size() ? ", or " : ", ";
      text += remedies[i].text(commandLine);
    }
    text += ".";
  }
  return text;
}

}  // namespace texstream::app
