#include <texstream/solvers/multigrid/MultigridPreconditioner.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/solvers/multigrid/Multigrid.h>
#include <texstream/stream/Vector.h>

#include <stdexcept>

namespace texstream::solvers {
inline namespace multigrid {

MultigridPreconditioner::MultigridPreconditioner(Multigrid& mg, int cycles) : m_mg(&mg), m_cycles(cycles) {
  const MultigridOptions& o = mg.options();
  if (cycles < 1) throw std::invalid_argument("MultigridPreconditioner: cycles must be >= 1, got " + std::to_string(cycles));
  if (o.preSmoothing != o.postSmoothing || o.preSmoothing < 1)
    throw std::invalid_argument("MultigridPreconditioner(\"" + mg.name() + "\"): CG needs a symmetric cycle, got " +
                                std::to_string(o.preSmoothing) + " pre- and " + std::to_string(o.postSmoothing) +
                                " post-smoothing sweeps (use equal counts >= 1)");
}

std::string MultigridPreconditioner::name() const {
  const MultigridOptions& o = m_mg->options();
  return std::string("multigrid ") + cycleName(o.cycle) + "(" + std::to_string(o.preSmoothing) + "," +
         std::to_string(o.postSmoothing) + ")" + (m_cycles > 1 ? " x" + std::to_string(m_cycles) : "");
}

void MultigridPreconditioner::apply(const stream::Vector& r, stream::Vector& z) const {
  gl::StateGuard guard;
  const LayeredGrid& g = m_mg->grid(0);
  if (r.size() != g.nodes() || z.size() != g.nodes())
    throw gl::Error("MultigridPreconditioner(\"" + m_mg->name() + "\"): r \"" + r.name() + "\" has n=" +
                    std::to_string(r.size()) + ", z \"" + z.name() + "\" n=" + std::to_string(z.size()) +
                    ", the grid " + std::to_string(g.nodes()) + " nodes");
  g.layer(r, m_mg->rhs());
  for (int c = 0; c < m_cycles; ++c) m_mg->cycle(c == 0);
  g.unlayer(m_mg->solution(), z);
}

}  // namespace multigrid
}  // namespace texstream::solvers
