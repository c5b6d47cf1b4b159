// Tests src/linalg/StencilMatrix.*: 5-, 9- and 7-point stencils with random per-point
// coefficients against a double reference that visits grid neighbours explicitly (so a
// coefficient across the grid edge wrapping to the next row would show), square and
// non-square grids down to 1x1, the Poisson factories against Csr, invariants
// (A 1 = 0 inside, x^T A x > 0), fromCsr, and bad input.
#include <catch2/catch.hpp>

#include "linalg/LinalgTestSupport.h"
#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/linalg/Csr.h>
#include <texstream/linalg/StencilMatrix.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/stream/Layout.h>
#include <texstream/stream/Vector.h>

#include <cmath>
#include <limits>
#include <stdexcept>

using namespace texstream;
using linalg::StencilMatrix;
using stream::Vector;

namespace {

struct Grid {
  std::size_t nx, ny, nz;
  std::size_t n() const { return nx * ny * nz; }
};

struct Term {
  int dx, dy, dz;
  const std::vector<float>* c;
};

/// (A u)_i = sum over stencil terms whose neighbour is a grid point; also returns the
/// scale sum |c u| for the error bound.
std::pair<std::vector<double>, double> reference(Grid g, const std::vector<Term>& terms, const std::vector<float>& u) {
  std::vector<double> y(g.n(), 0.0);
  double scale = 1e-30;
  for (std::size_t z = 0; z < g.nz; ++z) {
    for (std::size_t yy = 0; yy < g.ny; ++yy) {
      for (std::size_t x = 0; x < g.nx; ++x) {
        const std::size_t i = x + g.nx * (yy + g.ny * z);
        double s = 0;
        for (const Term& t : terms) {
          const long long X = (long long)x + t.dx, Y = (long long)yy + t.dy, Z = (long long)z + t.dz;
          if (X < 0 || Y < 0 || Z < 0 || X >= (long long)g.nx || Y >= (long long)g.ny || Z >= (long long)g.nz) continue;
          const std::size_t j = std::size_t(X) + g.nx * (std::size_t(Y) + g.ny * std::size_t(Z));
          y[i] += double((*t.c)[i]) * u[j];
          s += std::abs(double((*t.c)[i]) * u[j]);
        }
        scale = std::max(scale, s);
      }
    }
  }
  return {y, scale};
}

void checkApply(const StencilMatrix& a, Grid g, const std::vector<Term>& terms, std::uint64_t seed) {
  const auto us = test::randomFloats(g.n(), seed);
  Vector u(g.n(), "u"), y(g.n(), "y"), d(g.n(), "d");
  u.upload(us);
  linalg::fill(y, 3.0f);  // poison
  a.apply(u, y);
  const auto [ref, scale] = reference(g, terms, us);
  REQUIRE(test::maxErrorOver(y.download(), ref, scale) <= 1e-6);
  REQUIRE(test::paddingIsZero(y));
  a.diagonal(d);
  REQUIRE(test::maxRelativeError(d.download(), test::toDouble(*terms[0].c)) == 0.0);
}

}  // namespace

TEST_CASE("StencilMatrix::fivePoint with per-point coefficients", "[gl][linalg]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  for (Grid g : {Grid{1, 1, 1}, Grid{1, 7, 1}, Grid{7, 1, 1}, Grid{2, 2, 1}, Grid{7, 5, 1}, Grid{13, 11, 1},
                 Grid{64, 33, 1}}) {
    INFO(g.nx << "x" << g.ny);
    const std::size_t n = g.n();
    linalg::FivePointCoefficients c;
    std::vector<float>* all[] = {&c.center, &c.west, &c.east, &c.south, &c.north};
    for (std::size_t k = 0; k < 5; ++k) *all[k] = test::randomFloats(n, 10 * n + k);
    const auto a = StencilMatrix::fivePoint(g.nx, g.ny, c, "S5");
    REQUIRE(a.nx() == g.nx);
    REQUIRE(a.ny() == g.ny);
    REQUIRE(a.nz() == 1);
    REQUIRE(a.kind() == StencilMatrix::Kind::FivePoint);
    checkApply(a, g, {{0, 0, 0, &c.center}, {-1, 0, 0, &c.west}, {1, 0, 0, &c.east}, {0, -1, 0, &c.south},
                      {0, 1, 0, &c.north}},
               n + 1);
  }
}

