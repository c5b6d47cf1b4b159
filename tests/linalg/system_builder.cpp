// Tests src/linalg/SystemBuilder.* and CsrProducts.*: the assembled system (locked
// variables moved to the right-hand side, weights, blocks, several right-hand sides) solves
// to Eigen's double-precision least-squares (QR) or square solution of the recorded rows;
// every misuse gives a message naming the row and the variable. CPU only.
#include <catch2/catch.hpp>

#include "linalg/SystemTestSupport.h"
#include "support/Random.h"

#include <texstream/linalg/CsrProducts.h>
#include <texstream/linalg/SystemBuilder.h>

#include <Eigen/Dense>

#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

using namespace texstream;
using linalg::SystemBuilder;
using linalg::SystemMode;
using Catch::Matchers::Contains;

namespace {

Eigen::MatrixXd dense(const linalg::Csr& A) {
  Eigen::MatrixXd D = Eigen::MatrixXd::Zero(Eigen::Index(A.rows), Eigen::Index(A.cols));
  for (std::size_t r = 0; r < A.rows; ++r)
    for (std::int64_t k = A.rowPtr[r]; k < A.rowPtr[r + 1]; ++k)
      D(Eigen::Index(r), A.colIdx[std::size_t(k)]) += A.values[std::size_t(k)];
  return D;
}

/// The system's own matrix() and rhs(k) solved densely in double, expanded to every scalar.
std::vector<double> solveAssembled(const linalg::LinearSystem& s, int k) {
  const Eigen::MatrixXd N = dense(s.matrix());
  const std::vector<double> f = s.rhs(k);
  const Eigen::VectorXd x = N.fullPivLu().solve(Eigen::Map<const Eigen::VectorXd>(f.data(), Eigen::Index(f.size())));
  return s.expand(std::vector<double>(x.data(), x.data() + x.size()), k);
}

double maxDifference(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0, scale = 1e-300;
  for (std::size_t i = 0; i < a.size(); ++i) {
    d = std::max(d, std::abs(a[i] - b[i]));
    scale = std::max(scale, std::abs(b[i]));
  }
  return d / scale;
}

}  // namespace

TEST_CASE("CsrProducts: transpose, A^T y and A^T A match dense products", "[linalg]") {
  for (auto [rows, cols] : {std::pair<std::size_t, std::size_t>{1, 1}, {7, 3}, {3, 7}, {97, 41}}) {
    INFO(rows << "x" << cols);
    const auto v = test::randomFloats(rows * cols, rows * 31 + cols);
    std::vector<std::int64_t> r, c;
    std::vector<double> x;
    for (std::size_t i = 0; i < rows * cols; ++i) {
      if (std::abs(v[i]) < 0.5f && i != 0) continue;
      r.push_back(std::int64_t(i / cols));
      c.push_back(std::int64_t(i % cols));
      x.push_back(v[i]);
    }
    const linalg::Csr A = linalg::Csr::fromTriplets(rows, cols, r, c, x);
    const Eigen::MatrixXd D = dense(A);
    REQUIRE((dense(linalg::transpose(A)) - D.transpose()).norm() == 0.0);
    const Eigen::MatrixXd N = dense(linalg::normalMatrix(A));
    REQUIRE((N - D.transpose() * D).norm() <= 1e-12 * (1 + N.norm()));
    REQUIRE(N == N.transpose());  // exactly symmetric
    const auto y = test::toDouble(test::randomFloats(rows, rows + 5));
    const std::vector<double> aty = linalg::transposeMultiply(A, y);
    const Eigen::VectorXd ref = D.transpose() * Eigen::Map<const Eigen::VectorXd>(y.data(), Eigen::Index(rows));
    for (std::size_t j = 0; j < cols; ++j) REQUIRE(aty[j] == Approx(ref(Eigen::Index(j))).margin(1e-12));
  }
  REQUIRE_THROWS_WITH(linalg::transposeMultiply(linalg::Csr::poisson2D(2, 2), std::vector<double>(3)),
                      Contains("y has 3 values, A has 4 rows"));
}

