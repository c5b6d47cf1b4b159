// Tests src/linalg/MatrixMarket.*: coordinate real/integer/pattern, general/symmetric/
// skew-symmetric files read into the right CSR; array files and rejected duplicates with
// MatrixMarketOptions; explicit zeros kept; vectors in array and coordinate form; write ->
// read round trips exactly; every malformed file names its file and line.
#include <catch2/catch.hpp>

#include "linalg/LinalgTestSupport.h"
#include "support/Random.h"

#include <texstream/linalg/Csr.h>
#include <texstream/linalg/MatrixMarket.h>

#include <chrono>
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

/// A malformed file: the line the error names (0: none) and what its message says.
struct BadFile {
  std::string text;
  long line;
  const char* says;
};

/// parseMatrixMarket(bad.text, "bad.mtx", options) throws a MatrixMarketError for bad.line.
void requireError(const BadFile& bad, const linalg::MatrixMarketOptions& options) {
  INFO(bad.text);
  try {
    linalg::parseMatrixMarket(bad.text, "bad.mtx", options);
    FAIL("no error");
  } catch (const MatrixMarketError& e) {
    CHECK(e.file() == "bad.mtx");
    CHECK(e.line() == bad.line);
    CHECK_THAT(e.what(), Catch::StartsWith("bad.mtx:" + std::to_string(bad.line) + ": ") && Catch::Contains(bad.says));
  }
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
  const BadFile cases[] = {
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
  for (const BadFile& c : cases) requireError(c, {});
  // Vectors.
  REQUIRE_THROWS_WITH(linalg::parseMatrixMarketVector("%%MatrixMarket matrix array real general\n3 2\n", "v.mtx"),
                      Catch::StartsWith("v.mtx:2: ") && Catch::Contains("one column"));
  REQUIRE_THROWS_WITH(linalg::parseMatrixMarketVector("%%MatrixMarket matrix array real general\n3 1\n1\n2 3\n", "v.mtx"),
                      Catch::StartsWith("v.mtx:4: ") && Catch::Contains("one number"));
  REQUIRE_THROWS_WITH(linalg::parseMatrixMarketVector("%%MatrixMarket matrix coordinate real general\n4 1 1\n5 1 2\n", "v.mtx"),
                      Catch::StartsWith("v.mtx:3: value 1 of 1: ") && Catch::Contains("row index 5 is outside [1, 4]"));
  REQUIRE_THROWS_WITH(linalg::parseMatrixMarketVector("%%MatrixMarket matrix array real general\n2 1\n1\n", "v.mtx"),
                      Catch::StartsWith("v.mtx:3: ") && Catch::Contains("expected 2 values, the file ends after 1"));
  REQUIRE_THROWS_WITH(linalg::parseMatrixMarketVector("%%MatrixMarket matrix array real symmetric\n1 1\n1\n", "v.mtx"),
                      Catch::StartsWith("v.mtx:1: ") && Catch::Contains("must be \"general\""));
  // A file that does not exist.
  REQUIRE_THROWS_WITH(linalg::readMatrixMarket("/nonexistent/dir/A.mtx"),
                      Catch::StartsWith("/nonexistent/dir/A.mtx:0: ") && Catch::Contains("cannot open"));
}

TEST_CASE("Matrix Market: array files, explicit zeros and rejected duplicates (options)", "[linalg][mtx]") {
  const linalg::MatrixMarketOptions o{.array = true, .rejectDuplicates = true};

  SECTION("coordinate files read as without options: comments, blank lines, '+', symmetry, pattern") {
    const Csr g = linalg::parseMatrixMarket(
        "%%MatrixMarket matrix coordinate real general\n% a comment\n\n3 3 4\n1 1 2.5\n3 2 -1e-3\n2 3 4\n3 3 +7\n",
        "A.mtx", o);
    CHECK(g.nonZeros() == 4);
    CHECK(at(g, 2, 1) == -1e-3);
    CHECK(at(g, 1, 2) == 4.0);
    CHECK(at(g, 2, 2) == 7.0);
    const Csr s = linalg::parseMatrixMarket("%%MatrixMarket matrix coordinate integer symmetric\n2 2 2\n1 1 3\n2 1 5\n",
                                            "A.mtx", o);
    CHECK(s.nonZeros() == 3);
    CHECK(at(s, 0, 1) == 5.0);
    const Csr k = linalg::parseMatrixMarket("%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 1 5\n",
                                            "A.mtx", o);
    CHECK(k.nonZeros() == 2);
    CHECK(at(k, 0, 1) == -5.0);
    const Csr p = linalg::parseMatrixMarket("%%MatrixMarket matrix coordinate pattern general\n2 2 1\n2 1\n", "A.mtx", o);
    CHECK(p.nonZeros() == 1);
    CHECK(at(p, 1, 0) == 1.0);
  }
  SECTION("explicit zeros stay stored entries, with or without options") {
    const char* text = "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 0\n2 1 -0.0\n";
    for (const Csr& z : {linalg::parseMatrixMarket(text, "z.mtx"), linalg::parseMatrixMarket(text, "z.mtx", o)}) {
      REQUIRE(z.nonZeros() == 2);
      CHECK(z.colIdx == std::vector<std::int32_t>{0, 0});
      CHECK(z.values == std::vector<double>{0.0, 0.0});
    }
  }
  SECTION("array general is column-major; every value is stored, zeros too") {
    linalg::MatrixMarketHeader h;
    const Csr a = linalg::parseMatrixMarket("%%MatrixMarket matrix array real general\n2 3\n1\n2\n3\n0\n5\n-6e-1\n", "a.mtx",
                                            o, &h);
    CHECK(h.format == "array");
    CHECK(h.entries == 6);
    REQUIRE(a.rows == 2);
    REQUIRE(a.cols == 3);
    CHECK(a.nonZeros() == 6);
    CHECK(at(a, 0, 0) == 1.0);
    CHECK(at(a, 1, 0) == 2.0);
    CHECK(at(a, 0, 1) == 3.0);
    CHECK(at(a, 1, 1) == 0.0);
    CHECK(at(a, 0, 2) == 5.0);
    CHECK(at(a, 1, 2) == -0.6);
  }
  SECTION("array symmetric and skew-symmetric hold the lower triangle column by column") {
    // [4 1 2; 1 5 3; 2 3 6] and [0 -1 -2; 1 0 -3; 2 3 0]
    linalg::MatrixMarketHeader h;
    const Csr s = linalg::parseMatrixMarket("%%MatrixMarket matrix array integer symmetric\n3 3\n4\n1\n2\n5\n3\n6\n",
                                            "s.mtx", o, &h);
    CHECK(h.entries == 6);
    const double sym[3][3] = {{4, 1, 2}, {1, 5, 3}, {2, 3, 6}};
    CHECK(s.nonZeros() == 9);
    for (std::size_t i = 0; i < 3; ++i) {
      for (std::size_t j = 0; j < 3; ++j) CHECK(at(s, i, j) == sym[i][j]);
    }
    const Csr k = linalg::parseMatrixMarket("%%MatrixMarket matrix array real skew-symmetric\n3 3\n1\n2\n3\n", "k.mtx", o, &h);
    CHECK(h.entries == 3);
    const double skew[3][3] = {{0, -1, -2}, {1, 0, -3}, {2, 3, 0}};
    CHECK(k.nonZeros() == 6);  // the diagonal is not stored
    for (std::size_t i = 0; i < 3; ++i) {
      for (std::size_t j = 0; j < 3; ++j) CHECK(at(k, i, j) == skew[i][j]);
    }
    const Csr one = linalg::parseMatrixMarket("%%MatrixMarket matrix array real skew-symmetric\n1 1\n", "k1.mtx", o);
    CHECK(one.nonZeros() == 0);
  }
  SECTION("duplicates are summed without the option") {
    const Csr d = linalg::parseMatrixMarket("%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1\n1 2 3\n", "d.mtx");
    CHECK(d.nonZeros() == 1);
    CHECK(at(d, 0, 1) == 4.0);
  }
}

TEST_CASE("Matrix Market: malformed files with options give errors with file and line", "[linalg][mtx]") {
  const std::string h = "%%MatrixMarket matrix coordinate real general\n";
  const BadFile cases[] = {
      {"", 0, "empty file"},
      {"3 3 1\n", 1, "the first line must be the banner"},
      {"%%MatrixMarket matrix coordinate complex general\n", 1, "complex matrices are not supported"},
      {"%%MatrixMarket matrix coordinate real hermitian\n", 1, "hermitian"},
      {"%%MatrixMarket vector coordinate real general\n", 1, "object \"vector\""},
      {"%%MatrixMarket matrix coordinate real\n", 1, "4 words"},
      {"%%MatrixMarket matrix array pattern general\n2 2\n", 1, "a pattern file holds no values"},
      {h, 1, "the file ends before the size line"},
      {h + "% c\n3 3\n", 3, "the size line must hold rows, columns and entries"},
      {h + "3 x 1\n", 2, "column count \"x\" is not a whole number"},
      {h + "0 3 1\n", 2, "sizes must be at least 1"},
      {h + "2 2 5\n", 2, "entry count 5 exceeds"},
      {h + "3 3 2\n1 1 1\n", 3, "expected 2 entries, the file ends after 1"},
      {h + "3 3 1\n1 1 1\n2 2 2\n", 4, "data after the 1 entries"},
      {h + "3 3 1\n\n4 1 1\n", 4, "entry 1 of 1: row index 4 is outside [1, 3]"},
      {h + "3 3 1\n0 1 1\n", 3, "row index 0 is outside [1, 3]"},
      {h + "3 3 1\n1 1\n", 3, "expected \"row column value\", got 2 fields"},
      {h + "3 3 1\n1 1 abc\n", 3, "value \"abc\" is not a number"},
      {h + "3 3 1\n1 1 1e999\n", 3, "value \"1e999\" is out of range"},
      {h + "3 3 1\n1 1 nan\n", 3, "value \"nan\" is not finite"},
      {h + "3 3 3\n1 2 1\n% c\n2 2 1\n1 2 3\n", 6, "entry 3 of 3: duplicate entry (1, 2), first given on line 3"},
      {"%%MatrixMarket matrix coordinate real symmetric\n3 3 1\n1 2 1\n", 3, "(1, 2) lies above the diagonal"},
      {"%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 1\n2 2 1\n", 3, "a skew-symmetric matrix has no diagonal"},
      {"%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 1 1.5\n", 3, "value \"1.5\" is not an integer"},
      {"%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 1 99999999999999999999\n", 3, "out of range"},
      {"%%MatrixMarket matrix coordinate real symmetric\n2 3 0\n", 2, "symmetric matrix must be square"},
      {"%%MatrixMarket matrix array real general\n2 1\n1\n", 3, "expected 2 entries, the file ends after 1"},
      {"%%MatrixMarket matrix array real general\n2 2 4\n1\n2\n3\n4\n", 2, "rows and columns (2 numbers), got 3"},
      {"%%MatrixMarket matrix array real general\n2 1\n1\n2 3\n", 4, "entry 2 of 2: expected one number per line"},
      {"%%MatrixMarket matrix array real general\n1 1\n1\n2\n", 4, "data after the 1 entries"},
      {"%%MatrixMarket matrix array integer general\n1 1\n2.5\n", 3, "value \"2.5\" is not an integer"},
      {"%%MatrixMarket matrix array real symmetric\n2 3\n", 2, "symmetric matrix must be square"},
      {"%%MatrixMarket matrix array real symmetric\n2 2\n1\n2\n", 4, "expected 3 entries, the file ends after 2"},
      {"%%MatrixMarket matrix array real skew-symmetric\n2 2\n1\n2\n", 4, "data after the 1 entries"},
  };
  for (const BadFile& c : cases) requireError(c, {.array = true, .rejectDuplicates = true});
  REQUIRE_THROWS_WITH(linalg::readMatrixMarket("/nonexistent/dir/A.mtx", {.array = true}),
                      Catch::StartsWith("/nonexistent/dir/A.mtx:0: ") && Catch::Contains("cannot open"));
}

TEST_CASE("Matrix Market: dimensions are limited before anything is allocated", "[linalg][mtx]") {
  const auto start = std::chrono::steady_clock::now();
  // 70 bytes asking for a 2 * 10^9-row CSR row pointer (16 GB), and vectors as long.
  const BadFile cases[] = {
      {"%%MatrixMarket matrix coordinate real general\n2000000000 2000000000 1\n1 1 1\n", 2,
       "the matrix is 2000000000x2000000000, beyond the limit of 67108864 rows and columns"},
      {"%%MatrixMarket matrix coordinate real general\n3 2000000000 1\n1 1 1\n", 2, "beyond the limit of 67108864"},
      {"%%MatrixMarket matrix array real general\n100000 100000\n1\n", 3, "expected 10000000000 entries, the file ends after 1"},
  };
  for (const BadFile& c : cases) requireError(c, {.array = true});
  REQUIRE_THROWS_WITH(linalg::parseMatrixMarketVector("%%MatrixMarket matrix array real general\n2000000000 1\n1\n", "v.mtx"),
                      Catch::StartsWith("v.mtx:2: the matrix is 2000000000x1, beyond the limit of 67108864"));
  REQUIRE_THROWS_WITH(
      linalg::parseMatrixMarketVector("%%MatrixMarket matrix coordinate real general\n2000000000 1 1\n1 1 1\n", "v.mtx"),
      Catch::StartsWith("v.mtx:2: the matrix is 2000000000x1, beyond the limit of 67108864"));
  // Within the limit, an array vector grows with the values the file holds.
  REQUIRE_THROWS_WITH(linalg::parseMatrixMarketVector("%%MatrixMarket matrix array real general\n60000000 1\n1\n", "v.mtx"),
                      "v.mtx:3: expected 60000000 values, the file ends after 1");
  CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < 0.5);

  // The limit is the caller's to set, for matrices and vectors.
  const std::string four = "%%MatrixMarket matrix coordinate real general\n4 4 1\n4 4 1\n";
  REQUIRE(linalg::parseMatrixMarket(four, "four.mtx", {.maxDimension = 4}).rows == 4);
  requireError({four, 2, "the matrix is 4x4, beyond the limit of 3 rows and columns"}, {.maxDimension = 3});
  REQUIRE(linalg::parseMatrixMarketVector("%%MatrixMarket matrix array real general\n2 1\n1\n2\n", "v.mtx", 2).size() == 2);
  REQUIRE_THROWS_WITH(linalg::parseMatrixMarketVector("%%MatrixMarket matrix array real general\n2 1\n1\n2\n", "v.mtx", 1),
                      Catch::StartsWith("v.mtx:2: the matrix is 2x1, beyond the limit of 1 rows"));
}

