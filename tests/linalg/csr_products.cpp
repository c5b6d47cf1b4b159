// Tests src/linalg/CsrProducts.*: transpose, A^T y, A x, A B and A^T A against the products
// applied to vectors in double, on rectangular random matrices and on products large
// enough to be split over threads (rows joined in order, columns ascending); misuse.
#include <catch2/catch.hpp>

#include "support/Random.h"

#include <texstream/linalg/Csr.h>
#include <texstream/linalg/CsrProducts.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

using namespace texstream;

namespace {

linalg::Csr randomSparse(std::size_t rows, std::size_t cols, int perRow, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int64_t> column(0, std::int64_t(cols) - 1);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::vector<std::int64_t> r, c;
  std::vector<double> v;
  for (std::size_t i = 0; i < rows; ++i)
    for (int k = 0; k < perRow; ++k) {
      r.push_back(std::int64_t(i));
      c.push_back(column(rng));
      v.push_back(value(rng));
    }
  return linalg::Csr::fromTriplets(rows, cols, r, c, v);
}

void requireAscendingColumns(const linalg::Csr& C) {
  for (std::size_t i = 0; i < C.rows; ++i)
    for (std::int64_t k = C.rowPtr[i] + 1; k < C.rowPtr[i + 1]; ++k)
      if (!(C.colIdx[std::size_t(k - 1)] < C.colIdx[std::size_t(k)])) FAIL("row " << i << ": columns not ascending");
}

}  // namespace

TEST_CASE("Sparse products equal the products applied to vectors", "[linalg][csr]") {
  // 1 x 1, rectangular, and 41,000 rows (split over threads where the machine has several).
  for (auto [m, k, n] : {std::tuple<std::size_t, std::size_t, std::size_t>{1, 1, 1}, {7, 97, 13}, {41000, 3001, 977}}) {
    INFO(m << " x " << k << " times " << k << " x " << n);
    const linalg::Csr A = randomSparse(m, k, 5, m + k), B = randomSparse(k, n, 4, k + n);
    const linalg::Csr C = linalg::multiply(A, B);
    C.validate("C");
    REQUIRE(C.rows == m);
    REQUIRE(C.cols == n);
    requireAscendingColumns(C);
    const std::vector<double> x = test::toDouble(test::randomFloats(n, n));
    const std::vector<double> want = A.multiply(B.multiply(x)), got = C.multiply(x);
    double worst = 0;
    for (std::size_t i = 0; i < m; ++i) worst = std::max(worst, std::abs(got[i] - want[i]));
    REQUIRE(worst < 1e-12);
    // The threaded vector product equals the serial one exactly (same sums, same order).
    std::vector<double> threaded(m, -1.0);
    linalg::multiplyVector(C, x, threaded);
    REQUIRE(threaded == got);
    // A^T A through the same product.
    const linalg::Csr N = linalg::normalMatrix(A);
    const std::vector<double> y = test::toDouble(test::randomFloats(k, k + 1));
    const std::vector<double> nWant = linalg::transposeMultiply(A, A.multiply(y)), nGot = N.multiply(y);
    worst = 0;
    for (std::size_t i = 0; i < k; ++i) worst = std::max(worst, std::abs(nGot[i] - nWant[i]));
    REQUIRE(worst < 1e-12);
  }
  CHECK_THROWS_WITH(linalg::multiply(randomSparse(3, 4, 2, 1), randomSparse(5, 2, 2, 2)),
                    Catch::Contains("A is 3x4, B is 5x2"));
  std::vector<double> x3(3), y3(3);
  CHECK_THROWS_WITH(linalg::multiplyVector(randomSparse(3, 4, 2, 1), x3, y3),
                    Catch::Contains("A is 3x4, x has 3 values and y 3"));
}