TEST_CASE("CsrProducts: a transpose split over threads keeps every entry in order", "[linalg]") {
  // 30,011 x 5,003 with about 8 entries a row and one column in a third of the rows:
  // transpose() splits the rows over threads (linalg/RowBlocks.h). Each entry moves to
  // (column, row), every row of A^T ascending, as the serial transpose of A^T gives back A.
  const std::size_t rows = 30011, cols = 5003;
  std::mt19937_64 rng(5);
  std::uniform_int_distribution<std::int64_t> column(0, std::int64_t(cols) - 1);
  std::vector<std::int64_t> r, c;
  std::vector<double> v;
  for (std::size_t i = 0; i < rows; ++i) {
    for (int k = 0; k < 8; ++k) {
      r.push_back(std::int64_t(i));
      c.push_back(column(rng));
      v.push_back(double(i) + double(k) / 8.0);
    }
    if (i % 3 == 0) {  // column 7 in a third of the rows: one long row of A^T
      r.push_back(std::int64_t(i));
      c.push_back(7);
      v.push_back(-double(i));
    }
  }
  const linalg::Csr A = linalg::Csr::fromTriplets(rows, cols, r, c, v);
  const linalg::Csr T = linalg::transpose(A);
  CHECK(T.rowPtr[8] - T.rowPtr[7] >= std::int64_t(rows / 3));
  T.validate("T");  // sorted, in range
  REQUIRE(T.rows == cols);
  REQUIRE(T.nonZeros() == A.nonZeros());
  const linalg::Csr back = linalg::transpose(T);
  REQUIRE(back.rowPtr == A.rowPtr);
  REQUIRE(back.colIdx == A.colIdx);
  REQUIRE(back.values == A.values);
  // A^T y by the transpose equals A^T y by scattering A's rows.
  const auto y = test::toDouble(test::randomFloats(rows, 6));
  const std::vector<double> viaTranspose = T.multiply(y), direct = linalg::transposeMultiply(A, y);
  for (std::size_t j = 0; j < cols; ++j) REQUIRE(viaTranspose[j] == Approx(direct[j]).epsilon(1e-12));
}

TEST_CASE("SystemBuilder: least squares with locked variables, weights, blocks and several systems", "[linalg]") {
  for (int blockSize : {1, 2, 4}) {
    for (std::size_t variables : {std::size_t(1), std::size_t(2), std::size_t(7), std::size_t(37)}) {
      for (int systems : {1, 3}) {
        INFO("block " << blockSize << ", variables " << variables << ", systems " << systems);
        const test::RandomSystem rs = test::randomLeastSquares(variables, blockSize, systems, variables * 7 + std::size_t(blockSize));
        const linalg::LinearSystem s = rs.builder("random").build();
        REQUIRE(s.scalars() == variables * std::size_t(blockSize));
        REQUIRE(s.rowCount() == rs.rows.size());
        REQUIRE(s.symmetric());
        for (int k = 0; k < systems; ++k) {
          const std::vector<double> ref = rs.reference(k);
          const std::vector<double> got = solveAssembled(s, k);
          REQUIRE(maxDifference(got, ref) < 1e-9);
          // The reference minimises the objective: a perturbation raises it.
          std::vector<double> moved = ref;
          for (std::size_t i = 0; i < moved.size(); ++i)
            if (s.unknownOfScalar()[i] >= 0) moved[i] += 1e-3;
          REQUIRE(s.objective(ref, k) < s.objective(moved, k));
        }
      }
    }
  }
}

