#pragma once
// What the smooth demo tells a user whose step did not converge: what the mesh on screen
// now is, and which settings would help (issue 14: a real scan's thin features make mean
// curvature flow's step ill conditioned; the remedies are a smaller step, the
// conformalized flow of Kazhdan et al. 2012, mixed precision, Jacobi preconditioning).
// The same advice goes to stderr and the JSON report (in command-line options) and to the
// panel (in its controls' names).

#include "SmoothSettings.h"

#include <texstream/solvers/SolverStatus.h>

#include <string>
#include <vector>

namespace texstream::app {

/// The settings a user can change in the state a step ran with.
struct StepSettings {
  bool dsi = false;  ///< a DSI step (Mallet 1992) rather than curvature flow
  geometry::Flow flow = geometry::Flow::MeanCurvature;
  solvers::Precision precision = solvers::Precision::Single;
  bool jacobi = true;
  double lambdaDt = 0;
  double edgeLengthSquared = 1;  ///< h^2: the panel sets lambda dt / h^2
  float cgTolerance = 1e-6f;
  int cgMaxIterations = 1000;
  double dsiWeight = 1;
};

/// One setting worth changing, in both spellings.
struct StepRemedy {
  std::string option, value;            ///< command line: --option value
  std::string panelLabel, panelValue;   ///< the panel's control and the value to pick
  std::string why;
  /// "--option value (why)" or "set LABEL to VALUE (why)".
  std::string text(bool commandLine) const;
};

/// The remedies for a step that ended with `status`, most effective first; only settings
/// that differ from the current state. Empty for a converged step.
std::vector<StepRemedy> stepRemedies(const StepSettings& settings, const solvers::SolverStatus& status);

/// One paragraph for a step that did not converge: the step number, what the solver
/// reported, what the mesh shows now, and the remedies (as command-line options when
/// `commandLine`, else as panel controls). Empty for a converged step.
std::string stepAdvice(long long step, const StepSettings& settings, const solvers::SolverStatus& status,
                       bool commandLine);

}  // namespace texstream::app
