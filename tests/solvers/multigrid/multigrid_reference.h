#pragma once
// CPU double-precision references for the multigrid tests (tests/solvers/multigrid*.cpp):
// the transfers and the Galerkin product written in global node coordinates, straight
// from their definitions (Bolz et al. 2003, §4.2), independent of the layered texel maths.
#include "support/Random.h"

#include <texstream/solvers/multigrid/GridStencil.h>

#include <array>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace texstream::test {

/// Bilinear subdivision weight of coarse node J for fine node m: s(mx - 2Jx) s(my - 2Jy).
inline double subdivisionWeight(int fx, int fy) {
  auto s = [](int f) { return f == 0 ? 1.0 : (f == 1 || f == -1 ? 0.5 : 0.0); };
  return s(fx) * s(fy);
}

inline int coarseSide(int n) { return n / 2 + 1; }

/// x = S v at free fine nodes (fine.isFixed: x = 0 there).
inline std::vector<double> interpolateReference(const solvers::GridStencil& fine, const std::vector<double>& v) {
  const int nx = fine.nx(), ny = fine.ny(), cx = coarseSide(nx), cy = coarseSide(ny);
  std::vector<double> x(fine.nodes(), 0.0);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      if (fine.isFixed(i, j)) continue;
      double s = 0;
      for (int J = 0; J < cy; ++J)
        for (int I = 0; I < cx; ++I) s += subdivisionWeight(i - 2 * I, j - 2 * J) * v[std::size_t(J) * cx + I];
      x[std::size_t(j) * nx + i] = s;
    }
  return x;
}

/// b = P r = 1/4 S^T r at coarse nodes whose `coarseFixed` flag is false.
inline std::vector<double> projectReference(int nx, int ny, const std::vector<double>& r,
                                            const std::vector<bool>& coarseFixed) {
  const int cx = coarseSide(nx), cy = coarseSide(ny);
  std::vector<double> b(std::size_t(cx) * cy, 0.0);
  for (int J = 0; J < cy; ++J)
    for (int I = 0; I < cx; ++I) {
      if (coarseFixed[std::size_t(J) * cx + I]) continue;
      double s = 0;
      for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) s += 0.25 * subdivisionWeight(i - 2 * I, j - 2 * J) * r[std::size_t(j) * nx + i];
      b[std::size_t(J) * cx + I] = s;
    }
  return b;
}

/// The Galerkin coarse operator P A S on free nodes as nine entry arrays (double), by the
/// triple sum over fine rows k and columns m: A_2h[I, J] = sum 1/4 S[k, I] A~[k, m] S[m, J],
/// A~ = A without couplings into fixed nodes; a coarse node with no free fine node in its
/// support has a zero stencil (fixed).
inline std::array<std::vector<double>, 9> galerkinReference(const solvers::GridStencil& A) {
  const int nx = A.nx(), ny = A.ny(), cx = coarseSide(nx), cy = coarseSide(ny);
  std::array<std::vector<double>, 9> out;
  for (auto& e : out) e.assign(std::size_t(cx) * cy, 0.0);
  auto inFine = [&](int i, int j) { return i >= 0 && j >= 0 && i < nx && j < ny; };
  for (int J = 0; J < cy; ++J)
    for (int I = 0; I < cx; ++I) {
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const int I2 = I + dx, J2 = J + dy;
          if (I2 < 0 || J2 < 0 || I2 >= cx || J2 >= cy) continue;
          double sum = 0;
          for (int kj = 2 * J - 1; kj <= 2 * J + 1; ++kj)
            for (int ki = 2 * I - 1; ki <= 2 * I + 1; ++ki) {
              if (!inFine(ki, kj) || A.isFixed(ki, kj)) continue;
              const double p = 0.25 * subdivisionWeight(ki - 2 * I, kj - 2 * J);
              for (int gy = -1; gy <= 1; ++gy)
                for (int gx = -1; gx <= 1; ++gx) {
                  const int mi = ki + gx, mj = kj + gy;
                  if (!inFine(mi, mj) || A.isFixed(mi, mj)) continue;
                  sum += p * A.coefficient(ki, kj, gx, gy) * subdivisionWeight(mi - 2 * I2, mj - 2 * J2);
                }
            }
          out[std::size_t(solvers::GridStencil::entryIndex(dx, dy))][std::size_t(J) * cx + I] = sum;
        }
    }
  return out;
}