TEST_CASE("StencilMatrix::ninePoint with per-point coefficients", "[gl][linalg]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  for (Grid g : {Grid{1, 1, 1}, Grid{1, 5, 1}, Grid{6, 1, 1}, Grid{7, 5, 1}, Grid{31, 17, 1}}) {
    INFO(g.nx << "x" << g.ny);
    const std::size_t n = g.n();
    linalg::NinePointCoefficients c;
    std::vector<float>* all[] = {&c.center,    &c.west,      &c.east,      &c.south,    &c.north,
                                 &c.southWest, &c.southEast, &c.northWest, &c.northEast};
    for (std::size_t k = 0; k < 9; ++k) *all[k] = test::randomFloats(n, 20 * n + k);
    const auto a = StencilMatrix::ninePoint(g.nx, g.ny, c, "S9");
    checkApply(a, g,
               {{0, 0, 0, &c.center},
                {-1, 0, 0, &c.west},
                {1, 0, 0, &c.east},
                {0, -1, 0, &c.south},
                {0, 1, 0, &c.north},
                {-1, -1, 0, &c.southWest},
                {1, -1, 0, &c.southEast},
                {-1, 1, 0, &c.northWest},
                {1, 1, 0, &c.northEast}},
               n + 2);
  }
}

TEST_CASE("StencilMatrix::sevenPoint with per-point coefficients", "[gl][linalg]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  for (Grid g : {Grid{1, 1, 1}, Grid{7, 5, 3}, Grid{3, 1, 4}, Grid{1, 1, 9}, Grid{10, 9, 8}, Grid{33, 2, 5}}) {
    INFO(g.nx << "x" << g.ny << "x" << g.nz);
    const std::size_t n = g.n();
    linalg::SevenPointCoefficients c;
    std::vector<float>* all[] = {&c.center, &c.west, &c.east, &c.south, &c.north, &c.down, &c.up};
    for (std::size_t k = 0; k < 7; ++k) *all[k] = test::randomFloats(n, 30 * n + k);
    const auto a = StencilMatrix::sevenPoint(g.nx, g.ny, g.nz, c, "S7");
    REQUIRE(a.nz() == g.nz);
    REQUIRE(a.kind() == StencilMatrix::Kind::SevenPoint);
    REQUIRE(a.banded().offsets().size() <= 7);
    checkApply(a, g,
               {{0, 0, 0, &c.center},
                {-1, 0, 0, &c.west},
                {1, 0, 0, &c.east},
                {0, -1, 0, &c.south},
                {0, 1, 0, &c.north},
                {0, 0, -1, &c.down},
                {0, 0, 1, &c.up}},
               n + 3);
  }
}

TEST_CASE("StencilMatrix Poisson factories equal the Csr Laplacians and are SPD", "[gl][linalg]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  for (Grid g : {Grid{1, 1, 1}, Grid{7, 5, 1}, Grid{40, 25, 1}, Grid{7, 5, 3}, Grid{1, 4, 6}, Grid{16, 16, 16}}) {
    const bool threeD = g.nz > 1;
    INFO(g.nx << "x" << g.ny << "x" << g.nz);
    const std::size_t n = g.n();
    const auto a = threeD ? StencilMatrix::poisson3D(g.nx, g.ny, g.nz, "P") : StencilMatrix::poisson2D(g.nx, g.ny, "P");
    const auto csr = threeD ? linalg::Csr::poisson3D(g.nx, g.ny, g.nz) : linalg::Csr::poisson2D(g.nx, g.ny);
    const auto xs = test::toDouble(test::randomFloats(n, n + 40));
    Vector x(n, "x"), y(n, "y"), d(n, "d");
    x.upload(xs);
    a.apply(x, y);
    REQUIRE(test::maxErrorOver(y.download(), csr.multiply(xs), test::productScale(csr, xs)) <= 1e-6);
    REQUIRE(linalg::dot(x, y) > 0.0f);  // SPD: x^T A x > 0
    a.diagonal(d);
    REQUIRE(test::maxRelativeError(d.download(), std::vector<double>(n, threeD ? 6.0 : 4.0)) == 0.0);

    // A 1 = 0 at interior points, > 0 on the boundary (the Dirichlet neighbours are gone).
    linalg::fill(x, 1.0f);
    a.apply(x, y);
    const auto ones = y.download();
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t px = i % g.nx, py = i / g.nx % g.ny, pz = i / (g.nx * g.ny);
      const bool interior = px > 0 && px + 1 < g.nx && py > 0 && py + 1 < g.ny && (!threeD || (pz > 0 && pz + 1 < g.nz));
      if (interior) REQUIRE(ones[i] == 0.0f);
      else REQUIRE(ones[i] > 0.0f);
    }

    const auto b = StencilMatrix::fromCsr(csr, g.nx, g.ny, g.nz, "fromCsr");
    REQUIRE(b.kind() == (threeD ? StencilMatrix::Kind::SevenPoint : StencilMatrix::Kind::FivePoint));
    x.upload(xs);
    b.apply(x, y);
    REQUIRE(test::maxErrorOver(y.download(), csr.multiply(xs), test::productScale(csr, xs)) <= 1e-6);
  }
}

