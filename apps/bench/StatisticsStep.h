#pragma once
// The correctness check of the fluid cases (FluidBench.cpp, Fluid3DBench.cpp): one step
// with the solver's statistics on (divergence and residuals read back), then the
// statistics off again, so that the timed steps read nothing back.

namespace texstream::bench {

/// One step of `solver` (fluid::FluidSolver, FluidSolver3D) with statistics; its stats.
template <class Solver>
auto statisticsStep(Solver& solver) {
  auto checked = solver.parameters();
  checked.statistics = true;
  solver.setParameters(checked);
  solver.step();
  const auto stats = solver.lastStats();
  checked.statistics = false;
  solver.setParameters(checked);
  return stats;
}

}  // namespace texstream::bench