TEST_CASE("SystemBuilder: square systems move locked variables to the right-hand side", "[linalg]") {
  for (int blockSize : {1, 2, 4}) {
    for (std::size_t variables : {std::size_t(1), std::size_t(5), std::size_t(13)}) {
      INFO("block " << blockSize << ", variables " << variables);
      const test::RandomSystem rs = test::randomSquare(variables, blockSize, variables + 100);
      const linalg::LinearSystem s = rs.builder("square").build();
      REQUIRE(s.mode() == SystemMode::Square);
      REQUIRE(s.symmetric());
      REQUIRE(maxDifference(solveAssembled(s, 0), rs.reference(0)) < 1e-9);
    }
  }
  SystemBuilder b(2, SystemMode::Square, "skew");
  b.beginRow();
  b.coefficient(0, 2.0);
  b.coefficient(1, 1.0);
  b.endRow(1.0);
  b.beginRow();
  b.coefficient(0, -1.0);
  b.coefficient(1, 2.0);
  b.endRow(1.0);
  REQUIRE_FALSE(b.build().symmetric());
}

TEST_CASE("LinearSystem: new right-hand sides and locked values equal a rebuilt system", "[linalg]") {
  test::RandomSystem rs = test::randomLeastSquares(11, 2, 2, 5);
  linalg::LinearSystem s = rs.builder("update").build();
  std::size_t lockedVariable = 0;
  while (!rs.locked[lockedVariable]) ++lockedVariable;
  const std::array<double, 4> lockedValues = {0.25, -0.5, 0.75, 1.5};
  s.setLockedValues(lockedVariable, lockedValues);
  std::copy(lockedValues.begin(), lockedValues.end(), rs.values.begin() + std::ptrdiff_t(lockedVariable * 4));
  const std::array<double, 2> rhs = {3.0, -2.0};
  s.setRowRhs(std::size_t(4), rhs);
  rs.rows[4].rhs = {3.0, -2.0};
  const linalg::LinearSystem rebuilt = rs.builder("update").build();
  for (int k = 0; k < 2; ++k) {
    REQUIRE(s.rhs(k) == rebuilt.rhs(k));
    REQUIRE(maxDifference(solveAssembled(s, k), rs.reference(k)) < 1e-9);
  }
  std::vector<double> column(s.rowCount(), 0.5);
  s.setRowRhs(1, column);
  REQUIRE(s.scaledRhs(1).size() == s.rowCount());
  std::size_t freeVariable = 0;
  while (rs.locked[freeVariable]) ++freeVariable;
  REQUIRE_THROWS_WITH(s.setLockedValues(freeVariable, lockedValues), Contains("is free"));
  const std::array<double, 2> nan = {1.0, std::nan("")};
  REQUIRE_THROWS_WITH(s.setRowRhs(std::size_t(0), nan), Contains("row 0: value 1 is NaN"));
  REQUIRE_THROWS_WITH(s.setRowRhs(2, column), Contains("system 2 does not exist"));
}