TEST_CASE("StencilMatrix::fromCsr recognises a 9-point stencil", "[gl][linalg]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const Grid g{9, 6, 1};
  const std::size_t n = g.n();
  std::vector<std::int64_t> r, c;
  std::vector<double> v;
  const auto vals = test::randomFloats(9 * n, 71);
  for (std::size_t i = 0; i < n; ++i) {
    const long long x = (long long)(i % g.nx), y = (long long)(i / g.nx);
    for (int dy = -1; dy <= 1; ++dy) {
      for (int dx = -1; dx <= 1; ++dx) {
        if (x + dx < 0 || y + dy < 0 || x + dx >= (long long)g.nx || y + dy >= (long long)g.ny) continue;
        r.push_back(std::int64_t(i));
        c.push_back(std::int64_t((x + dx) + (long long)g.nx * (y + dy)));
        v.push_back(vals[9 * i + std::size_t(3 * (dy + 1) + dx + 1)]);
      }
    }
  }
  const auto csr = linalg::Csr::fromTriplets(n, n, r, c, v);
  const auto a = StencilMatrix::fromCsr(csr, g.nx, g.ny, g.nz, "S");
  REQUIRE(a.kind() == StencilMatrix::Kind::NinePoint);
  const auto xs = test::toDouble(test::randomFloats(n, 72));
  Vector x(n, "x"), y(n, "y");
  x.upload(xs);
  a.apply(x, y);
  REQUIRE(test::maxErrorOver(y.download(), csr.multiply(xs), test::productScale(csr, xs)) <= 1e-6);
}

TEST_CASE("StencilMatrix rejects bad input with clear messages", "[gl][linalg]") {
  test::context();
  const std::vector<float> six(6, 1.0f), five(5, 1.0f);
  REQUIRE_THROWS_WITH(StencilMatrix::fivePoint(3, 2, {six, five, six, six, six}, "S"),
                      Catch::Contains("StencilMatrix(\"S\")") && Catch::Contains("west has 5 coefficients") &&
                          Catch::Contains("3x2 grid has 6 points"));
  REQUIRE_THROWS_WITH(StencilMatrix::poisson2D(0, 3, "Z"), Catch::Contains("empty grid"));
  // Grids beyond one vector: refused before their coefficients are allocated, and a product
  // that wraps around std::size_t (2^32 x 2^32 = 0 where it has 64 bits, 2^16 x 2^16 = 0
  // where it has 32, as in wasm) is caught rather than taken as empty.
  const std::string limit = std::to_string(stream::Layout::maxSize());
  const std::size_t half = std::size_t(1) << (std::numeric_limits<std::size_t>::digits / 2);
  REQUIRE_THROWS_WITH(StencilMatrix::poisson2D(half, half, "H"),
                      Catch::Contains("StencilMatrix::poisson2D(\"H\")") &&
                          Catch::Contains(std::to_string(half) + "x" + std::to_string(half)) && Catch::Contains(limit));
  if constexpr (std::numeric_limits<std::size_t>::digits >= 64) {
    REQUIRE_THROWS_WITH(StencilMatrix::poisson3D(std::size_t(1) << 20, std::size_t(1) << 20, 2, "H3"),
                        Catch::Contains("poisson3D(\"H3\")") && Catch::Contains(limit));
  }
  REQUIRE_THROWS_WITH(StencilMatrix::fivePoint(half, half, {six, six, six, six, six}, "F"),
                      Catch::Contains("StencilMatrix(\"F\")") && Catch::Contains(limit));

  // A wrap-around coupling: grid point (2,0) with (0,1) in a 3-wide grid (indices 2 and 3).
  auto wrap = linalg::Csr::fromTriplets(6, 6, {0, 2}, {0, 3}, {1.0, 1.0});
  REQUIRE_THROWS_WITH(StencilMatrix::fromCsr(wrap, 3, 2, 1, "W"),
                      Catch::Contains("StencilMatrix::fromCsr(\"W\")") && Catch::Contains("entry (2, 3)") &&
                          Catch::Contains("no 5-, 7- or 9-point stencil"));
  REQUIRE_THROWS_WITH(StencilMatrix::fromCsr(linalg::Csr::poisson2D(3, 3), 3, 2, 1, "M"),
                      Catch::Contains("the 3x2x1 grid needs 6x6"));
  auto bad = linalg::Csr::poisson2D(3, 2);
  bad.rowPtr[1] = 100;
  REQUIRE_THROWS_WITH(StencilMatrix::fromCsr(bad, 3, 2, 1, "B"), Catch::Contains("not monotone"));

  const auto a = StencilMatrix::poisson3D(7, 5, 3, "P3");
  Vector x(104, "x"), y(105, "y");
  REQUIRE_THROWS_WITH(a.apply(x, y), Catch::Contains("StencilMatrix(\"P3\").apply: x has n=104, expected 105"));
  REQUIRE_THROWS_WITH(a.diagonal(x), Catch::Contains("StencilMatrix(\"P3\").diagonal: d has n=104"));
}
