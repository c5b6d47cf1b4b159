#pragma once
// texstream::linalg::Csr: a compressed sparse row description on the CPU, the common way
// in for every matrix class (each also builds from its own natural CPU data).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace texstream::linalg {

struct Csr {
  std::size_t rows = 0, cols = 0;
  std::vector<std::int64_t> rowPtr;  ///< rows + 1 offsets into colIdx/values
  std::vector<std::int32_t> colIdx;
  std::vector<double> values;

  std::size_t nonZeros() const { return values.size(); }
  /// Throws std::invalid_argument naming the first problem (row pointer not monotone,
  /// column out of range, sizes disagree, non-finite value).
  void validate(const std::string& what) const;
  /// Throws std::invalid_argument("what: the matrix is RxC, not square") unless rows == cols.
  void requireSquare(const std::string& what) const;
  /// y = A x in double precision (the CPU reference of every SpMV test).
  std::vector<double> multiply(const std::vector<double>& x) const;
  /// The diagonal entries a_ii, i < min(rows, cols) (duplicates summed, 0 where absent).
  std::vector<double> diagonal() const;
  /// A from (row, col, value) triplets; duplicates are summed.
  static Csr fromTriplets(std::size_t rows, std::size_t cols, const std::vector<std::int64_t>& r,
                          const std::vector<std::int64_t>& c, const std::vector<double>& v);
  /// The 2D 5-point Laplacian -Δ (Dirichlet, h = 1) on nx x ny; SPD.
  static Csr poisson2D(std::size_t nx, std::size_t ny);
  /// The 3D 7-point Laplacian -Δ (Dirichlet, h = 1) on nx x ny x nz (Frantic Films); SPD.
  static Csr poisson3D(std::size_t nx, std::size_t ny, std::size_t nz);
};

}  // namespace texstream::linalg
