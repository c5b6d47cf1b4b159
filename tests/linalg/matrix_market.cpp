// Tests src/linalg/MatrixMarket.*: coordinate real/integer/pattern, general/symmetric/
// skew-symmetric files read into the right CSR; vectors in array and coordinate form;
// write -> read round trips exactly; every malformed file names its file and line.
#include <catch2/catch.hpp>

#include "linalg/LinalgTestSupport.h"
#include "support/Random.h"

#include <texstream/linalg/Csr.h>
#include <texstream/linalg/MatrixMarket.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

using namespace texstream;
using linalg::Csr;
using linalg::MatrixMarketError;

namespace {
double at(const Csr& a, std::size_t i, std::size_t j) {
  double s = 0;
  for (std::int64_t e = a.rowPtr[i]; e < a.rowPtr[i + 1]; ++e) {
    if (std::size_t(a.colIdx[std::size_t(e)]) == j) s += a.values[std::size_t(e)];
  }
  return s;
}
}  // namespace

TEST_CASE("Matrix Market: general, symmetric, skew, integer and pattern files", "[linalg][mtx]") {
  const Csr g = linalg::parseMatrixMarket(
      "%%MatrixMarket matrix coordinate real general\r\n% a comment\r\n\r\n3 4 4\r\n1 1 1.5\r\n3 4 -2e-3\r\n"
      "  2   1\t+7\r\n3 4 1\r\n",
      "g.mtx");
  REQUIRE(g.rows == 3);
  REQUIRE(g.cols == 4);
  CHECK(at(g, 0, 0) == 1.5);
  CHECK(at(g, 1, 0) == 7.0);
  CHECK(at(g, 2, 3) == Approx(1.0 - 2e-3));  // duplicates summed

  linalg::MatrixMarketHeader h;
  const Csr s = linalg::parseMatrixMarket(
      "%%MatrixMarket matrix coordinate integer symmetric\n3 3 4\n1 1 4\n2 1 -1\n3 2 -2\n3 3 5\n", "s.mtx", &h);
  CHECK(h.field == "integer");
  CHECK(h.symmetry == "symmetric");
  CHECK(s.nonZeros() == 6);
  CHECK(at(s, 0, 1) == -1.0);
  CHECK(at(s, 1, 0) == -1.0);
  CHECK(at(s, 1, 2) == -2.0);

  const Csr k = linalg::parseMatrixMarket("%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 1 3\n", "k.mtx");
  CHECK(at(k, 1, 0) == 3.0);
  CHECK(at(k, 0, 1) == -3.0);

  const Csr p = linalg::parseMatrixMarket("%%MatrixMarket MATRIX Coordinate Pattern General\n2 2 2\n1 2\n2 2\n", "p.mtx");
  CHECK(at(p, 0, 1) == 1.0);
  CHECK(at(p, 1, 1) == 1.0);
  CHECK(p.nonZeros() == 2);
}

TEST_CASE("Matrix Market: vectors in array and coordinate form", "[linalg][mtx]") {
  const auto v = linalg::parseMatrixMarketVector("%%MatrixMarket matrix array real general\n% b\n3 1\n1\n-2.5\n3e2\n", "b.mtx");
  REQUIRE(v == std::vector<double>{1.0, -2.5, 300.0});
  const auto w = linalg::parseMatrixMarketVector("%%MatrixMarket matrix coordinate real general\n4 1 2\n2 1 5\n4 1 -1\n", "w.mtx");
  REQUIRE(w == std::vector<double>{0.0, 5.0, 0.0, -1.0});
}

