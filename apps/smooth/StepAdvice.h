#pragma once
// What the smooth demo tells a user whose step did not converge: what the mesh on screen
// now is, and which settings would help (issue 14: a real scan's thin features make mean
// curvature flow's step ill conditioned; the remedies are a smaller step, the
// conformalized flow of Kazhdan et al. 2012, mixed precision, Jacobi preconditioning).
// The same text goes to the panel, to stderr and to the JSON report.

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
  float cgTolerance = 1e-6f;
  int cgMaxIterations = 1000;
  double dsiWeight = 1;
};

/// Remedies worth trying after a step that ended with `status`, most effective first, each
/// as "SETTING VALUE (why)" with SETTING a key of describeSmoothSettings (a command-line
/// option without its dashes, a panel row); only settings that differ from the current
/// state. Empty for a converged step.
std::vector<std::string> stepRemedies(const StepSettings& settings, const solvers::SolverStatus& status);

/// One paragraph for a step that did not converge: the step number, what the solver
/// reported, what the mesh shows now, and the remedies ("--" before each setting when
/// `commandLine`). Empty for a converged step.
std::string stepAdvice(long long step, const StepSettings& settings, const solvers::SolverStatus& status,
                       bool commandLine);

}  // namespace texstream::app
