#include <texstream/solvers/IterativeSolver.h>

#include <texstream/solvers/SolverInputs.h>

#include <stdexcept>
#include <string>

namespace texstream::solvers {

IterationLimits resolveLimits(const std::string& solver, const IterativeOptions& options,
                              const IterationDefaults& defaults) {
  IterationLimits limits;
  limits.maxIterations = options.maxIterations.value_or(defaults.maxIterations);
  limits.checkEvery = options.checkEvery.value_or(defaults.checkEvery);
  requireIterationOptions(solver, options.tolerance, limits.maxIterations, limits.checkEvery);
  limits.firstCheck = options.firstCheck.value_or(1);
  if (limits.firstCheck < 1) {
    throw std::invalid_argument(solver + ": firstCheck must be >= 1, got " + std::to_string(limits.firstCheck));
  }
  limits.fixed = options.fixedIterations;
  limits.asynchronousCheck = options.asynchronousCheck.value_or(defaults.asynchronousCheck);
  limits.tolerance = limits.fixed ? 0.0 : double(options.tolerance);
  return limits;
}

SolverStatus IterativeSolver::solve(const stream::Vector& b, stream::Vector& x, const IterativeOptions& options) {
  m_status = run(b, x, options);
  return m_status;
}

}  // namespace texstream::solvers