TEST_CASE("Matrix Market: duplicates that sum beyond a double name the entry that overflows", "[linalg][mtx]") {
  const std::string g = "%%MatrixMarket matrix coordinate real general\n";
  const BadFile cases[] = {
      {g + "2 2 2\n1 1 1e308\n1 1 1e308\n", 4, "entry 2 of 2: the entries given for (1, 1) sum beyond the range of a double"},
      {g + "2 2 4\n2 1 1e308\n1 1 1e308\n2 1 -1e308\n1 1 1e308\n", 6, "entry 4 of 4: the entries given for (1, 1) sum"},
      {"%%MatrixMarket matrix coordinate real symmetric\n2 2 3\n2 1 1e308\n1 1 1\n% c\n2 1 1e308\n", 6,
       "entry 3 of 3: the entries given for (1, 2) sum beyond the range of a double"},
      {"%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 2\n2 1 -1e308\n2 1 -1e308\n", 4,
       "entry 2 of 2: the entries given for (1, 2) sum beyond the range of a double"},
  };
  for (const BadFile& c : cases) requireError(c, {});
  // Sums within range stay sums.
  REQUIRE(at(linalg::parseMatrixMarket(g + "2 2 3\n1 1 1e308\n1 1 -1e308\n1 1 1e308\n", "ok.mtx"), 0, 0) == 1e308);
  // Vectors in coordinate form sum their repeats too.
  REQUIRE_THROWS_WITH(
      linalg::parseMatrixMarketVector(g + "3 1 3\n1 1 1e308\n2 1 1\n1 1 1e308\n", "v.mtx"),
      "v.mtx:5: value 3 of 3: the values given for row 1 sum beyond the range of a double");
}

TEST_CASE("Matrix Market: a directory is named as such", "[linalg][mtx]") {
  const auto dir = std::filesystem::temp_directory_path() / "texstream-a-directory.mtx";
  std::filesystem::create_directories(dir);
  REQUIRE_THROWS_WITH(linalg::readMatrixMarket(dir.string()), dir.string() + ":0: is a directory, not a Matrix Market file");
  REQUIRE_THROWS_WITH(linalg::readMatrixMarketVector(dir.string()),
                      dir.string() + ":0: is a directory, not a Matrix Market file");
  std::filesystem::remove(dir);
}
