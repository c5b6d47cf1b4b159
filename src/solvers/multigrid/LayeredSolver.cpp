#include <texstream/solvers/multigrid/LayeredSolver.h>

#include <texstream/gl/StateGuard.h>
#include <texstream/stream/Layout.h>
#include <texstream/stream/Vector.h>

#include <stdexcept>
#include <utility>

namespace texstream::solvers {
inline namespace multigrid {

LayeredSolver::LayeredSolver(const LayeredGrid& grid, std::unique_ptr<IterativeSolver> plain)
    : m_grid(grid), m_plain(std::move(plain)) {
  if (!m_plain) throw std::invalid_argument("LayeredSolver: no solver given");
}

SolverStatus LayeredSolver::run(const stream::Vector& b, stream::Vector& x, const IterativeOptions& options) {
  m_grid.require("LayeredSolver::solve (b)", b);
  m_grid.require("LayeredSolver::solve (x)", x);
  gl::StateGuard guard;
  const stream::Layout plain = stream::Layout::forSize(m_grid.nodes());
  stream::Vector bPlain = stream::Vector::temporary(plain, "layered.b");
  stream::Vector xPlain = stream::Vector::temporary(plain, "layered.x");
  m_grid.unlayer(b, bPlain);
  m_grid.unlayer(x, xPlain);
  SolverStatus status = m_plain->solve(bPlain, xPlain, options);
  m_grid.layer(xPlain, x);
  return status;
}

}  // namespace multigrid
}  // namespace texstream::solvers
