// Tests src/solvers/stationary/Jacobi.*: the weighted Jacobi solver against a double CPU solve, and
// the smoother against the exact damping factors of the Laplacian's eigenvectors.
#include <catch2/catch.hpp>

#include "solvers/Reference.h"
#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/gl/Error.h>
#include <texstream/linalg/BandedMatrix.h>
#include <texstream/linalg/Csr.h>
#include <texstream/linalg/StencilMatrix.h>
#include <texstream/solvers/stationary/Jacobi.h>
#include <texstream/stream/Vector.h>

#include <cmath>
#include <stdexcept>

using namespace texstream;
using solvers::IterativeOptions;
using solvers::Outcome;
using solvers::SolverStatus;

namespace {

stream::Vector makeVector(const std::vector<float>& values, const char* name) {
  stream::Vector v(values.size(), name);
  v.upload(values);
  return v;
}

/// A random strictly diagonally dominant n x n matrix with off-diagonals at +-1, +-5, +13
/// (not symmetric): |a_ii| = 1.5 sum_j |a_ij| + 0.1, sign random.
linalg::Csr diagonallyDominant(std::size_t n, std::uint64_t seed) {
  const std::vector<float> values = test::randomFloats(6 * n, seed);
  const int offsets[5] = {-5, -1, 1, 5, 13};
  std::vector<std::int64_t> r, c;
  std::vector<double> v;
  for (std::size_t i = 0; i < n; ++i) {
    double sum = 0;
    for (int k = 0; k < 5; ++k) {
      const long long j = (long long)i + offsets[k];
      if (j < 0 || j >= (long long)n) continue;
      r.push_back(std::int64_t(i));
      c.push_back(j);
      v.push_back(values[6 * i + std::size_t(k)]);
      sum += std::abs(values[6 * i + std::size_t(k)]);
    }
    r.push_back(std::int64_t(i));
    c.push_back(std::int64_t(i));
    v.push_back((values[6 * i + 5] < 0 ? -1.0 : 1.0) * (1.5 * sum + 0.1));
  }
  return linalg::Csr::fromTriplets(n, n, r, c, v);
}

/// Gaussian elimination with partial pivoting in double (reference for non-symmetric A).
std::vector<double> solveDense(const linalg::Csr& csr, std::vector<double> b) {
  const std::size_t n = csr.rows;
  std::vector<double> a(n * n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    for (auto k = csr.rowPtr[i]; k < csr.rowPtr[i + 1]; ++k) a[i * n + std::size_t(csr.colIdx[k])] += csr.values[k];
  }
  for (std::size_t col = 0; col < n; ++col) {
    std::size_t piv = col;
    for (std::size_t i = col + 1; i < n; ++i) {
      if (std::abs(a[i * n + col]) > std::abs(a[piv * n + col])) piv = i;
    }
    for (std::size_t j = 0; j < n; ++j) std::swap(a[col * n + j], a[piv * n + j]);
    std::swap(b[col], b[piv]);
    for (std::size_t i = col + 1; i < n; ++i) {
      const double f = a[i * n + col] / a[col * n + col];
      if (f == 0.0) continue;
      for (std::size_t j = col; j < n; ++j) a[i * n + j] -= f * a[col * n + j];
      b[i] -= f * b[col];
    }
  }
  std::vector<double> x(n);
  for (std::size_t i = n; i-- > 0;) {
    double s = b[i];
    for (std::size_t j = i + 1; j < n; ++j) s -= a[i * n + j] * x[j];
    x[i] = s / a[i * n + i];
  }
  return x;
}

}  // namespace

