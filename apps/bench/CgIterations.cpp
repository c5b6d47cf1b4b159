#include "CgIterations.h"

#include <texstream/solvers/krylov/ConjugateGradient.h>

#include <stdexcept>

namespace texstream::bench {

Timing timeCgIterations(const linalg::LinearOperator& A, const stream::Vector& b, stream::Vector& x, int k, int checkEvery,
                        const TimingSpec& spec, const std::string& op, std::string* breakdown) {
  solvers::CgOptions options;
  options.tolerance = 0.0f;
  options.maxIterations = k;
  options.checkEvery = checkEvery;
  solvers::SolverStatus status;
  auto solve = [&] {
    x.setZero();
    status = solvers::cg(A, b, x, options);
  };
  // The solver reads its residual back: wall clock, GPU drained at both ends.
  Timing t = timeGl(solve, spec, /*gpuTimer=*/false);
  t.ms /= k;
  t.wallMs /= k;
  t.passes /= k;
  if (status.iterations != k)
    throw std::runtime_error(op + ": the solver stopped after " + std::to_string(status.iterations) + " of " +
                             std::to_string(k) + " iterations: " + status.message);
  // x is the solver's initial guess, so it starts at zero rather than poisoned.
  if (breakdown) {
    *breakdown = passBreakdown(solve);
  } else {
    solve();
  }
  return t;
}

}  // namespace texstream::bench
