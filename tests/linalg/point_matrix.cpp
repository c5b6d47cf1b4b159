// Tests src/linalg/PointMatrix.*: the vertex-scatter product against double references on
// random sparse matrices (rectangular, empty rows, duplicate entries), both backends,
// fromCsr, diag(A), that blending is off again after apply() and the host's blend state is
// restored, and bad input.
#include <catch2/catch.hpp>

#include "linalg/LinalgTestSupport.h"
#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/Csr.h>
#include <texstream/linalg/PointMatrix.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/stream/Vector.h>

#include <glad/gl.h>

#include <stdexcept>

using namespace texstream;
using linalg::PointMatrix;
using stream::Vector;

TEST_CASE("PointMatrix::apply matches the CSR product", "[gl][linalg]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const std::pair<std::size_t, std::size_t> shapes[] = {{1, 1}, {5, 3}, {3, 5}, {97, 97}, {1000, 4097}, {4097, 1000}};
  for (auto [rows, cols] : shapes) {
    INFO(rows << "x" << cols);
    const auto csr = test::randomCsr(rows, cols, rows == 1 ? 3.0 : 5.0, rows * 31 + cols);
    const PointMatrix a = PointMatrix::fromCsr(csr, "A");
    REQUIRE(a.nonZeros() == csr.nonZeros());
    const auto xs = test::toDouble(test::randomFloats(cols, rows + cols));
    Vector x(cols, "x"), y(rows, "y");
    x.upload(xs);
    linalg::fill(y, 5.0f);  // poison: apply clears y first
    a.apply(x, y);
    REQUIRE(test::maxErrorOver(y.download(), csr.multiply(xs), test::productScale(csr, xs)) <= 1e-6);
    REQUIRE(test::paddingIsZero(y));
    REQUIRE(a.flopsPerApply() == 2.0 * double(csr.nonZeros()));
  }
}

TEST_CASE("PointMatrix from entries: duplicates add, empty rows are zero, diag(A)", "[gl][linalg]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const std::size_t n = 203;
  const auto vals = test::randomFloats(3 * n, 17);
  std::vector<PointMatrix::Entry> entries;
  std::vector<double> diag(n, 0.0);
  for (std::size_t i = 0; i < n; i += 2) {  // odd rows stay empty
    const auto row = std::int32_t(i);
    entries.push_back({row, row, vals[3 * i]});
    entries.push_back({row, row, vals[3 * i + 1]});  // duplicate of the diagonal entry
    entries.push_back({row, std::int32_t((7 * i + 3) % n), vals[3 * i + 2]});
    diag[i] = double(vals[3 * i]) + vals[3 * i + 1] + ((7 * i + 3) % n == i ? vals[3 * i + 2] : 0.0f);
  }
  const PointMatrix a(n, n, entries, "A");
  const auto xs = test::randomFloats(n, 18);
  std::vector<double> ref(n, 0.0);
  for (const auto& e : entries) ref[std::size_t(e.row)] += double(e.value) * xs[std::size_t(e.col)];
  Vector x(n, "x"), y(n, "y"), d(n, "d");
  x.upload(xs);
  linalg::fill(y, 1.0f);
  a.apply(x, y);
  const auto got = y.download();
  REQUIRE(test::maxErrorOver(got, ref, 3.0) <= 1e-6);
  for (std::size_t i = 1; i < n; i += 2) REQUIRE(got[i] == 0.0f);
  a.diagonal(d);
  REQUIRE(test::maxErrorOver(d.download(), diag, 2.0) <= 1e-7);

  const PointMatrix zero(4, 6, {}, "Z");  // no non-zeros: y = 0
  Vector x6(6, "x6"), y4(4, "y4");
  x6.upload(test::randomFloats(6, 19));
  linalg::fill(y4, 2.0f);
  zero.apply(x6, y4);
  REQUIRE(test::maxRelativeError(y4.download(), std::vector<double>(4, 0.0)) == 0.0);
}

TEST_CASE("PointMatrix::apply leaves blending off inside a guard and restores the host's", "[gl][linalg]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const std::size_t n = 500;
  const auto csr = test::randomCsr(n, n, 4.0, 23);
  const PointMatrix a = PointMatrix::fromCsr(csr, "A");
  const auto xs = test::toDouble(test::randomFloats(n, 24));
  Vector x(n, "x"), y(n, "y");
  x.upload(xs);

  // Host state: blending on with an unusual function.
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  {
    gl::StateGuard guard;  // a solver holding one guard over several operations
    a.apply(x, y);
    REQUIRE(glIsEnabled(GL_BLEND) == GL_FALSE);
    linalg::axpy(2.0f, x, y);  // a pass after the scatter, same guard: must not blend
  }
  auto ref = csr.multiply(xs);
  for (std::size_t i = 0; i < n; ++i) ref[i] += 2.0 * xs[i];
  REQUIRE(test::maxErrorOver(y.download(), ref, test::productScale(csr, xs) + 2.0) <= 1e-6);
  REQUIRE(glIsEnabled(GL_BLEND) == GL_TRUE);
  GLint src = 0, dst = 0;
  glGetIntegerv(GL_BLEND_SRC_RGB, &src);
  glGetIntegerv(GL_BLEND_DST_RGB, &dst);
  REQUIRE(src == GL_SRC_ALPHA);
  REQUIRE(dst == GL_ONE_MINUS_SRC_ALPHA);
  glDisable(GL_BLEND);
  glBlendFunc(GL_ONE, GL_ZERO);
}

TEST_CASE("PointMatrix rejects bad input with clear messages", "[gl][linalg]") {
  test::context();
  REQUIRE_THROWS_WITH(PointMatrix(3, 4, {{0, 0, 1.0f}, {2, 4, 1.0f}}, "P"),
                      Catch::Contains("PointMatrix(\"P\")") && Catch::Contains("entry 1 at (2, 4) outside the 3x4"));
  REQUIRE_THROWS_WITH(PointMatrix(3, 4, {{0, 0, INFINITY}}, "P"), Catch::Contains("not finite"));
  REQUIRE_THROWS_AS(PointMatrix(0, 4, {}, "P"), std::invalid_argument);
  auto bad = linalg::Csr::poisson2D(2, 2);
  bad.values[2] = NAN;
  REQUIRE_THROWS_WITH(PointMatrix::fromCsr(bad, "C"), Catch::Contains("PointMatrix::fromCsr(\"C\")") &&
                                                         Catch::Contains("non-finite"));

  const PointMatrix a(3, 4, {{0, 0, 1.0f}, {2, 3, 1.0f}}, "A");
  Vector x3(3, "x3"), x4(4, "x4"), y3(3, "y3");
  REQUIRE_THROWS_WITH(a.apply(x3, y3), Catch::Contains("PointMatrix(\"A\").apply: x has n=3, expected 4"));
  REQUIRE_THROWS_WITH(a.apply(x4, x4), Catch::Contains("PointMatrix(\"A\").apply: y has n=4, expected 3"));
  REQUIRE_THROWS_WITH(a.diagonal(y3), Catch::Contains("not square"));
}