TEST_CASE("jacobi converges on diagonally dominant systems", "[gl][solvers][jacobi]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const std::size_t n = GENERATE(1, 7, 97, 400);
  INFO("n = " << n);
  const linalg::Csr csr = diagonallyDominant(n, 3 + n);
  const auto A = linalg::BandedMatrix::fromCsr(csr, "dominant");
  const std::vector<float> bHost = test::randomFloats(n, 5 + n);
  stream::Vector b = makeVector(bHost, "b");
  stream::Vector x = makeVector(test::randomFloats(n, 7 + n), "x");
  IterativeOptions opts;
  opts.tolerance = 1e-5f;
  const SolverStatus s = solvers::jacobi(A, b, x, opts);
  INFO(s.message);
  REQUIRE(s.outcome == Outcome::Converged);
  CHECK(s.relativeResidual <= 1e-5);
  CHECK(s.checkedAt.back() == s.iterations);
  // The residual is the true one, measured on x itself.
  const std::vector<float> xHost = x.download();
  CHECK(test::trueRelativeResidual(csr, xHost, test::toDouble(bHost)) <= 2e-5);
  CHECK(test::maxRelativeError(xHost, solveDense(csr, test::toDouble(bHost))) <= 1e-4);
  // The Jacobi iteration matrix has norm <= 1/1.5 here: the residual falls every check.
  for (std::size_t i = 1; i < s.residualHistory.size(); ++i) {
    CHECK(s.residualHistory[i] < s.residualHistory[i - 1]);
  }
}

TEST_CASE("jacobi: damped iteration on a Poisson problem, the cap, and failures", "[gl][solvers][jacobi]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const auto A = linalg::StencilMatrix::poisson2D(16, 16, "poisson2D");
  stream::Vector b = makeVector(test::randomFloats(A.rows(), 11), "b");
  SECTION("capped: MaxIterations, residual still falling") {
    stream::Vector x(A.rows(), "x");
    IterativeOptions opts;
    opts.maxIterations = 30;
    opts.checkEvery = 10;
    const float omega = 0.8f;
    const SolverStatus s = solvers::jacobi(A, b, x, opts, omega);
    INFO(s.message);
    REQUIRE(s.outcome == Outcome::MaxIterations);
    CHECK(s.iterations == 30);
    CHECK(s.checkedAt == std::vector<int>{0, 10, 20, 30});
    CHECK(s.residualHistory[3] < s.residualHistory[2]);
    CHECK(s.residualHistory[2] < s.residualHistory[0]);
  }
  SECTION("NaN in b") {
    std::vector<float> bad = test::randomFloats(A.rows(), 13);
    bad[100] = NAN;
    stream::Vector bNan = makeVector(bad, "bNan");
    stream::Vector x(A.rows(), "x");
    const SolverStatus s = solvers::jacobi(A, bNan, x);
    CHECK(s.outcome == Outcome::NonFinite);
  }
  SECTION("divergence (omega far above 1) is not reported as convergence") {
    stream::Vector x(A.rows(), "x");
    IterativeOptions opts;
    const float omega = 3.0f;
    opts.maxIterations = 200;
    const SolverStatus s = solvers::jacobi(A, b, x, opts, omega);
    INFO(s.message);
    CHECK((s.outcome == Outcome::MaxIterations || s.outcome == Outcome::NonFinite));
    CHECK(s.residualHistory.back() > s.residualHistory.front());
  }
  SECTION("b = 0") {
    stream::Vector zero(A.rows(), "zero");
    stream::Vector x = makeVector(test::randomFloats(A.rows(), 17), "x");
    const SolverStatus s = solvers::jacobi(A, zero, x);
    CHECK(s.converged());
    CHECK(s.iterations == 0);
    for (float v : x.download()) CHECK(v == 0.0f);
  }
}

TEST_CASE("jacobi rejects a zero diagonal, bad sizes and bad options", "[gl][solvers][jacobi]") {
  test::context();
  const auto A = linalg::BandedMatrix(5, {-1, 0, 1}, {{0, 1, 1, 1, 1}, {2, 2, 2, 0, 2}, {1, 1, 1, 1, 0}}, "holey");
  stream::Vector b(5, "b"), x(5, "x"), x6(6, "x6");
  b.upload(std::vector<float>{1, 2, 3, 4, 5});
  CHECK_THROWS_WITH(solvers::jacobi(A, b, x), Catch::Contains("holey") && Catch::Contains("row 3"));
  CHECK_THROWS_AS(solvers::jacobi(A, b, x6), gl::Error);
  const auto ok = linalg::StencilMatrix::poisson2D(2, 2, "p");
  stream::Vector b4(4, "b4"), x4(4, "x4");
  IterativeOptions bad;
  const float badOmega = 0.0f;
  CHECK_THROWS_AS(solvers::jacobi(ok, b4, x4, bad, badOmega), std::invalid_argument);
  bad = {};
  bad.checkEvery = -1;
  CHECK_THROWS_AS(solvers::jacobi(ok, b4, x4, bad), std::invalid_argument);
  stream::Vector d3(3, "d3");
  CHECK_THROWS_AS(solvers::jacobiSmooth(ok, d3, b4, x4, 1, 1.0f), gl::Error);
}