TEST_CASE("Matrix Market: write then read gives the same matrix and vector", "[linalg][mtx]") {
  const Csr a = test::randomCsr(57, 57, 4.0, 3);
  const auto dir = std::filesystem::temp_directory_path();
  const std::string path = (dir / "texstream_mm_roundtrip.mtx").string();
  linalg::writeMatrixMarket(path, a, "random test matrix\nsecond line");
  const Csr b = linalg::readMatrixMarket(path);
  REQUIRE(b.rows == a.rows);
  REQUIRE(b.rowPtr == a.rowPtr);
  REQUIRE(b.colIdx == a.colIdx);
  REQUIRE(b.values == a.values);  // shortest round-trip formatting is exact

  const Csr spd = Csr::poisson2D(5, 4);
  const Csr back = linalg::parseMatrixMarket(linalg::formatMatrixMarket(spd, "", true), "sym");
  REQUIRE(back.values.size() == spd.values.size());
  for (std::size_t i = 0; i < spd.rows; ++i) {
    for (std::size_t j = 0; j < spd.cols; ++j) REQUIRE(at(back, i, j) == at(spd, i, j));
  }

  const auto xs = test::toDouble(test::randomFloats(101, 4));
  linalg::writeMatrixMarketVector(path, xs, "x");
  REQUIRE(linalg::readMatrixMarketVector(path) == xs);
  std::filesystem::remove(path);
}

TEST_CASE("Matrix Market: malformed files give errors with file and line", "[linalg][mtx]") {
  struct Case {
    const char* text;
    long line;
    const char* says;
  };
  const Case cases[] = {
      {"", 0, "empty file"},
      {"MatrixMarket matrix coordinate real general\n1 1 0\n", 1, "banner"},
      {"%%MatrixMarket matrix coordinate real\n1 1 0\n", 1, "4 words"},
      {"%%MatrixMarket vector coordinate real general\n1 1 0\n", 1, "object"},
      {"%%MatrixMarket matrix array real general\n1 1\n1\n", 1, "array"},
      {"%%MatrixMarket matrix coordinate complex general\n1 1 0\n", 1, "complex"},
      {"%%MatrixMarket matrix coordinate real hermitian\n1 1 0\n", 1, "hermitian"},
      {"%%MatrixMarket matrix coordinate real general\n% only comments\n", 2, "size line"},
      {"%%MatrixMarket matrix coordinate real general\n3 3\n", 2, "size line"},
      {"%%MatrixMarket matrix coordinate real general\n3 x 1\n", 2, "column count"},
      {"%%MatrixMarket matrix coordinate real general\n0 3 0\n", 2, "at least 1"},
      {"%%MatrixMarket matrix coordinate real symmetric\n3 4 0\n", 2, "square"},
      {"%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1\n", 3, "ends after 1"},
      {"%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 1\n2 2 2\n", 4, "data after"},
      {"%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1\n\n% c\n4 1 1\n", 6, "row index 4"},
      {"%%MatrixMarket matrix coordinate real general\n3 3 1\n1 0 1\n", 3, "column index 0"},
      {"%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 abc\n", 3, "not a number"},
      {"%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 1.5x\n", 3, "not a number"},
      {"%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 nan\n", 3, "not finite"},
      {"%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 1 1.5\n", 3, "not an integer"},
      {"%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1\n", 3, "2 fields"},
      {"%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 1 1\n", 3, "3 fields"},
      {"%%MatrixMarket matrix coordinate real symmetric\n3 3 1\n1 2 1\n", 3, "above the diagonal"},
      {"%%MatrixMarket matrix coordinate real general\n2 2 9\n", 2, "exceeds"},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    try {
      linalg::parseMatrixMarket(c.text, "bad.mtx");
      FAIL("no error");
    } catch (const MatrixMarketError& e) {
      CHECK(e.file() == "bad.mtx");
      CHECK(e.line() == c.line);
      CHECK_THAT(e.what(), Catch::StartsWith("bad.mtx:" + std::to_string(c.line) + ": ") && Catch::Contains(c.says));
    }
  }
  // Vectors.
  REQUIRE_THROWS_WITH(linalg::parseMatrixMarketVector("%%MatrixMarket matrix array real general\n3 2\n", "v.mtx"),
                      Catch::StartsWith("v.mtx:2: ") && Catch::Contains("one column"));
  REQUIRE_THROWS_WITH(linalg::parseMatrixMarketVector("%%MatrixMarket matrix array real general\n3 1\n1\n2 3\n", "v.mtx"),
                      Catch::StartsWith("v.mtx:4: ") && Catch::Contains("one number"));
  // A file that does not exist.
  REQUIRE_THROWS_WITH(linalg::readMatrixMarket("/nonexistent/dir/A.mtx"),
                      Catch::StartsWith("/nonexistent/dir/A.mtx:0: ") && Catch::Contains("cannot open"));
}
