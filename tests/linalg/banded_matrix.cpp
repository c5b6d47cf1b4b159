// Tests src/linalg/BandedMatrix.*: y = A x with diagonals at arbitrary (unaligned, negative,
// far) offsets against double references, entries past the matrix edge dropped, diag(A),
// fromCsr, and the errors for bad input.
#include <catch2/catch.hpp>

#include "linalg/LinalgTestSupport.h"
#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/linalg/BandedMatrix.h>
#include <texstream/linalg/Csr.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/stream/Vector.h>

#include <cmath>
#include <stdexcept>

using namespace texstream;
using linalg::BandedMatrix;
using stream::Vector;

TEST_CASE("BandedMatrix::apply matches a double product for arbitrary offsets", "[gl][linalg]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  std::vector<std::size_t> sizes = test::awkwardSizes();
  for (std::size_t n : sizes) {
    INFO("n = " << n);
    std::vector<int> offsets;
    for (int off : {0, -1, 1, 2, -3, 4, -8, 33, -61, 1000, -4000}) {
      if (std::abs(off) < int(n)) offsets.push_back(off);
    }
    std::vector<std::vector<float>> diagonals;
    for (std::size_t k = 0; k < offsets.size(); ++k) diagonals.push_back(test::randomFloats(n, 100 * n + k));
    const BandedMatrix a(n, offsets, diagonals, "A");
    const auto xs = test::randomFloats(n, n + 1);
    std::vector<double> ref(n, 0.0);
    double scale = 1e-30;
    for (std::size_t i = 0; i < n; ++i) {
      double s = 0;
      for (std::size_t k = 0; k < offsets.size(); ++k) {
        const long long j = (long long)i + offsets[k];
        if (j < 0 || j >= (long long)n) continue;  // past the edge: not part of A
        ref[i] += double(diagonals[k][i]) * xs[std::size_t(j)];
        s += std::abs(double(diagonals[k][i]) * xs[std::size_t(j)]);
      }
      scale = std::max(scale, s);
    }
    Vector x(n, "x"), y(n, "y"), d(n, "d");
    x.upload(xs);
    linalg::fill(y, -7.0f);
    a.apply(x, y);
    REQUIRE(test::maxErrorOver(y.download(), ref, scale) <= 1e-6);
    REQUIRE(test::paddingIsZero(y));
    a.diagonal(d);
    REQUIRE(test::maxRelativeError(d.download(), test::toDouble(diagonals[0])) == 0.0);
    REQUIRE(a.flopsPerApply() == 2.0 * double(n) * double(offsets.size()));
  }
}

TEST_CASE("BandedMatrix without a main diagonal has diag(A) = 0; x in another layout works", "[gl][linalg]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const std::size_t n = 1000;
  const std::vector<int> offsets{-5, 3};
  const std::vector<std::vector<float>> diags{test::randomFloats(n, 1), test::randomFloats(n, 2)};
  const BandedMatrix a(n, offsets, diags, "A");
  Vector d(n, "d");
  d.upload(test::randomFloats(n, 3));
  a.diagonal(d);
  REQUIRE(test::maxRelativeError(d.download(), std::vector<double>(n, 0.0)) == 0.0);

  const auto xs = test::randomFloats(n, 4);
  Vector x(stream::Layout::withWidth(n, 7), "x-narrow"), y(n, "y");
  x.upload(xs);
  a.apply(x, y);
  std::vector<double> ref(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    if (i >= 5) ref[i] += double(diags[0][i]) * xs[i - 5];
    if (i + 3 < n) ref[i] += double(diags[1][i]) * xs[i + 3];
  }
  REQUIRE(test::maxErrorOver(y.download(), ref, 2.0) <= 1e-6);
}

