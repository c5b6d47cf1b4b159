// Tests src/linalg/Csr.*: validation messages, triplet assembly, the double product and the
// Poisson matrices' invariants. CPU only.
#include <catch2/catch.hpp>

#include "linalg/LinalgTestSupport.h"
#include "support/Random.h"

#include <texstream/linalg/Csr.h>

#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

using namespace texstream;
using linalg::Csr;

namespace {

std::map<std::pair<std::size_t, std::size_t>, double> entries(const Csr& a) {
  std::map<std::pair<std::size_t, std::size_t>, double> m;
  for (std::size_t r = 0; r < a.rows; ++r) {
    for (std::int64_t k = a.rowPtr[r]; k < a.rowPtr[r + 1]; ++k) {
      m[{r, std::size_t(a.colIdx[std::size_t(k)])}] += a.values[std::size_t(k)];
    }
  }
  return m;
}

}  // namespace

TEST_CASE("Csr::fromTriplets sums duplicates and multiply matches a dense product", "[linalg]") {
  for (auto [rows, cols] : {std::pair<std::size_t, std::size_t>{1, 1}, {5, 3}, {3, 5}, {97, 97}, {200, 31}}) {
    INFO(rows << "x" << cols);
    const auto rs = test::randomFloats(4 * rows, rows + 1, 0.0f, 1.0f);
    const auto cs = test::randomFloats(4 * rows, rows + 2, 0.0f, 1.0f);
    const auto vs = test::randomFloats(4 * rows, rows + 3);
    std::vector<std::int64_t> r, c;
    std::vector<double> v;
    std::vector<float> dense(rows * cols, 0.0f);
    for (std::size_t k = 0; k < rs.size(); ++k) {
      r.push_back(std::min<std::int64_t>(std::int64_t(rs[k] * rows), std::int64_t(rows) - 1));
      c.push_back(std::min<std::int64_t>(std::int64_t(cs[k] * cols), std::int64_t(cols) - 1));
      v.push_back(vs[k]);
    }
    std::vector<double> denseD(rows * cols, 0.0);
    for (std::size_t k = 0; k < r.size(); ++k) denseD[std::size_t(r[k]) * cols + std::size_t(c[k])] += v[k];
    const Csr a = Csr::fromTriplets(rows, cols, r, c, v);
    REQUIRE_NOTHROW(a.validate("a"));
    for (std::size_t i = 0; i < rows; ++i) {
      for (std::int64_t k = a.rowPtr[i] + 1; k < a.rowPtr[i + 1]; ++k) {
        REQUIRE(a.colIdx[std::size_t(k - 1)] < a.colIdx[std::size_t(k)]);  // sorted, no duplicates
      }
    }
    const auto xs = test::toDouble(test::randomFloats(cols, rows + 4));
    const auto y = a.multiply(xs);
    for (std::size_t i = 0; i < rows; ++i) {
      double ref = 0;
      for (std::size_t j = 0; j < cols; ++j) ref += denseD[i * cols + j] * xs[j];
      REQUIRE(y[i] == Approx(ref).margin(1e-12));
    }
  }
}

TEST_CASE("Csr::validate names the first problem", "[linalg]") {
  Csr good = Csr::poisson2D(3, 2);
  REQUIRE_NOTHROW(good.validate("good"));

  Csr a = good;
  a.rowPtr.pop_back();
  REQUIRE_THROWS_WITH(a.validate("A"), Catch::Contains("A:") && Catch::Contains("rowPtr has 6 entries"));
  a = good;
  std::swap(a.rowPtr[2], a.rowPtr[3]);
  REQUIRE_THROWS_WITH(a.validate("A"), Catch::Contains("not monotone"));
  a = good;
  a.colIdx[4] = 6;
  REQUIRE_THROWS_WITH(a.validate("A"), Catch::Contains("column 6 out of range"));
  a = good;
  a.colIdx[0] = -1;
  REQUIRE_THROWS_WITH(a.validate("A"), Catch::Contains("column -1 out of range"));
  a = good;
  a.values[3] = std::numeric_limits<double>::quiet_NaN();
  REQUIRE_THROWS_WITH(a.validate("A"), Catch::Contains("non-finite"));
  a = good;
  a.values.pop_back();
  REQUIRE_THROWS_WITH(a.validate("A"), Catch::Contains("values has"));
  a = good;
  a.rowPtr[0] = 1;
  REQUIRE_THROWS_WITH(a.validate("A"), Catch::Contains("rowPtr[0]"));
  a = good;
  a.rowPtr.back() -= 1;
  REQUIRE_THROWS_AS(a.validate("A"), std::invalid_argument);

  REQUIRE_THROWS_WITH(good.multiply(std::vector<double>(5)), Catch::Contains("x has n=5, expected 6"));
  REQUIRE_THROWS_WITH(Csr::fromTriplets(2, 2, {0, 2}, {0, 0}, {1.0, 2.0}), Catch::Contains("(2, 0) outside"));
  REQUIRE_THROWS_WITH(Csr::fromTriplets(2, 2, {0}, {0, 1}, {1.0}), Catch::Contains("must be equal"));
  REQUIRE_THROWS_AS(Csr::poisson2D(0, 4), std::invalid_argument);
}

TEST_CASE("Csr::poisson2D and poisson3D are the symmetric Dirichlet Laplacians", "[linalg]") {
  struct Grid {
    std::size_t nx, ny, nz;
    bool threeD;
  };
  for (Grid g : {Grid{1, 1, 1, false}, Grid{7, 5, 1, false}, Grid{1, 9, 1, false}, Grid{7, 5, 3, true},
                 Grid{2, 1, 4, true}, Grid{4, 3, 1, true}, Grid{1, 1, 1, true}}) {
    const bool threeD = g.threeD;
    INFO(g.nx << "x" << g.ny << "x" << g.nz << (threeD ? " 3D" : " 2D"));
    const Csr a = threeD ? Csr::poisson3D(g.nx, g.ny, g.nz) : Csr::poisson2D(g.nx, g.ny);
    REQUIRE_NOTHROW(a.validate("poisson"));
    const std::size_t n = g.nx * g.ny * g.nz;
    REQUIRE(a.rows == n);
    REQUIRE(a.cols == n);
    const std::size_t links = (g.nx - 1) * g.ny * g.nz + g.nx * (g.ny - 1) * g.nz + g.nx * g.ny * (g.nz - 1);
    REQUIRE(a.nonZeros() == n + 2 * links);
    const auto m = entries(a);
    const double diag = threeD ? 6.0 : 4.0;
    for (const auto& [ij, v] : m) {
      if (ij.first == ij.second) {
        REQUIRE(v == diag);
      } else {
        REQUIRE(v == -1.0);
        REQUIRE(m.count({ij.second, ij.first}) == 1);  // symmetric
      }
    }
    // A 1 = 0 at interior points, diag - neighbours on the boundary; x^T A x > 0.
    const auto ones = a.multiply(std::vector<double>(n, 1.0));
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t x = i % g.nx, y = i / g.nx % g.ny, z = i / (g.nx * g.ny);
      const bool interior = x > 0 && x + 1 < g.nx && y > 0 && y + 1 < g.ny && (!threeD || (z > 0 && z + 1 < g.nz));
      if (interior) REQUIRE(ones[i] == 0.0);
      else REQUIRE(ones[i] > 0.0);
    }
    const auto xs = test::toDouble(test::randomFloats(n, n));
    const auto ax = a.multiply(xs);
    double q = 0;
    for (std::size_t i = 0; i < n; ++i) q += xs[i] * ax[i];
    REQUIRE(q > 0.0);
  }
}
