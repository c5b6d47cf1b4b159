#pragma once
// Systems and checks shared by the mixed-precision tests (mixed_precision_refinement.cpp,
// mixed_precision_cg.cpp).
#include <texstream/linalg/BandedMatrix.h>
#include <texstream/linalg/BcrsMatrix.h>
#include <texstream/linalg/Csr.h>
#include <texstream/linalg/DenseMatrix.h>
#include <texstream/linalg/SegmentMatrix.h>
#include <texstream/linalg/StencilMatrix.h>
#include <texstream/solvers/krylov/MixedPrecisionRefinement.h>
#include <texstream/stream/Vector.h>

#include "solvers/Reference.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <utility>
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

/// csr (the matrix of an nx x ny grid's 5-point stencil) as every matrix type texstream
/// stores, each with its name: stencil, banded, segment, BCRS 2x2, BCRS 4x4 after RCM, dense.
inline std::vector<std::pair<std::string, std::unique_ptr<linalg::LinearOperator>>> everyMatrixType(
    const linalg::Csr& csr, std::size_t nx, std::size_t ny) {
  const std::size_t n = csr.rows;
  std::vector<std::pair<std::string, std::unique_ptr<linalg::LinearOperator>>> matrices;
  matrices.emplace_back("stencil", std::make_unique<linalg::StencilMatrix>(linalg::StencilMatrix::fromCsr(csr, nx, ny, 1, "stencil")));
  matrices.emplace_back("banded", std::make_unique<linalg::BandedMatrix>(linalg::BandedMatrix::fromCsr(csr, "banded")));
  matrices.emplace_back("segment", std::make_unique<linalg::SegmentMatrix>(csr, "segment"));
  matrices.emplace_back("bcrs2", std::make_unique<linalg::BcrsMatrix>(csr, "bcrs2", linalg::BcrsOptions{2, false}));
  matrices.emplace_back("bcrs4", std::make_unique<linalg::BcrsMatrix>(csr, "bcrs4", linalg::BcrsOptions{4, true}));
  std::vector<float> dense(n * n, 0.0f);
  for (std::size_t r = 0; r < n; ++r)
    for (auto e = csr.rowPtr[r]; e < csr.rowPtr[r + 1]; ++e) dense[r * n + std::size_t(csr.colIdx[std::size_t(e)])] = float(csr.values[std::size_t(e)]);
  matrices.emplace_back("dense", std::make_unique<linalg::DenseMatrix>(n, n, dense, "dense"));
  return matrices;
}

/// The leading n x n block of S P S, P the 5-point Poisson matrix of a square grid and S
/// irrational scales over six orders of magnitude: SPD, with entries that use all 53 bits,
/// so the GPU holds them rounded to float while a host defect uses them exactly.
inline linalg::Csr matrixFloatCannotHold(std::size_t n) {
  std::vector<double> s(n);
  for (std::size_t i = 0; i < n; ++i) s[i] = std::pow(10.0, 3.0 * std::sin(double(i) * 1.7)) * std::sqrt(2.0 + double(i));
  const std::size_t side = std::size_t(std::ceil(std::sqrt(double(n))));
  const linalg::Csr poisson = linalg::Csr::poisson2D(side, side);
  std::vector<double> scales(poisson.rows, 1.0);
  for (std::size_t i = 0; i < n; ++i) scales[i] = s[i];
  const linalg::Csr scaled = scaledSymmetric(poisson, scales);
  std::vector<std::int64_t> rows, cols;
  std::vector<double> values;
  for (std::size_t i = 0; i < n; ++i)
    for (auto e = scaled.rowPtr[i]; e < scaled.rowPtr[i + 1]; ++e)
      if (std::size_t(scaled.colIdx[std::size_t(e)]) < n)
        rows.push_back(std::int64_t(i)), cols.push_back(scaled.colIdx[std::size_t(e)]), values.push_back(scaled.values[std::size_t(e)]);
  return linalg::Csr::fromTriplets(n, n, rows, cols, values);
}

/// A weighted graph Laplacian of an nx x ny grid (edge weights using all 53 bits) plus
/// `shift` times its own diagonal: SPD, with one eigenvalue about `shift` times the others'
/// scale (the constant vector), as a mass matrix that is tiny against the stiffness makes
/// it (curvature flow on a pinching mesh). Its entries rounded to float move that
/// eigenvalue by about 1e-7 of the scale: for shift well below 1e-7 the float matrix is a
/// different matrix, whose solutions no refinement built on it can turn into this one's.
inline linalg::Csr nearlySingularLaplacian(std::size_t nx, std::size_t ny, double shift) {
  std::vector<std::int64_t> rows, cols;
  std::vector<double> values;
  std::vector<double> diagonal(nx * ny, 0.0);
  auto id = [&](std::size_t i, std::size_t j) { return std::int64_t(j * nx + i); };
  auto link = [&](std::int64_t a, std::int64_t b) {
    const double w = 1.0 + 0.5 * std::sin(1.3 * double(a) + 0.7 * double(b) + std::sqrt(2.0));
    rows.push_back(a), cols.push_back(b), values.push_back(-w);
    rows.push_back(b), cols.push_back(a), values.push_back(-w);
    diagonal[std::size_t(a)] += w;
    diagonal[std::size_t(b)] += w;
  };
  for (std::size_t j = 0; j < ny; ++j) {
    for (std::size_t i = 0; i < nx; ++i) {
      if (i + 1 < nx) link(id(i, j), id(i + 1, j));
      if (j + 1 < ny) link(id(i, j), id(i, j + 1));
    }
  }
  for (std::size_t i = 0; i < nx * ny; ++i) {
    rows.push_back(std::int64_t(i)), cols.push_back(std::int64_t(i));
    values.push_back(diagonal[i] == 0 ? 1.0 : diagonal[i] * (1.0 + shift));
  }
  return linalg::Csr::fromTriplets(nx * ny, nx * ny, rows, cols, values);
}

/// A defect correction with x and b in double on the host and b - A x formed there against
/// the exact A (x, A and b must outlive it), the float vectors in Layout::forSize(n).
inline solvers::DefectCorrection hostDefect(const linalg::Csr& A, const std::vector<double>& b, std::vector<double>& x) {
  solvers::DefectCorrection host;
  host.rightHandSideNorm = std::sqrt(dotD(b, b));
  host.defect = [&A, &b, &x](stream::Vector& r) {
    const auto ax = A.multiply(x);
    std::vector<float> rf(b.size());
    double rr = 0;
    for (std::size_t i = 0; i < b.size(); ++i) {
      rf[i] = float(b[i] - ax[i]);
      rr += (b[i] - ax[i]) * (b[i] - ax[i]);
    }
    r.upload(rf);
    return std::sqrt(rr);
  };
  host.addCorrection = [&x](const stream::Vector& c) {
    const auto cf = c.download();
    for (std::size_t i = 0; i < x.size(); ++i) x[i] += double(cf[i]);
  };
  host.setSolutionZero = [&x] { std::fill(x.begin(), x.end(), 0.0); };
  return host;
}

}  // namespace texstream::test
