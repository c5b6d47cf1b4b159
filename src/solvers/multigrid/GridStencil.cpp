// Bolz et al. 2003, §4: a 3x3 stencil per grid node; finite-volume Neumann boundaries.
#include <texstream/solvers/multigrid/GridStencil.h>

#include <cmath>
#include <stdexcept>

namespace texstream::solvers {
inline namespace multigrid {

const char* boundaryName(Boundary b) { return b == Boundary::Dirichlet ? "dirichlet" : "neumann"; }

GridStencil::GridStencil(int nx, int ny, std::string name) : m_nx(nx), m_ny(ny), m_name(std::move(name)) {
  if (nx < 2 || ny < 2)
    throw std::invalid_argument("GridStencil(\"" + m_name + "\"): a grid needs at least 2x2 nodes (got " +
                                std::to_string(nx) + "x" + std::to_string(ny) + ")");
  for (auto& e : m_entries) e.assign(nodes(), 0.0f);
}

GridStencil GridStencil::poisson(int nx, int ny, const GridBoundaries& bc, std::string name) {
  return helmholtz(nx, ny, 0.0, bc, std::move(name));
}

GridStencil GridStencil::helmholtz(int nx, int ny, double sigmaH2, const GridBoundaries& bc, std::string name) {
  if (!(sigmaH2 >= 0.0) || !std::isfinite(sigmaH2))
    throw std::invalid_argument("GridStencil::helmholtz(\"" + name + "\"): sigma h^2 must be finite and >= 0 (got " +
                                std::to_string(sigmaH2) + ")");
  GridStencil s(nx, ny, std::move(name));
  s.m_bc = bc;
  s.m_fromBuilder = true;
  auto dirichletNode = [&](int i, int j) {
    return (i == 0 && bc.west == Boundary::Dirichlet) || (i == nx - 1 && bc.east == Boundary::Dirichlet) ||
           (j == 0 && bc.south == Boundary::Dirichlet) || (j == ny - 1 && bc.north == Boundary::Dirichlet);
  };
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      if (dirichletNode(i, j)) continue;  // fixed: zero stencil
      // Cell extent in x and y (Neumann sides cut the cell in half); a link's coefficient
      // is minus the length of the face it crosses.
      const double wx = (i == 0 || i == nx - 1) ? 0.5 : 1.0, wy = (j == 0 || j == ny - 1) ? 0.5 : 1.0;
      double centre = sigmaH2 * wx * wy;
      auto link = [&](int dx, int dy, double length) {
        const int a = i + dx, b = j + dy;
        if (a < 0 || a >= nx || b < 0 || b >= ny) return;
        s.setCoefficient(i, j, dx, dy, float(-length));
        centre += length;
      };
      link(-1, 0, wy);
      link(1, 0, wy);
      link(0, -1, wx);
      link(0, 1, wx);
      s.setCoefficient(i, j, 0, 0, float(centre));
    }
  return s;
}

void GridStencil::fix(int i, int j) {
  for (auto& e : m_entries) e[index(i, j)] = 0.0f;
}

std::size_t GridStencil::freeNodes() const {
  std::size_t n = 0;
  for (float c : m_entries[4]) n += c != 0.0f;
  return n;
}

double GridStencil::cellWeight(int i, int j) const {
  const auto& bc = m_bc;
  double w = 1.0;
  if ((i == 0 && bc.west == Boundary::Neumann) || (i == m_nx - 1 && bc.east == Boundary::Neumann)) w *= 0.5;
  if ((j == 0 && bc.south == Boundary::Neumann) || (j == m_ny - 1 && bc.north == Boundary::Neumann)) w *= 0.5;
  return m_fromBuilder ? w : 1.0;
}

void GridStencil::validate() const {
  auto where = [&](int i, int j) {
    return "GridStencil(\"" + m_name + "\"): node (" + std::to_string(i) + ", " + std::to_string(j) + ")";
  };
  for (int j = 0; j < m_ny; ++j)
    for (int i = 0; i < m_nx; ++i) {
      const bool fixed = isFixed(i, j);
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const float c = coefficient(i, j, dx, dy);
          if (!std::isfinite(c))
            throw std::invalid_argument(where(i, j) + ": coefficient (" + std::to_string(dx) + ", " +
                                        std::to_string(dy) + ") is not finite");
          if (c == 0.0f) continue;
          if (fixed)
            throw std::invalid_argument(where(i, j) + " is fixed (centre 0) but coefficient (" + std::to_string(dx) +
                                        ", " + std::to_string(dy) + ") is " + std::to_string(c));
          const int a = i + dx, b = j + dy;
          if (a < 0 || a >= m_nx || b < 0 || b >= m_ny)
            throw std::invalid_argument(where(i, j) + ": coefficient (" + std::to_string(dx) + ", " +
                                        std::to_string(dy) + ") = " + std::to_string(c) +
                                        " reaches past the grid (must be 0)");
        }
    }
}

bool GridStencil::hasConstantNullSpace() const {
  if (freeNodes() != nodes()) return false;
  for (int j = 0; j < m_ny; ++j)
    for (int i = 0; i < m_nx; ++i) {
      double sum = 0, scale = 0;
      for (int e = 0; e < 9; ++e) {
        sum += m_entries[std::size_t(e)][index(i, j)];
        scale += std::abs(m_entries[std::size_t(e)][index(i, j)]);
      }
      if (std::abs(sum) > 1e-6 * scale) return false;
    }
  return true;
}

std::vector<double> GridStencil::apply(std::span<const double> x) const {
  if (x.size() != nodes())
    throw std::invalid_argument("GridStencil(\"" + m_name + "\")::apply: " + std::to_string(x.size()) +
                                " values for " + std::to_string(nodes()) + " nodes");
  std::vector<double> y(nodes(), 0.0);
  for (int j = 0; j < m_ny; ++j)
    for (int i = 0; i < m_nx; ++i) {
      if (isFixed(i, j)) {
        y[index(i, j)] = x[index(i, j)];
        continue;
      }
      double sum = 0;
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const int a = i + dx, b = j + dy;
          if (a < 0 || a >= m_nx || b < 0 || b >= m_ny) continue;
          sum += double(coefficient(i, j, dx, dy)) * x[index(a, b)];
        }
      y[index(i, j)] = sum;
    }
  return y;
}

}  // namespace multigrid
}  // namespace texstream::solvers
