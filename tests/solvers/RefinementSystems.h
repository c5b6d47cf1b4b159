#pragma once
// Systems and checks shared by the mixed-precision tests (mixed_precision_refinement.cpp,
// mixed_precision_cg.cpp).
#include <texstream/linalg/Csr.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace texstream::test {

inline std::vector<double> randomRhs(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> b(n);
  for (double& v : b) v = u(rng);
  return b;
}

/// ||b - A x|| / ||b|| in double.
inline double relativeResidual(const linalg::Csr& A, const std::vector<double>& x, const std::vector<double>& b) {
  const auto ax = A.multiply(x);
  double rr = 0, bb = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    rr += (b[i] - ax[i]) * (b[i] - ax[i]);
    bb += b[i] * b[i];
  }
  return std::sqrt(rr / bb);
}

/// -div(k grad) on an nx x ny grid (5-point, h = 1) with edge coefficients k spanning six
/// orders of magnitude in smooth bands, plus a mass term of 1e-3 of each row's coupling:
/// SPD, badly scaled (Jacobi-preconditioned κ about 1e4), its entries rounded to float
/// (what every GPU matrix holds, so the CPU checks use the same).
inline linalg::Csr contrastDiffusion(std::size_t nx, std::size_t ny) {
  auto k = [](double x, double y) { return std::pow(10.0, 3.0 + 3.0 * std::sin(0.41 * x + 0.23 * y)); };
  std::vector<std::int64_t> rows, cols;
  std::vector<double> values;
  auto id = [&](std::size_t i, std::size_t j) { return std::int64_t(j * nx + i); };
  for (std::size_t j = 0; j < ny; ++j) {
    for (std::size_t i = 0; i < nx; ++i) {
      double diagonal = 0;
      auto link = [&](std::size_t i2, std::size_t j2) {
        const double w = double(float(k(0.5 * double(i + i2), 0.5 * double(j + j2))));
        rows.push_back(id(i, j)), cols.push_back(id(i2, j2)), values.push_back(-w);
        diagonal += w;
      };
      if (i > 0) link(i - 1, j);
      if (i + 1 < nx) link(i + 1, j);
      if (j > 0) link(i, j - 1);
      if (j + 1 < ny) link(i, j + 1);
      rows.push_back(id(i, j)), cols.push_back(id(i, j)), values.push_back(double(float(1.001 * diagonal)));
    }
  }
  return linalg::Csr::fromTriplets(nx * ny, nx * ny, rows, cols, values);
}

}  // namespace texstream::test
