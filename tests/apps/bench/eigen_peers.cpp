// texstream-bench's Eigen peers (apps/bench/EigenPeers.h): icCg reaches its tolerance in
// the true residual, in fewer iterations than unpreconditioned CG, and leaves Eigen's
// thread count as it found it. CPU only: no context.
#include "EigenPeers.h"

#include "support/Random.h"

#include <Eigen/IterativeLinearSolvers>

#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>
#include <vector>

using namespace texstream;
using namespace texstream::bench;

namespace {

double norm(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x * x;
  return std::sqrt(s);
}

// ||b - A x|| / ||b|| in double.
double trueRelativeResidual(const linalg::Csr& A, const std::vector<double>& b, const std::vector<double>& x) {
  std::vector<double> r = A.multiply(x);
  for (std::size_t i = 0; i < r.size(); ++i) r[i] = b[i] - r[i];
  return norm(r) / norm(b);
}

int plainCgIterations(const linalg::Csr& A, const std::vector<double>& b, double tolerance) {
  using Matrix = Eigen::SparseMatrix<double, Eigen::RowMajor, int>;
  const Matrix M = eigen::toEigen<double>(A);
  Eigen::ConjugateGradient<Matrix, Eigen::Lower | Eigen::Upper, Eigen::IdentityPreconditioner> cg;
  cg.setTolerance(tolerance);
  cg.setMaxIterations(10000);
  cg.compute(M);
  const Eigen::VectorXd x = cg.solve(Eigen::Map<const Eigen::VectorXd>(b.data(), Eigen::Index(b.size())));
  REQUIRE(cg.info() == Eigen::Success);
  return int(cg.iterations());
}

constexpr TimingSpec kQuick{.warmup = 0, .batches = 1, .minBatchMs = 0};

}  // namespace

TEST_CASE("eigen::icCg on a 3D Poisson matrix reaches the tolerance in the true residual, in fewer iterations "
          "than CG") {
  const linalg::Csr A = linalg::Csr::poisson3D(13, 11, 7);
  const std::vector<double> b = test::toDouble(test::randomFloats(A.rows, 3101));
  Eigen::setNbThreads(1);  // as texstream-bench's main() sets it for the other Eigen rows
  for (const double tolerance : {1e-4, 1e-8}) {
    CAPTURE(tolerance);
    std::vector<double> x;
    int iterations = -1;
    double setupMs = -1;
    const Timing t = eigen::icCg(A, b, tolerance, 1000, x, iterations, setupMs, kQuick);
    REQUIRE(x.size() == A.rows);
    CHECK(trueRelativeResidual(A, b, x) <= 1.05 * tolerance);
    const int cgIterations = plainCgIterations(A, b, tolerance);
    CAPTURE(iterations, cgIterations);
    CHECK(iterations > 0);
    CHECK(iterations < cgIterations);
    CHECK(setupMs >= 0);
    CHECK(t.ms > 0);
    CHECK(t.batches >= 1);
    CHECK(Eigen::nbThreads() == 1);
  }
  CHECK(eigen::icCgDescription().find("Eigen ") == 0);
}

TEST_CASE("eigen::icCg refuses a right-hand side of the wrong size") {
  const linalg::Csr A = linalg::Csr::poisson3D(3, 3, 3);
  std::vector<double> x;
  int iterations = 0;
  double setupMs = 0;
  CHECK_THROWS_AS(eigen::icCg(A, std::vector<double>(26, 1.0), 1e-6, 100, x, iterations, setupMs, kQuick),
                  std::invalid_argument);
}
