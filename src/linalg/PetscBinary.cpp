#include <texstream/linalg/PetscBinary.h>

#include <climits>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace texstream::linalg {

namespace {

void appendBigEndian32(std::string& out, std::uint32_t v) {
  const char bytes[4] = {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
  out.append(bytes, 4);
}

void appendInt(std::string& out, std::int32_t v) { appendBigEndian32(out, std::uint32_t(v)); }

void appendDouble(std::string& out, double v) {
  std::uint64_t bits = 0;  // std::bit_cast is missing from emscripten 3.1.6's libc++
  std::memcpy(&bits, &v, sizeof bits);
  appendBigEndian32(out, std::uint32_t(bits >> 32));
  appendBigEndian32(out, std::uint32_t(bits));
}

std::int32_t checkedInt(const char* what, std::size_t v) {
  if (v > std::size_t(INT32_MAX))
    throw std::invalid_argument(std::string("PETSc binary: ") + what + " " + std::to_string(v) +
                                " does not fit PETSc's 32-bit indices");
  return std::int32_t(v);
}

}  // namespace

std::string formatPetscMatrix(const Csr& A) {
  A.validate("PETSc binary");
  std::string out;
  out.reserve(16 + 4 * A.rows + 12 * A.nonZeros());
  appendInt(out, kPetscMatFileClassId);
  appendInt(out, checkedInt("rows", A.rows));
  appendInt(out, checkedInt("columns", A.cols));
  appendInt(out, checkedInt("non-zeros", A.nonZeros()));
  for (std::size_t r = 0; r < A.rows; ++r) appendInt(out, std::int32_t(A.rowPtr[r + 1] - A.rowPtr[r]));
  for (std::int32_t c : A.colIdx) appendInt(out, c);
  for (double v : A.values) appendDouble(out, v);
  return out;
}

std::string formatPetscVector(std::span<const double> v) {
  std::string out;
  out.reserve(8 + 8 * v.size());
  appendInt(out, kPetscVecFileClassId);
  appendInt(out, checkedInt("vector length", v.size()));
  for (double x : v) appendDouble(out, x);
  return out;
}

void writePetscBinary(const std::string& path, const Csr& A, std::span<const std::span<const double>> vectors) {
  const std::string matrix = formatPetscMatrix(A);
  std::ofstream out(path, std::ios::binary);
  if (!out) throw std::runtime_error(path + ": cannot open the file for writing");
  out.write(matrix.data(), std::streamsize(matrix.size()));
  for (std::span<const double> v : vectors) {
    if (v.size() != A.rows)
      throw std::invalid_argument(path + ": a right-hand side has " + std::to_string(v.size()) + " values, the matrix " +
                                  std::to_string(A.rows) + " rows");
    const std::string bytes = formatPetscVector(v);
    out.write(bytes.data(), std::streamsize(bytes.size()));
  }
  if (!out.flush()) throw std::runtime_error(path + ": write failed");
}

}  // namespace texstream::linalg