TEST_CASE("SystemBuilder: misuse names the row and the variable", "[linalg]") {
  const double inf = std::numeric_limits<double>::infinity();
  SECTION("construction") {
    REQUIRE_THROWS_WITH(SystemBuilder(0, SystemMode::LeastSquares, "s"), Contains("system \"s\": no variables"));
    REQUIRE_THROWS_WITH(SystemBuilder(3, SystemMode::LeastSquares, "s", 3), Contains("block size 3 (must be 1, 2 or 4)"));
    REQUIRE_THROWS_WITH(SystemBuilder(3, SystemMode::LeastSquares, "s", 1, 0), Contains("0 systems"));
  }
  SystemBuilder b(4, SystemMode::LeastSquares, "s", 2);
  SECTION("a coefficient outside a row") {
    REQUIRE_THROWS_WITH(b.coefficient(1, 0, 2.0), Contains("coefficient 2 of variable 1 outside a row: call beginRow() first"));
  }
  SECTION("an unknown variable or component") {
    b.beginRow();
    REQUIRE_THROWS_WITH(b.coefficient(4, 0, 1.0), Contains("system \"s\": row 0: coefficient: variable 4 does not exist"));
    REQUIRE_THROWS_WITH(b.coefficient(2, 2, 1.0), Contains("row 0: variable 2: component 2 does not exist (block size 2)"));
    REQUIRE_THROWS_WITH(b.coefficient(2, 1.0), Contains("without a component"));
  }
  SECTION("NaN and infinite values") {
    b.beginRow();
    REQUIRE_THROWS_WITH(b.coefficient(3, 1, std::nan("")), Contains("row 0: coefficient of variable 3 component 1 is NaN"));
    b.coefficient(3, 1, 1.0);
    REQUIRE_THROWS_WITH(b.endRow(inf), Contains("row 0: right-hand side is Inf"));
    REQUIRE_THROWS_WITH(b.endRow(1.0, 0.0), Contains("row 0: weight 0 (must be positive and finite)"));
    REQUIRE_THROWS_WITH(b.endRow(1.0, -2.0), Contains("weight -2"));
    const std::array<double, 2> bad = {1.0, std::nan("")};
    REQUIRE_THROWS_WITH(b.lock(0, bad), Contains("lock variable 0: value 1 is NaN"));
    const std::array<double, 1> few = {1.0};
    REQUIRE_THROWS_WITH(b.lock(0, few), Contains("1 values given, expected block size x systems = 2"));
    REQUIRE_THROWS_WITH(b.lock(7, bad), Contains("lock: variable 7 does not exist"));
  }
  SECTION("rows opened twice, closed twice, empty or left open") {
    REQUIRE_THROWS_WITH(b.endRow(), Contains("endRow() without beginRow() (0 rows so far)"));
    b.beginRow();
    REQUIRE_THROWS_WITH(b.beginRow(), Contains("row 0: beginRow() while the row is still open"));
    REQUIRE_THROWS_WITH(b.endRow(), Contains("row 0: no coefficients"));
    b.coefficient(0, 0, 1.0);
    REQUIRE_THROWS_WITH(b.build(), Contains("build() while row 0 is open"));
  }
  SECTION("a row on locked variables only, a free variable in no row, an empty system") {
    REQUIRE_THROWS_WITH(b.build(), Contains("no rows (the system is empty)"));
    const std::array<double, 2> zero = {0.0, 0.0};
    b.lock(1, zero);
    b.lock(2, zero);
    for (std::size_t v : {std::size_t(0), std::size_t(3)}) {
      b.beginRow();
      b.coefficient(v, 0, 1.0);
      b.coefficient(v, 1, 1.0);
      b.endRow();
    }
    b.beginRow();
    b.coefficient(1, 0, 1.0);
    b.coefficient(2, 1, 1.0);
    b.endRow();
    REQUIRE_THROWS_WITH(b.build(), Contains("row 2: every coefficient is on a locked variable (1, 2)"));
    b.unlock(2);
    REQUIRE_NOTHROW(b.build());
    SystemBuilder gap(3, SystemMode::LeastSquares, "gap");
    for (std::size_t v : {std::size_t(0), std::size_t(2)}) {
      gap.beginRow();
      gap.coefficient(v, 1.0);
      gap.endRow(1.0);
    }
    REQUIRE_THROWS_WITH(gap.build(), Contains("system \"gap\": variable 1 is free but appears in no row"));
    for (std::size_t v = 0; v < 4; ++v) b.lock(v, zero);
    REQUIRE_THROWS_WITH(b.build(), Contains("every variable is locked"));
    REQUIRE_THROWS_WITH(b.setValue(0, zero), Contains("setValue: variable 0 is locked"));
  }
  SECTION("a square system with the wrong row count") {
    SystemBuilder sq(3, SystemMode::Square, "sq");
    sq.beginRow();
    sq.coefficient(0, 1.0);
    sq.coefficient(1, 1.0);
    sq.coefficient(2, 1.0);
    sq.endRow(1.0);
    REQUIRE_THROWS_WITH(sq.build(), Contains("one row per free unknown: 1 rows, 3 free unknowns"));
  }
  SECTION("one value where a variable takes several") {
    SystemBuilder multi(2, SystemMode::LeastSquares, "multi", 1, 2);
    REQUIRE_THROWS_WITH(multi.lock(0, 1.0), Contains("one value given, but each variable takes block size x systems = 2"));
    multi.beginRow();
    multi.coefficient(0, 1.0);
    REQUIRE_THROWS_WITH(multi.endRow(1.0), Contains("row 0: endRow(rhs) with one right-hand side, the system has 2"));
  }
}

