// Tests src/codegen/MatrixMarket.*: the reader accepts the coordinate and array forms,
// real/integer/pattern fields and symmetric storage, and reports every malformed input as
// "FILE:LINE: what".
#include <catch2/catch.hpp>

#include <texstream/codegen/MatrixMarket.h>
#include <texstream/codegen/SimdCost.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace texstream::codegen;

namespace {

MatrixMarketData parse(const std::string& text) {
  std::istringstream in(text);
  return parseMatrixMarket(in, "A.mtx");
}

std::string write(const std::string& name, const std::string& text) {
  const auto dir = std::filesystem::temp_directory_path() / "texstream-codegen-mtx";
  std::filesystem::create_directories(dir);
  const auto path = dir / name;
  std::ofstream(path) << text;
  return path.string();
}

}  // namespace

TEST_CASE("Matrix Market: valid files", "[codegen]") {
  SECTION("coordinate real general, with comments and blank lines") {
    const auto m = parse(
        "%%MatrixMarket matrix coordinate real general\n% a comment\n\n3 3 4\n1 1 2.5\n3 2 -1e-3\n2 3 4\n3 3 +7\n");
    REQUIRE(m.rows == 3);
    REQUIRE(m.entries.size() == 4);
    REQUIRE(m.entries[1].row == 2);
    REQUIRE(m.entries[1].col == 1);
    REQUIRE(m.entries[1].value == -1e-3);
  }
  SECTION("symmetric and skew-symmetric storage expand to both triangles") {
    const auto s = parse("%%MatrixMarket matrix coordinate integer symmetric\n2 2 2\n1 1 3\n2 1 5\n");
    REQUIRE(s.entries.size() == 3);
    const auto k = parse("%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 1 5\n");
    REQUIRE(k.entries.size() == 2);
    REQUIRE(k.entries[1].value == -5.0);
  }
  SECTION("pattern entries are 1; array format is column-major") {
    const auto p = parse("%%MatrixMarket matrix coordinate pattern general\n2 2 1\n2 1\n");
    REQUIRE(p.entries[0].value == 1.0);
    const auto a = parse("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n");
    REQUIRE(a.entries[1].row == 1);
    REQUIRE(a.entries[1].col == 0);
    REQUIRE(a.entries[2].value == 3.0);
  }
  SECTION("a linear expression from files") {
    const std::string a = write("a.mtx", "%%MatrixMarket matrix coordinate real general\n5 5 3\n1 1 1\n5 2 2\n3 3 3\n");
    const std::string b = write("b.mtx", "%%MatrixMarket matrix array real general\n5 1\n1\n0\n0\n0\n2\n");
    const LinearExpression e = readLinearExpression(a, b);
    REQUIRE(e.size() == 5);
    REQUIRE(e.at(4, 1) == 2.0);
    REQUIRE(e.b()[4] == 2.0);
    REQUIRE(simdCost(e).total == 2);  // (0,0)+(2,2): one MAD on b; (4,1): one MAD on b
    REQUIRE_THROWS_WITH(
        readLinearExpression(a, write("b3.mtx", "%%MatrixMarket matrix array real general\n3 1\n1\n2\n3\n")),
        Catch::Contains("b.mtx") || Catch::Contains("b3.mtx: b must be 5 x 1"));
    REQUIRE_THROWS_WITH(readLinearExpression(write("r.mtx", "%%MatrixMarket matrix coordinate real general\n2 3 0\n")),
                        Catch::Contains("r.mtx: A must be square"));
    REQUIRE_THROWS_WITH(readLinearExpression("/no/such/file.mtx"), Catch::Contains("/no/such/file.mtx: cannot open"));
  }
}

TEST_CASE("Matrix Market: every malformed input names the file and line", "[codegen]") {
  const std::string h = "%%MatrixMarket matrix coordinate real general\n";
  const std::pair<std::string, std::string> bad[] = {
      {"", "A.mtx:1: empty file"},
      {"3 3 1\n", "A.mtx:1: expected \"%%MatrixMarket"},
      {"%%MatrixMarket matrix coordinate complex general\n", "A.mtx:1: field \"complex\" is not supported"},
      {"%%MatrixMarket matrix coordinate real hermitian\n", "A.mtx:1: symmetry \"hermitian\""},
      {"%%MatrixMarket vector coordinate real general\n", "A.mtx:1: object \"vector\""},
      {"%%MatrixMarket matrix coordinate real\n", "A.mtx:1: the header needs 4 words"},
      {"%%MatrixMarket matrix array pattern general\n", "A.mtx:1: the array format cannot have the pattern field"},
      {h, "A.mtx:1: missing the size line"},
      {h + "% c\n3 3\n", "A.mtx:3: the size line needs 3 integers"},
      {h + "3 x 1\n", "A.mtx:2: column count \"x\" is not an integer"},
      {h + "0 3 1\n", "A.mtx:2: size 0 x 3 is out of range"},
      {h + "2 2 5\n", "A.mtx:2: entry count 5 is out of range"},
      {h + "3 3 2\n1 1 1\n", "A.mtx:3: the file ends after 1 of the 2 entries"},
      {h + "3 3 1\n1 1 1\n2 2 2\n", "A.mtx:4: more entries than the 1"},
      {h + "3 3 1\n\n4 1 1\n", "A.mtx:4: entry (4, 1) is outside the 3 x 3 matrix"},
      {h + "3 3 1\n0 1 1\n", "A.mtx:3: entry (0, 1) is outside"},
      {h + "3 3 1\n1 1\n", "A.mtx:3: expected 3 fields (row col value), found 2"},
      {h + "3 3 1\n1 1 abc\n", "A.mtx:3: value \"abc\" is not a number"},
      {h + "3 3 1\n1 1 1e999\n", "A.mtx:3: value \"1e999\" is out of range"},
      {h + "3 3 1\n1 1 nan\n", "A.mtx:3: value \"nan\" is not finite"},
      {h + "3 3 2\n1 2 1\n1 2 3\n", "A.mtx:4: duplicate entry (1, 2), first given on line 3"},
      {"%%MatrixMarket matrix coordinate real symmetric\n3 3 1\n1 2 1\n",
       "A.mtx:3: entry (1, 2) is above the diagonal"},
      {"%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 1\n2 2 1\n",
       "A.mtx:3: a skew-symmetric matrix has no diagonal"},
      {"%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 1 1.5\n",
       "A.mtx:3: value \"1.5\" is not an integer"},
      {"%%MatrixMarket matrix array real general\n2 1\n1\n", "A.mtx:3: the file ends after 1 of the 2 entries"},
      {"%%MatrixMarket matrix coordinate real symmetric\n2 3 0\n", "A.mtx:2: a symmetric matrix must be square"},
  };
  for (const auto& [text, message] : bad) {
    INFO(text);
    REQUIRE_THROWS_WITH(parse(text), Catch::Contains(message));
  }
}