TEST_CASE("BandedMatrix::fromCsr matches the CSR product", "[gl][linalg]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  for (std::size_t n : {std::size_t(1), std::size_t(7), std::size_t(97), std::size_t(4097)}) {
    INFO("n = " << n);
    // A random matrix inside a band of half-width 6: at most 13 distinct offsets.
    std::vector<std::int64_t> r, c;
    std::vector<double> v;
    const auto vals = test::randomFloats(5 * n, n + 8);
    const auto picks = test::randomFloats(5 * n, n + 9, 0.0f, 1.0f);
    for (std::size_t k = 0; k < 5 * n; ++k) {
      const std::int64_t i = std::int64_t(k / 5);
      const std::int64_t j = std::clamp<std::int64_t>(i + std::int64_t(picks[k] * 13.0f) - 6, 0, std::int64_t(n) - 1);
      r.push_back(i);
      c.push_back(j);
      v.push_back(vals[k]);
    }
    const auto csr = linalg::Csr::fromTriplets(n, n, r, c, v);
    const BandedMatrix a = BandedMatrix::fromCsr(csr, "A");
    REQUIRE(a.offsets().size() <= 13);
    const auto xs = test::toDouble(test::randomFloats(n, n + 10));
    Vector x(n, "x"), y(n, "y");
    x.upload(xs);
    a.apply(x, y);
    REQUIRE(test::maxErrorOver(y.download(), csr.multiply(xs), test::productScale(csr, xs)) <= 1e-6);
  }
}

TEST_CASE("BandedMatrix rejects bad input with clear messages", "[gl][linalg]") {
  test::context();
  const std::vector<float> five(5, 1.0f);
  REQUIRE_THROWS_WITH(BandedMatrix(5, {0, 1, 1}, {five, five, five}, "B"),
                      Catch::Contains("BandedMatrix(\"B\")") && Catch::Contains("offset 1 given twice"));
  REQUIRE_THROWS_WITH(BandedMatrix(5, {0, 5}, {five, five}, "B"), Catch::Contains("offset 5 outside (-n, n)"));
  REQUIRE_THROWS_WITH(BandedMatrix(5, {0, 1}, {five, std::vector<float>(4)}, "B"),
                      Catch::Contains("diagonal 1 (offset 1) has 4 values, expected n = 5"));
  REQUIRE_THROWS_WITH(BandedMatrix(5, {0, 1}, {five}, "B"), Catch::Contains("2 offsets but 1 diagonals"));
  REQUIRE_THROWS_AS(BandedMatrix(5, {}, {}, "B"), std::invalid_argument);

  const auto wide = test::randomCsr(50, 50, 5.0, 3);  // scattered: many offsets
  REQUIRE_THROWS_WITH(BandedMatrix::fromCsr(wide, "W", 8),
                      Catch::Contains("BandedMatrix::fromCsr(\"W\")") && Catch::Contains("distinct diagonals") &&
                          Catch::Contains("maxDiagonals = 8"));
  REQUIRE_THROWS_WITH(BandedMatrix::fromCsr(test::randomCsr(4, 6, 2.0, 4), "R"), Catch::Contains("must be square"));

  const BandedMatrix a(5, {0, -1}, {five, five}, "A");
  Vector x4(4, "x4"), x5(5, "x5"), y5(5, "y5");
  REQUIRE_THROWS_WITH(a.apply(x4, y5), Catch::Contains("BandedMatrix(\"A\").apply: x has n=4, expected 5"));
  REQUIRE_THROWS_WITH(a.apply(x5, x4), Catch::Contains("BandedMatrix(\"A\").apply: y has n=4, expected 5"));
  REQUIRE_THROWS_WITH(a.apply(x5, x5), Catch::Contains("y must not be x"));
  Vector yNarrow(stream::Layout::withWidth(5, 1), "y-narrow");
  REQUIRE_THROWS_WITH(a.apply(x5, yNarrow), Catch::Contains("\"y-narrow\"") && Catch::Contains("Layout::forSize"));
  REQUIRE_THROWS_WITH(a.diagonal(x4), Catch::Contains("BandedMatrix(\"A\").diagonal: d has n=4"));
}
