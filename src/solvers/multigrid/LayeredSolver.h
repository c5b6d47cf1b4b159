#pragma once
// texstream::solvers::LayeredSolver: a solver of plain vectors (nx ny nodes, node (i, j) at
// i + nx j) run on layered fields of a LayeredGrid (LayeredGrid.h): solve(b, x) un-layers
// b and x, solves, and layers x back (border in sync). For callers that keep their fields
// layered, as the fluid's pressure (fluid/FluidSolver.h) does, with CG or Jacobi on the
// multigrid's own operator (a LayeredStencil is a LinearOperator of plain vectors);
// Multigrid::layeredSolver() is the multigrid itself on such fields.
//
//   LayeredSolver cg(mg.grid(), std::make_unique<ConjugateGradient>(mg.op(), &M));
//   SolverStatus s = cg.solve(mg.rhs(), mg.solution(), {.tolerance = 1e-6f});
#include <texstream/solvers/IterativeSolver.h>
#include <texstream/solvers/multigrid/LayeredGrid.h>

#include <memory>

namespace texstream::solvers {
inline namespace multigrid {

class LayeredSolver : public IterativeSolver {
 public:
  /// `plain` solves on vectors of grid.nodes() elements in Layout::forSize(grid.nodes()).
  LayeredSolver(const LayeredGrid& grid, std::unique_ptr<IterativeSolver> plain);

 protected:
  /// b and x: layered fields of the grid (gl::Error otherwise).
  SolverStatus run(const stream::Vector& b, stream::Vector& x, const IterativeOptions& options) override;

 private:
  LayeredGrid m_grid;
  std::unique_ptr<IterativeSolver> m_plain;
};

}  // namespace multigrid
}  // namespace texstream::solvers
