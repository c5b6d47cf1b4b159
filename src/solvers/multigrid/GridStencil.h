#pragma once
// texstream::solvers::GridStencil: a linear operator on an nx x ny grid given as a 3x3
// stencil per node with variable coefficients (Bolz et al. 2003, §4: "a set of stencils,
// with possibly varying entries, each of size no larger than 3x3"), on the CPU:
//   (A u)(i, j) = sum over d in {-1, 0, 1}^2 of A^d(i, j) u(i + dx, j + dy).
// Entry d is stored at index entryIndex(dx, dy) = (dx + 1) + 3 (dy + 1) (4 = centre).
//
// Boundary conditions (Bolz §4):
//  - Dirichlet nodes are *fixed*: their stencil is all zero (centre 0 marks them) and the
//    solution there is given (Multigrid takes x = b at fixed nodes; identity rows). Free
//    nodes may couple to fixed ones, which then act as boundary values.
//  - Neumann boundaries are built into the boundary stencils; a coefficient reaching past
//    the grid must be zero.
// The builders scale by h^2 (dimensionless): -Δ becomes {4, -1, -1, -1, -1} inside.
// Neumann sides use the symmetric finite-volume form (half cells on the boundary, quarter
// cells at corners: the operator is symmetric and A 1 = 0), so a right-hand side f is
// b = cellWeight(i, j) h^2 f. Mixed sides are allowed; a corner between a Dirichlet and a
// Neumann side is Dirichlet.
#include <array>
#include <span>
#include <string>
#include <vector>

namespace texstream::solvers {
inline namespace multigrid {

enum class Boundary { Dirichlet, Neumann };
const char* boundaryName(Boundary b);

/// Condition on each side of the rectangle (west: i = 0, east: i = nx - 1, south: j = 0,
/// north: j = ny - 1).
struct GridBoundaries {
  Boundary west = Boundary::Dirichlet, east = Boundary::Dirichlet;
  Boundary south = Boundary::Dirichlet, north = Boundary::Dirichlet;
  static GridBoundaries all(Boundary b) { return {b, b, b, b}; }
};

class GridStencil {
 public:
  GridStencil() = default;
  /// All coefficients zero (every node fixed until given a stencil). Throws
  /// std::invalid_argument unless nx, ny >= 2.
  GridStencil(int nx, int ny, std::string name);

  /// -Δ h^2 with the given boundary conditions.
  static GridStencil poisson(int nx, int ny, const GridBoundaries& bc, std::string name);
  /// -Δ h^2 + σ h^2 (Helmholtz, σ >= 0): sigmaH2 = σ h^2, weighted by the cell size on
  /// Neumann boundaries.
  static GridStencil helmholtz(int nx, int ny, double sigmaH2, const GridBoundaries& bc, std::string name);

  static constexpr int entryIndex(int dx, int dy) { return (dx + 1) + 3 * (dy + 1); }

  int nx() const { return m_nx; }
  int ny() const { return m_ny; }
  std::size_t nodes() const { return std::size_t(m_nx) * std::size_t(m_ny); }
  const std::string& name() const { return m_name; }

  float coefficient(int i, int j, int dx, int dy) const { return m_entries[entryIndex(dx, dy)][index(i, j)]; }
  void setCoefficient(int i, int j, int dx, int dy, float value) { m_entries[entryIndex(dx, dy)][index(i, j)] = value; }
  /// All nx ny values of entry `e` (i fastest).
  const std::vector<float>& entry(int e) const { return m_entries[std::size_t(e)]; }
  std::vector<float>& entry(int e) { return m_entries[std::size_t(e)]; }

  /// Makes (i, j) a fixed (Dirichlet) node: zero stencil.
  void fix(int i, int j);
  bool isFixed(int i, int j) const { return coefficient(i, j, 0, 0) == 0.0f; }
  std::size_t freeNodes() const;
  /// The area of (i, j)'s cell in units of h^2 on the builders' Neumann sides (1 inside,
  /// 1/2 on a Neumann side, 1/4 at a Neumann corner).
  double cellWeight(int i, int j) const;

  /// Throws std::invalid_argument naming the node if a fixed node has a non-zero
  /// coefficient, a coefficient reaches past the grid, or a value is not finite.
  void validate() const;
  /// True when A 1 = 0 on the free nodes (pure Neumann Poisson): A is singular and
  /// A x = b needs sum(b) = 0 over free nodes; solutions differ by constants.
  bool hasConstantNullSpace() const;

  /// y = A x in double (x has nx ny values); fixed rows give y = x (identity rows).
  std::vector<double> apply(std::span<const double> x) const;

 private:
  std::size_t index(int i, int j) const { return std::size_t(j) * std::size_t(m_nx) + std::size_t(i); }
  int m_nx = 0, m_ny = 0;
  std::string m_name;
  std::array<std::vector<float>, 9> m_entries;
  GridBoundaries m_bc{};
  bool m_fromBuilder = false;
};

}  // namespace multigrid
}  // namespace texstream::solvers
