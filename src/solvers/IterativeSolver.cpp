#include <texstream/solvers/IterativeSolver.h>

#include <texstream/solvers/SolverInputs.h>

namespace texstream::solvers {

IterationLimits resolveLimits(const std::string& solver, const IterativeOptions& options,
                              const IterationDefaults& defaults) {
  IterationLimits limits;
  limits.maxIterations = options.maxIterations.value_or(defaults.maxIterations);
  limits.checkEvery = options.checkEvery.value_or(defaults.checkEvery);
  requireIterationOptions(solver, options.tolerance, limits.maxIterations, limits.checkEvery);
  limits.fixed = options.fixedIterations;
  limits.tolerance = limits.fixed ? 0.0 : double(options.tolerance);
  return limits;
}

SolverStatus IterativeSolver::solve(const stream::Vector& b, stream::Vector& x, const IterativeOptions& options) {
  m_status = run(b, x, options);
  return m_status;
}

}  // namespace texstream::solvers
