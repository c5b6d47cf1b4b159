// Tests src/linalg/DenseMatrix.*: y = A x and diag(A) against double references on random
// matrices of awkward shapes (several column batches, single rows/columns), both backends,
// from row-major data and from CSR; size errors name the matrix and the vector.
#include <catch2/catch.hpp>

#include "linalg/LinalgTestSupport.h"
#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/linalg/Csr.h>
#include <texstream/linalg/DenseMatrix.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/stream/Vector.h>

#include <cmath>
#include <limits>
#include <stdexcept>

using namespace texstream;
using linalg::DenseMatrix;
using stream::Vector;

TEST_CASE("DenseMatrix::apply matches a double product", "[gl][linalg]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const std::pair<std::size_t, std::size_t> shapes[] = {{1, 1},  {1, 7},   {7, 1},    {5, 3},   {3, 5},
                                                        {64, 64}, {97, 89}, {130, 301}, {1000, 5}, {2, 4097}};
  for (auto [rows, cols] : shapes) {
    INFO(rows << "x" << cols);
    const auto as = test::randomFloats(rows * cols, rows * 7919 + cols);
    const auto xs = test::randomFloats(cols, rows + 3 * cols);
    const DenseMatrix a(rows, cols, as, "A");
    REQUIRE(a.rows() == rows);
    REQUIRE(a.cols() == cols);
    REQUIRE(a.batches() == int((cols + 3) / 4 * 4 + DenseMatrix::kColumnsPerBatch - 1) / DenseMatrix::kColumnsPerBatch);
    Vector x(cols, "x"), y(rows, "y");
    x.upload(xs);
    linalg::fill(y, 1e6f);  // poison: apply overwrites y
    a.apply(x, y);
    const auto ref = test::denseMultiply(rows, cols, as, xs);
    double scale = 1e-30;
    for (std::size_t i = 0; i < rows; ++i) {
      double s = 0;
      for (std::size_t j = 0; j < cols; ++j) s += std::abs(double(as[i * cols + j]) * xs[j]);
      scale = std::max(scale, s);
    }
    REQUIRE(test::maxErrorOver(y.download(), ref, scale) <= 1e-6);
    REQUIRE(test::paddingIsZero(y));
    REQUIRE(a.flopsPerApply() == 2.0 * double(rows) * double(cols));
    REQUIRE(a.bytesPerApply() >= 4.0 * double(rows) * double(cols));
  }
}

TEST_CASE("DenseMatrix::diagonal and fromCsr", "[gl][linalg]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  for (std::size_t n : {std::size_t(1), std::size_t(5), std::size_t(97), std::size_t(300)}) {
    INFO("n = " << n);
    const linalg::Csr csr = test::randomCsr(n, n, 3.0, n + 5);
    const DenseMatrix a = DenseMatrix::fromCsr(csr, "A");
    const auto xs = test::toDouble(test::randomFloats(n, 2 * n));
    Vector x(n, "x"), y(n, "y"), d(n, "d");
    x.upload(xs);
    a.apply(x, y);
    REQUIRE(test::maxErrorOver(y.download(), csr.multiply(xs), test::productScale(csr, xs)) <= 1e-6);

    std::vector<double> diag(n, 0.0);
    for (std::size_t r = 0; r < n; ++r) {
      for (std::int64_t k = csr.rowPtr[r]; k < csr.rowPtr[r + 1]; ++k) {
        if (std::size_t(csr.colIdx[std::size_t(k)]) == r) diag[r] += csr.values[std::size_t(k)];
      }
    }
    d.upload(test::randomFloats(n, 3));  // poison
    a.diagonal(d);
    REQUIRE(test::maxErrorOver(d.download(), diag, 1.0) <= 1e-7);

    const auto as = test::randomFloats(n * n, n + 77);
    const DenseMatrix b(n, n, as, "B");
    std::vector<double> bdiag(n);
    for (std::size_t i = 0; i < n; ++i) bdiag[i] = as[i * n + i];
    b.diagonal(d);
    REQUIRE(test::maxErrorOver(d.download(), bdiag, 1.0) == 0.0);
  }
}

TEST_CASE("DenseMatrix rejects bad shapes with the matrix's name", "[gl][linalg]") {
  test::context();
  const DenseMatrix a(7, 5, test::randomFloats(35, 1), "A");
  Vector x5(5, "x5"), x7(7, "x7"), y7(7, "y7"), y5(5, "y5");
  REQUIRE_THROWS_WITH(a.apply(x7, y7), Catch::Contains("DenseMatrix(\"A\").apply: x has n=7, expected 5"));
  REQUIRE_THROWS_WITH(a.apply(x5, y5), Catch::Contains("DenseMatrix(\"A\").apply: y has n=5, expected 7"));
  REQUIRE_THROWS_WITH(a.diagonal(y7), Catch::Contains("DenseMatrix(\"A\").diagonal") && Catch::Contains("not square"));
  const DenseMatrix s(5, 5, test::randomFloats(25, 2), "S");
  REQUIRE_THROWS_WITH(s.apply(x5, x5), Catch::Contains("DenseMatrix(\"S\").apply: y must not be x"));
  // rows x cols wraps around std::size_t to 0, which an empty value list would match (2^32
  // squared where size_t has 64 bits, 2^16 squared where it has 32, as in wasm).
  const std::size_t half = std::size_t(1) << (std::numeric_limits<std::size_t>::digits / 2);
  REQUIRE_THROWS_WITH(DenseMatrix(half, half, {}, "W"),
                      Catch::Contains("DenseMatrix(\"W\")") && Catch::Contains("overflows std::size_t"));
  REQUIRE_THROWS_WITH(s.diagonal(y7), Catch::Contains("DenseMatrix(\"S\").diagonal: d has n=7, expected 5"));
  Vector empty;
  REQUIRE_THROWS_WITH(s.apply(empty, y5), Catch::Contains("x is an empty vector"));
  REQUIRE_THROWS_WITH(DenseMatrix(3, 3, std::vector<float>(8), "B"),
                      Catch::Contains("DenseMatrix(\"B\")") && Catch::Contains("got 8 values"));
  REQUIRE_THROWS_AS(DenseMatrix(0, 3, {}, "E"), std::invalid_argument);
  linalg::Csr bad = linalg::Csr::poisson2D(2, 2);
  bad.colIdx[0] = 9;
  REQUIRE_THROWS_WITH(DenseMatrix::fromCsr(bad, "C"), Catch::Contains("DenseMatrix::fromCsr(\"C\")") &&
                                                         Catch::Contains("column 9 out of range"));
}
