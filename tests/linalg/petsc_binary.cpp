// Tests src/linalg/PetscBinary.* and SystemExport.*: the bytes follow PETSc's documented
// binary layout (big-endian int32 class id, sizes, row lengths, column indices, IEEE
// doubles), decoded here independently; a built system exported as Matrix Market reads
// back to the same matrix and right-hand sides; unwritable destinations are named. CPU only.
#include <catch2/catch.hpp>

#include "linalg/SystemTestSupport.h"

#include <texstream/linalg/CsrProducts.h>
#include <texstream/linalg/MatrixMarket.h>
#include <texstream/linalg/PetscBinary.h>
#include <texstream/linalg/SystemExport.h>

#include <bit>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

using namespace texstream;
using Catch::Matchers::Contains;

namespace {

/// Reads PETSc binary objects back by the format's definition.
struct BigEndianReader {
  const std::string& bytes;
  std::size_t at = 0;
  std::uint32_t u32() {
    REQUIRE(at + 4 <= bytes.size());
    std::uint32_t v = 0;
    for (int k = 0; k < 4; ++k) v = (v << 8) | std::uint8_t(bytes[at++]);
    return v;
  }
  std::int32_t i32() { return std::int32_t(u32()); }
  double f64() {
    const std::uint64_t hi = u32(), lo = u32();
    return std::bit_cast<double>((hi << 32) | lo);
  }
};

void requireMatrix(BigEndianReader& in, const linalg::Csr& A) {
  REQUIRE(in.i32() == 1211216);
  REQUIRE(in.i32() == std::int32_t(A.rows));
  REQUIRE(in.i32() == std::int32_t(A.cols));
  REQUIRE(in.i32() == std::int32_t(A.nonZeros()));
  for (std::size_t r = 0; r < A.rows; ++r) REQUIRE(in.i32() == A.rowPtr[r + 1] - A.rowPtr[r]);
  for (std::int32_t c : A.colIdx) REQUIRE(in.i32() == c);
  for (double v : A.values) REQUIRE(in.f64() == v);  // bit-exact doubles
}

void requireVector(BigEndianReader& in, const std::vector<double>& v) {
  REQUIRE(in.i32() == 1211214);
  REQUIRE(in.i32() == std::int32_t(v.size()));
  for (double x : v) REQUIRE(in.f64() == x);
}

std::string readFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("PETSc binary: matrices and vectors in PETSc's documented layout", "[linalg]") {
  const linalg::Csr A = linalg::normalMatrix(linalg::Csr::fromTriplets(
      4, 3, {0, 0, 1, 2, 3, 3}, {0, 2, 1, 2, 0, 1}, {1.0 / 3.0, -2.5, 1e-300, 7.0, -0.1, 4.0}));
  const std::string bytes = linalg::formatPetscMatrix(A);
  REQUIRE(bytes.size() == 16 + 4 * A.rows + 12 * A.nonZeros());
  BigEndianReader in{bytes};
  requireMatrix(in, A);
  REQUIRE(in.at == bytes.size());
  // The first bytes, spelled out: 1211216 = 0x00127B50.
  REQUIRE(bytes.substr(0, 4) == std::string("\x00\x12\x7b\x50", 4));

  const std::vector<double> v = {1.0, -0.0, 3.25e10, std::nextafter(1.0, 2.0)};
  const std::string vb = linalg::formatPetscVector(v);
  BigEndianReader vin{vb};
  requireVector(vin, v);
  REQUIRE(vin.at == vb.size());

  const std::string path = (std::filesystem::temp_directory_path() / "texstream_petsc_test.petsc").string();
  const std::vector<double> b1 = {1, 2, 3}, b2 = {-1, 0.5, 9};
  const std::vector<std::span<const double>> rhs = {b1, b2};
  linalg::writePetscBinary(path, A, rhs);
  const std::string file = readFile(path);
  BigEndianReader fin{file};
  requireMatrix(fin, A);
  requireVector(fin, b1);
  requireVector(fin, b2);
  REQUIRE(fin.at == file.size());
  std::filesystem::remove(path);

  const std::vector<double> wrong = {1, 2};
  const std::vector<std::span<const double>> bad = {wrong};
  REQUIRE_THROWS_WITH(linalg::writePetscBinary(path, A, bad), Contains("a right-hand side has 2 values, the matrix 3 rows"));
  REQUIRE_THROWS_WITH(linalg::writePetscBinary("/nonexistent-dir/x.petsc", A), Contains("/nonexistent-dir/x.petsc: cannot open"));
}

TEST_CASE("exportSystem writes the SPD system as Matrix Market and PETSc binary", "[linalg]") {
  const test::RandomSystem rs = test::randomLeastSquares(9, 2, 2, 77);
  const linalg::LinearSystem s = rs.builder("export").build();
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "texstream_export_test";
  std::filesystem::remove_all(dir);

  const auto mm = linalg::exportSystem(s, (dir / "mm").string(), linalg::SystemFileFormat::MatrixMarket);
  REQUIRE(mm.size() == 3);
  const linalg::Csr N = s.matrix();
  const linalg::Csr read = linalg::readMatrixMarket(mm[0]);
  REQUIRE(read.rowPtr == N.rowPtr);
  REQUIRE(read.colIdx == N.colIdx);
  REQUIRE(read.values == N.values);  // 17 significant digits: exact
  REQUIRE(linalg::readMatrixMarketVector(mm[1]) == s.rhs(0));
  REQUIRE(linalg::readMatrixMarketVector(mm[2]) == s.rhs(1));

  const auto petsc = linalg::exportSystem(s, (dir / "petsc").string(), linalg::SystemFileFormat::Petsc);
  REQUIRE(petsc.size() == 1);
  const std::string file = readFile(petsc[0]);
  BigEndianReader in{file};
  requireMatrix(in, N);
  requireVector(in, s.rhs(0));
  requireVector(in, s.rhs(1));
  REQUIRE(in.at == file.size());

  // A directory that is a file, and one below a file.
  const std::string plain = (dir / "plain").string();
  std::ofstream(plain) << "x";
  REQUIRE_THROWS_WITH(linalg::exportSystem(s, plain, linalg::SystemFileFormat::Petsc), Contains("exists and is not a directory"));
  REQUIRE_THROWS_WITH(linalg::exportSystem(s, plain + "/sub", linalg::SystemFileFormat::Petsc),
                      Contains("plain/sub: cannot create the directory"));
  std::filesystem::remove_all(dir);
}