TEST_CASE("SystemBuilder: initial guesses and expand", "[linalg]") {
  SystemBuilder b(3, SystemMode::LeastSquares, "guess", 2);
  const std::array<double, 2> pin = {5.0, 6.0}, guess = {1.5, -2.5};
  b.lock(1, pin);
  b.setValue(2, guess);
  for (std::size_t v : {std::size_t(0), std::size_t(2)}) {
    for (int c = 0; c < 2; ++c) {
      b.beginRow();
      b.coefficient(v, c, 1.0);
      b.coefficient(1, c, -1.0);
      b.endRow(0.0);
    }
  }
  const linalg::LinearSystem s = b.build();
  REQUIRE(s.unknowns() == 4);
  REQUIRE(s.isLocked(1));
  REQUIRE(s.initialGuess(0) == std::vector<double>{0.0, 0.0, 1.5, -2.5});
  REQUIRE(s.expand(std::vector<double>{1, 2, 3, 4}, 0) == std::vector<double>{1, 2, 5, 6, 3, 4});
  // x_v - x_1 = 0: every free variable equals the pin.
  REQUIRE(solveAssembled(s, 0) == std::vector<double>{5, 6, 5, 6, 5, 6});
}

TEST_CASE("SystemBuilder: a large system, reserved in part and built on threads, keeps every row", "[linalg]") {
  // 60,011 rows of about 4 coefficients: enough work for build() to split them over
  // threads (linalg/RowBlocks.h's workThreads). The built system's objective at random
  // values equals the sum over the recorded rows.
  const std::size_t variables = 4001, rows = 60011;
  const int B = 2;
  std::mt19937_64 rng(77);
  std::uniform_int_distribution<std::size_t> pickVariable(0, variables - 1);
  std::uniform_int_distribution<int> pickCount(1, 7), pickComponent(0, B - 1);
  std::uniform_real_distribution<double> value(-1.0, 1.0), weight(0.5, 2.0);
  SystemBuilder builder(variables, SystemMode::LeastSquares, "large", B);
  std::vector<double> values(variables * B);
  for (double& v : values) v = value(rng);
  for (std::size_t v = 0; v < variables; v += 31) builder.lock(v, std::array<double, 2>{values[B * v], values[B * v + 1]});
  double expected = 0;
  builder.reserve(rows / 2, 2 * rows);  // room for half the rows: reserve() is a hint, the rest grows
  for (std::size_t r = 0; r < rows; ++r) {
    builder.beginRow();
    // Every row holds a free variable (one not a multiple of 31) and may repeat entries.
    std::size_t first = pickVariable(rng);
    if (first % 31 == 0) first = (first + 1) % variables;
    double dot = 0;
    for (int e = pickCount(rng); e > 0; --e) {
      const std::size_t v = e == 1 ? first : pickVariable(rng);
      const int c = pickComponent(rng);
      const double a = value(rng);
      builder.coefficient(v, c, a);
      dot += a * values[B * v + std::size_t(c)];
    }
    const double rhs = value(rng), w = weight(rng);
    builder.endRow(rhs, w);
    expected += w * (dot - rhs) * (dot - rhs);
  }
  const linalg::LinearSystem s = builder.build();
  REQUIRE(s.rowCount() == rows);
  s.rows().validate("rows");
  s.matrix().validate("matrix");
  CHECK(std::abs(s.objective(values, 0) - expected) <= 1e-9 * expected);
}
