// Bolz et al. 2003, §4.2: "Matrix Vector Multiply" on the layered layout.
#include <texstream/solvers/LayeredStencil.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/stream/Pass.h>

#include <stdexcept>

namespace texstream::solvers {

LayeredStencil::LayeredStencil(const LayeredGrid& grid, std::string name) : m_grid(grid), m_name(std::move(name)) {
  for (int e = 0; e < 9; ++e) m_entries[std::size_t(e)] = stream::Vector(grid.layout(), m_name + ".A" + std::to_string(e));
}

LayeredStencil LayeredStencil::upload(const GridStencil& A, const LayeredGrid& grid) {
  if (A.nx() != grid.nx() || A.ny() != grid.ny())
    throw std::invalid_argument("LayeredStencil::upload(\"" + A.name() + "\"): stencil of " + std::to_string(A.nx()) +
                                "x" + std::to_string(A.ny()) + " nodes on a grid of " + grid.describe());
  A.validate();
  LayeredStencil s(grid, A.name());
  for (int e = 0; e < 9; ++e) s.m_entries[std::size_t(e)].upload(grid.layerHost(A.entry(e)));
  return s;
}

GridStencil LayeredStencil::download() const {
  GridStencil A(m_grid.nx(), m_grid.ny(), m_name);
  for (int e = 0; e < 9; ++e) A.entry(e) = m_grid.unlayerHost(m_entries[std::size_t(e)].download());
  return A;
}

void LayeredStencil::syncBorder() {
  m_grid.syncBorder({&m_entries[0], &m_entries[1], &m_entries[2], &m_entries[3]});
  m_grid.syncBorder({&m_entries[4], &m_entries[5], &m_entries[6], &m_entries[7]});
  m_grid.syncBorder({&m_entries[8]});
}

void LayeredStencil::bind(stream::Pass& pass) const {
  for (int e = 0; e < 9; ++e) pass.input("u_A" + std::to_string(e), m_entries[std::size_t(e)]);
}

void LayeredStencil::applyLayered(const stream::Vector& x, stream::Vector& y) const {
  gl::StateGuard guard;
  m_grid.require("LayeredStencil::applyLayered", x);
  m_grid.require("LayeredStencil::applyLayered", y);
  if (&x == &y) throw gl::Error("LayeredStencil(\"" + m_name + "\")::applyLayered: y must not be x");
  stream::Pass pass("multigrid/stencil_apply");
  m_grid.bind(pass);
  bind(pass);
  pass.input("u_x", x).output(y).label("mg stencil apply").run();
}

void LayeredStencil::apply(const stream::Vector& x, stream::Vector& y) const {
  gl::StateGuard guard;
  if (x.size() != rows() || y.size() != rows())
    throw gl::Error("LayeredStencil(\"" + m_name + "\")::apply: x \"" + x.name() + "\" has n=" +
                    std::to_string(x.size()) + ", y \"" + y.name() + "\" n=" + std::to_string(y.size()) +
                    ", the grid " + std::to_string(rows()) + " nodes");
  if (&x == &y) throw gl::Error("LayeredStencil(\"" + m_name + "\")::apply: y must not be x");
  stream::Vector xl = stream::Vector::temporary(m_grid.layout(), m_name + ".x");
  stream::Vector yl = stream::Vector::temporary(m_grid.layout(), m_name + ".y");
  m_grid.layer(x, xl);
  applyLayered(xl, yl);
  m_grid.unlayer(yl, y);
}

void LayeredStencil::diagonal(stream::Vector& d) const {
  gl::StateGuard guard;
  if (d.size() != rows())
    throw gl::Error("LayeredStencil(\"" + m_name + "\")::diagonal: vector \"" + d.name() + "\" has n=" +
                    std::to_string(d.size()) + ", the grid " + std::to_string(rows()) + " nodes");
  stream::Vector ones = stream::Vector::temporary(m_grid.layout(), m_name + ".ones");
  stream::Pass("multigrid/diagonal")
      .input("u_centre", centre())
      .output(ones)
      .label("mg diagonal")
      .run();
  m_grid.unlayer(ones, d);
}

double LayeredStencil::bytesPerApply() const {
  const double texels = double(m_grid.width()) * double(m_grid.height());
  return texels * 16.0 * (9.0 + 1.0 + 1.0);
}

}  // namespace texstream::solvers
