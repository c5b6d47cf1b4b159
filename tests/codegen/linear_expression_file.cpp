// Tests src/codegen/LinearExpressionFile.*: y = A x + b from Matrix Market files (the
// format itself is tested in tests/linalg/matrix_market.cpp): coordinate and array A,
// b as m x 1 or 1 x m, explicit zeros left out of A, repeated entries and wrong shapes
// rejected naming the file (and line, where the file itself is malformed).
#include <catch2/catch.hpp>

#include <texstream/codegen/LinearExpressionFile.h>
#include <texstream/codegen/SimdCost.h>
#include <texstream/linalg/MatrixMarket.h>

#include <filesystem>
#include <fstream>

using namespace texstream::codegen;
using texstream::linalg::MatrixMarketError;

namespace {

std::string write(const std::string& name, const std::string& text) {
  const auto dir = std::filesystem::temp_directory_path() / "texstream-codegen-mtx";
  std::filesystem::create_directories(dir);
  const auto path = dir / name;
  std::ofstream(path) << text;
  return path.string();
}

}  // namespace

TEST_CASE("readLinearExpression: A and b from files", "[codegen]") {
  const std::string a = write("a.mtx", "%%MatrixMarket matrix coordinate real general\n5 5 3\n1 1 1\n5 2 2\n3 3 3\n");
  SECTION("coordinate A, array b") {
    const std::string b = write("b.mtx", "%%MatrixMarket matrix array real general\n5 1\n1\n0\n0\n0\n2\n");
    const LinearExpression e = readLinearExpression(a, b);
    REQUIRE(e.size() == 5);
    REQUIRE(e.nonzeros() == 3);
    REQUIRE(e.at(4, 1) == 2.0);
    REQUIRE(e.at(2, 2) == 3.0);
    REQUIRE(e.b() == std::vector<double>{1, 0, 0, 0, 2});
    REQUIRE(simdCost(e).total == 2);  // (0,0)+(2,2): one MAD on b; (4,1): one MAD on b
  }
  SECTION("b absent is zero; b as a 1 x m row or a coordinate column") {
    REQUIRE(readLinearExpression(a).b() == std::vector<double>(5, 0.0));
    const std::string row = write("row.mtx", "%%MatrixMarket matrix array integer general\n1 5\n1\n2\n3\n4\n5\n");
    REQUIRE(readLinearExpression(a, row).b() == std::vector<double>{1, 2, 3, 4, 5});
    const std::string column = write("col.mtx", "%%MatrixMarket matrix coordinate real general\n5 1 2\n2 1 -1\n5 1 7\n");
    REQUIRE(readLinearExpression(a, column).b() == std::vector<double>{0, -1, 0, 0, 7});
  }
  SECTION("array A, symmetric storage expanded; explicit zeros are not non-zeros of A") {
    // [2 0 1; 0 3 0; 1 0 4] stored as its lower triangle, zeros written out.
    const std::string s = write("s.mtx", "%%MatrixMarket matrix array real symmetric\n3 3\n2\n0\n1\n3\n0\n4\n");
    const LinearExpression e = readLinearExpression(s);
    REQUIRE(e.size() == 3);
    REQUIRE(e.nonzeros() == 5);
    REQUIRE(e.at(0, 2) == 1.0);
    REQUIRE(e.at(2, 0) == 1.0);
    REQUIRE(e.at(1, 0) == 0.0);
    const std::string z = write("z.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 1\n2 1 0\n2 2 0\n");
    REQUIRE(readLinearExpression(z).nonzeros() == 1);
    REQUIRE(readLinearExpression(z).operations() == 1);  // one multiplication; the zeros cost nothing
  }
}

TEST_CASE("readLinearExpression: bad files name the file", "[codegen]") {
  const std::string a = write("a.mtx", "%%MatrixMarket matrix coordinate real general\n5 5 3\n1 1 1\n5 2 2\n3 3 3\n");
  REQUIRE_THROWS_WITH(
      readLinearExpression(a, write("b3.mtx", "%%MatrixMarket matrix array real general\n3 1\n1\n2\n3\n")),
      Catch::EndsWith("b3.mtx: b must be 5 x 1 to match A (it is 3 x 1)"));
  REQUIRE_THROWS_WITH(readLinearExpression(a, write("b2.mtx", "%%MatrixMarket matrix coordinate real general\n5 2 0\n")),
                      Catch::EndsWith("b2.mtx: b must be 5 x 1 to match A (it is 5 x 2)"));
  REQUIRE_THROWS_WITH(readLinearExpression(write("r.mtx", "%%MatrixMarket matrix coordinate real general\n2 3 0\n")),
                      Catch::EndsWith("r.mtx: A must be square for y = A x + b (it is 2 x 3)"));
  REQUIRE_THROWS_WITH(readLinearExpression("/no/such/file.mtx"), Catch::StartsWith("/no/such/file.mtx:0: cannot open"));
  // The reader's options: a repeated entry is an error (not a sum), in A and in b.
  const std::string d = write("d.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1\n1 2 -1\n");
  REQUIRE_THROWS_AS(readLinearExpression(d), MatrixMarketError);
  REQUIRE_THROWS_WITH(readLinearExpression(d),
                      Catch::EndsWith("d.mtx:4: entry 2 of 2: duplicate entry (1, 2), first given on line 3"));
  const std::string bd = write("bd.mtx", "%%MatrixMarket matrix coordinate real general\n5 1 2\n2 1 1\n2 1 1\n");
  REQUIRE_THROWS_WITH(readLinearExpression(a, bd),
                      Catch::Contains("bd.mtx:4: ") && Catch::Contains("duplicate entry (2, 1)"));
  REQUIRE_THROWS_WITH(readLinearExpression(write("m.mtx", "%%MatrixMarket matrix array real general\n2 2\n1\n2\nx\n4\n")),
                      Catch::EndsWith("m.mtx:5: entry 3 of 4: value \"x\" is not a number"));
}

TEST_CASE("readLinearExpression: the Matrix Market limits hold for A and b", "[codegen]") {
  const std::string a = write("a.mtx", "%%MatrixMarket matrix coordinate real general\n5 5 3\n1 1 1\n5 2 2\n3 3 3\n");
  const std::string huge = write("huge.mtx", "%%MatrixMarket matrix coordinate real general\n2000000000 2000000000 0\n");
  REQUIRE_THROWS_AS(readLinearExpression(huge), MatrixMarketError);
  REQUIRE_THROWS_WITH(readLinearExpression(huge), Catch::EndsWith("huge.mtx:2: the matrix is 2000000000x2000000000, beyond "
                                                                  "the limit of 67108864 rows and columns "
                                                                  "(MatrixMarketOptions::maxDimension)"));
  const std::string hugeB = write("huge_b.mtx", "%%MatrixMarket matrix array real general\n2000000000 1\n1\n");
  REQUIRE_THROWS_WITH(readLinearExpression(a, hugeB), Catch::Contains("huge_b.mtx:2: the matrix is 2000000000x1"));
  const std::string dir = std::filesystem::path(a).parent_path().string();
  REQUIRE_THROWS_WITH(readLinearExpression(dir), Catch::EndsWith(":0: is a directory, not a Matrix Market file"));
}
