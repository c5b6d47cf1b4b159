// Tests src/solvers/krylov/Cgls.*: CGLS on rectangular dense operators (A and A^T as separate
// DenseMatrix objects) against Eigen's double-precision QR least-squares solution at
// awkward shapes, with and without the column-norm preconditioner, on both backends;
// zero right-hand sides, NaN inputs and shape errors.
#include <catch2/catch.hpp>

#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/gl/Error.h>
#include <texstream/linalg/DenseMatrix.h>
#include <texstream/solvers/krylov/Cgls.h>
#include <texstream/solvers/stationary/JacobiPreconditioner.h>
#include <texstream/stream/Vector.h>

#include <Eigen/Dense>

#include <cmath>

using namespace texstream;
using Catch::Matchers::Contains;
using solvers::Outcome;

namespace {

struct DenseProblem {
  std::size_t m, n;
  std::vector<float> a, at, b;  // A row-major, A^T row-major, b
};

/// A well-conditioned random m x n matrix (a scaled identity part keeps full column rank).
DenseProblem randomProblem(std::size_t m, std::size_t n, std::uint64_t seed) {
  DenseProblem p{m, n, test::randomFloats(m * n, seed), {}, test::randomFloats(m, seed + 1)};
  for (std::size_t j = 0; j < n; ++j) p.a[(j % m) * n + j] += 3.0f * float(1 + j % 3);
  p.at.resize(m * n);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) p.at[j * m + i] = p.a[i * n + j];
  return p;
}

std::vector<double> eigenLeastSquares(const DenseProblem& p) {
  Eigen::MatrixXd A(Eigen::Index(p.m), Eigen::Index(p.n));
  Eigen::VectorXd b(Eigen::Index(p.m));
  for (std::size_t i = 0; i < p.m; ++i) {
    b(Eigen::Index(i)) = p.b[i];
    for (std::size_t j = 0; j < p.n; ++j) A(Eigen::Index(i), Eigen::Index(j)) = p.a[i * p.n + j];
  }
  const Eigen::VectorXd x = A.colPivHouseholderQr().solve(b);
  return {x.data(), x.data() + x.size()};
}

}  // namespace

TEST_CASE("cgls: least squares on rectangular operators equals Eigen's QR solution", "[gl][solvers]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  for (auto [m, n] : {std::pair<std::size_t, std::size_t>{1, 1}, {5, 5}, {7, 3}, {97, 41}, {130, 67}}) {
    for (bool preconditioned : {false, true}) {
      INFO(m << "x" << n << (preconditioned ? ", column-norm preconditioner" : ""));
      const DenseProblem p = randomProblem(m, n, m * 13 + n);
      linalg::DenseMatrix A(m, n, p.a, "A"), At(n, m, p.at, "At");
      stream::Vector b(m, "b"), x(n, "x");
      b.upload(p.b);
      x.upload(test::randomFloats(n, m + n, -0.1f, 0.1f));
      std::vector<float> inverse(n, 0.0f);
      for (std::size_t j = 0; j < n; ++j) {
        double sum = 0;
        for (std::size_t i = 0; i < m; ++i) sum += double(p.a[i * n + j]) * p.a[i * n + j];
        inverse[j] = float(1.0 / sum);
      }
      stream::Vector d(n, "inverseColumnNorms");
      d.upload(inverse);
      const auto M = solvers::JacobiPreconditioner::fromInverseDiagonal(std::move(d));
      solvers::CglsOptions o;
      o.tolerance = 1e-6f;
      o.checkEvery = 4;
      const solvers::SolverStatus s = solvers::cgls(A, At, b, x, o, preconditioned ? &M : nullptr);
      INFO(s.message);
      REQUIRE(s.converged());
      REQUIRE(s.residualHistory.front() > s.relativeResidual);
      REQUIRE(test::maxRelativeError(x.download(), eigenLeastSquares(p)) < 1e-4);
    }
  }
}

TEST_CASE("cgls: zero right-hand side, NaN and wrong shapes", "[gl][solvers]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const DenseProblem p = randomProblem(9, 4, 3);
  linalg::DenseMatrix A(9, 4, p.a, "A"), At(4, 9, p.at, "At");
  stream::Vector b(9, "b"), x(4, "x");
  x.upload(test::randomFloats(4, 5));
  solvers::SolverStatus s = solvers::cgls(A, At, b, x);
  REQUIRE(s.converged());
  REQUIRE(s.iterations == 0);
  REQUIRE(x.download() == std::vector<float>(4, 0.0f));

  std::vector<float> bad = p.b;
  bad[3] = std::nanf("");
  b.upload(bad);
  s = solvers::cgls(A, At, b, x);
  REQUIRE(s.outcome == Outcome::NonFinite);
  REQUIRE_THAT(s.message, Contains("cgls(\"A\")"));

  stream::Vector wrongB(8, "wrongB"), wrongX(5, "wrongX");
  REQUIRE_THROWS_WITH(solvers::cgls(A, At, wrongB, x), Contains("b \"wrongB\" has n=8, A has 9 rows"));
  REQUIRE_THROWS_WITH(solvers::cgls(A, At, b, wrongX), Contains("x \"wrongX\" has n=5, A has 4 columns"));
  REQUIRE_THROWS_WITH(solvers::cgls(A, A, b, x), Contains("A is 9x4 but A^T is 9x4"));
  solvers::CglsOptions o;
  o.checkEvery = 0;
  REQUIRE_THROWS_WITH(solvers::cgls(A, At, b, x, o), Contains("checkEvery must be >= 1"));
}