/// Solves A x = b on the free nodes by CG in double (A symmetric on free nodes, positive
/// semi-definite; singular systems need a consistent b); fixed nodes take x = b.
inline std::vector<double> solveGridReference(const solvers::GridStencil& A, std::vector<double> b) {
  const std::size_t n = A.nodes();
  std::vector<double> x(n, 0.0);
  std::vector<bool> fixed(n);
  for (int j = 0; j < A.ny(); ++j)
    for (int i = 0; i < A.nx(); ++i) fixed[std::size_t(j) * A.nx() + i] = A.isFixed(i, j);
  for (std::size_t i = 0; i < n; ++i)
    if (fixed[i]) x[i] = b[i];
  // Move the fixed values to the right-hand side: b_f -= A_fD x_D.
  const std::vector<double> ax = A.apply(x);
  for (std::size_t i = 0; i < n; ++i) b[i] = fixed[i] ? 0.0 : b[i] - ax[i];
  auto applyFree = [&](const std::vector<double>& p) {
    std::vector<double> q = A.apply(p);
    for (std::size_t i = 0; i < n; ++i)
      if (fixed[i]) q[i] = 0;
    return q;
  };
  auto dot = [&](const std::vector<double>& a, const std::vector<double>& c) {
    double s = 0;
    for (std::size_t i = 0; i < n; ++i) s += a[i] * c[i];
    return s;
  };
  std::vector<double> y(n, 0.0), r = b, p = b;
  double rho = dot(r, r);
  const double stop = 1e-26 * std::max(dot(b, b), 1e-300);
  for (std::size_t k = 0; k < 20 * n + 100 && rho > stop; ++k) {
    const std::vector<double> q = applyFree(p);
    const double alpha = rho / dot(p, q);
    for (std::size_t i = 0; i < n; ++i) {
      y[i] += alpha * p[i];
      r[i] -= alpha * q[i];
    }
    const double rhoNew = dot(r, r);
    for (std::size_t i = 0; i < n; ++i) p[i] = r[i] + rhoNew / rho * p[i];
    rho = rhoNew;
  }
  if (!(rho <= stop)) throw std::runtime_error("solveGridReference: the double CG did not converge");
  for (std::size_t i = 0; i < n; ++i)
    if (!fixed[i]) x[i] = y[i];
  return x;
}

/// A symmetric variable-coefficient 9-point operator: a weighted graph Laplacian over the
/// grid's 8-neighbour links (random weights in [0.2, 1.8] axial, [0, 0.6] diagonal) plus
/// sigma * (random in [0.5, 1.5]) on the diagonal; nodes on `bc`'s Dirichlet sides fixed.
inline solvers::GridStencil randomSymmetricStencil(int nx, int ny, double sigma, const solvers::GridBoundaries& bc,
                                                   std::uint64_t seed) {
  using solvers::Boundary;
  solvers::GridStencil A(nx, ny, "random9");
  const std::vector<float> w = randomFloats(std::size_t(nx) * ny * 5, seed, 0.0f, 1.0f);
  auto fixed = [&](int i, int j) {
    return (i == 0 && bc.west == Boundary::Dirichlet) || (i == nx - 1 && bc.east == Boundary::Dirichlet) ||
           (j == 0 && bc.south == Boundary::Dirichlet) || (j == ny - 1 && bc.north == Boundary::Dirichlet);
  };
  auto add = [&](int i, int j, int dx, int dy, double v) {
    A.setCoefficient(i, j, dx, dy, float(double(A.coefficient(i, j, dx, dy)) + v));
  };
  // Links to the east, north, north-east and north-west, each counted for both ends.
  const int links[4][2] = {{1, 0}, {0, 1}, {1, 1}, {-1, 1}};
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const std::size_t k = std::size_t(j) * nx + i;
      for (int l = 0; l < 4; ++l) {
        const int i2 = i + links[l][0], j2 = j + links[l][1];
        if (i2 < 0 || i2 >= nx || j2 >= ny) continue;
        const double weight = l < 2 ? 0.2 + 1.6 * w[5 * k + l] : 0.6 * w[5 * k + l];
        const bool f1 = fixed(i, j), f2 = fixed(i2, j2);
        // A fixed neighbour still adds to the free node's diagonal (a Dirichlet link), and
        // the free node reads the fixed node's value through the coupling.
        if (!f1) {
          add(i, j, 0, 0, weight);
          add(i, j, links[l][0], links[l][1], -weight);
        }
        if (!f2) {
          add(i2, j2, 0, 0, weight);
          add(i2, j2, -links[l][0], -links[l][1], -weight);
        }
      }
      if (!fixed(i, j)) add(i, j, 0, 0, sigma * (0.5 + w[5 * k + 4]));
    }
  return A;
}

/// ||b - A x|| / ||b|| over A's free nodes, in double.
inline double trueGridResidual(const solvers::GridStencil& A, const std::vector<float>& x, const std::vector<double>& b) {
  const std::vector<double> ax = A.apply(toDouble(x));
  double rr = 0, bb = 0;
  for (int j = 0; j < A.ny(); ++j)
    for (int i = 0; i < A.nx(); ++i) {
      if (A.isFixed(i, j)) continue;
      const std::size_t k = std::size_t(j) * std::size_t(A.nx()) + std::size_t(i);
      rr += (b[k] - ax[k]) * (b[k] - ax[k]);
      bb += b[k] * b[k];
    }
  return std::sqrt(rr / bb);
}

}  // namespace texstream::test