TEST_CASE("jacobiSmooth matches the CPU sweep on random data", "[gl][solvers][jacobi]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const std::size_t n = GENERATE(1, 5, 97, 1000);
  INFO("n = " << n);
  const linalg::Csr csr = diagonallyDominant(n, 19 + n);
  const auto A = linalg::BandedMatrix::fromCsr(csr, "dominant");
  const std::vector<float> bHost = test::randomFloats(n, 23 + n);
  const std::vector<float> x0 = test::randomFloats(n, 29 + n);
  const std::vector<double> diag = csr.diagonal();
    stream::Vector b = makeVector(bHost, "b");
  stream::Vector x = makeVector(x0, "x");
  stream::Vector d(n, "d");
  A.diagonal(d);
  const float omega = 0.7f;
  const int sweeps = 3;
  solvers::jacobiSmooth(A, d, b, x, sweeps, omega);
  std::vector<double> ref = test::toDouble(x0);
  for (int s = 0; s < sweeps; ++s) {
    const std::vector<double> ax = csr.multiply(ref);
    for (std::size_t i = 0; i < n; ++i) ref[i] += omega * (bHost[i] - ax[i]) / diag[i];
  }
  CHECK(test::maxRelativeError(x.download(), ref) <= 1e-5);
}

TEST_CASE("jacobiSmooth damps high frequencies of the Laplacian, not low ones", "[gl][solvers][jacobi]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  // The Dirichlet Laplacian's eigenvectors e(x, y) = sin(pi kx (x+1)/(n+1)) sin(pi ky (y+1)/(n+1))
  // have eigenvalue l = 4 - 2 cos(pi kx/(n+1)) - 2 cos(pi ky/(n+1)); with b = 0 a weighted
  // Jacobi sweep multiplies e by exactly 1 - omega l / 4 (Bolz §4.2: omega = 2/3).
  const std::size_t n = 31;
  const auto A = linalg::StencilMatrix::poisson2D(n, n, "poisson2D");
  stream::Vector zero(n * n, "b"), d(n * n, "d");
  A.diagonal(d);
  const float omega = 2.0f / 3.0f;
  const int sweeps = 3;
  const double pi = std::acos(-1.0);
  struct Mode {
    int kx, ky;
    double bound;
  };
  const Mode mode = GENERATE(Mode{31, 31, 0.05}, Mode{24, 29, 0.05}, Mode{1, 1, 1.01}, Mode{2, 1, 1.01});
  INFO("mode (" << mode.kx << ", " << mode.ky << ")");
  std::vector<float> e(n * n);
  for (std::size_t y = 0; y < n; ++y) {
    for (std::size_t x = 0; x < n; ++x) {
      e[y * n + x] = float(std::sin(pi * mode.kx * double(x + 1) / double(n + 1)) *
                           std::sin(pi * mode.ky * double(y + 1) / double(n + 1)));
    }
  }
  stream::Vector x = makeVector(e, "x");
  solvers::jacobiSmooth(A, d, zero, x, sweeps, omega);
  const double lambda = 4.0 - 2.0 * std::cos(pi * mode.kx / double(n + 1)) - 2.0 * std::cos(pi * mode.ky / double(n + 1));
  const double factor = std::pow(1.0 - omega * lambda / 4.0, sweeps);
  std::vector<double> expected(e.size());
  for (std::size_t i = 0; i < e.size(); ++i) expected[i] = factor * e[i];
  const std::vector<float> got = x.download();
  double before = 0, after = 0;
  for (std::size_t i = 0; i < e.size(); ++i) {
    before += double(e[i]) * e[i];
    after += double(got[i]) * got[i];
    CHECK(std::abs(got[i] - expected[i]) <= 1e-5);
  }
  const double ratio = std::sqrt(after / before);
  INFO("||x|| after / before = " << ratio << ", expected " << std::abs(factor));
  CHECK(ratio <= mode.bound);
  if (mode.bound > 1.0) CHECK(ratio >= 0.9);  // smooth modes survive: that is multigrid's job
}
