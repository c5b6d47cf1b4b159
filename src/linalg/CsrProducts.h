#pragma once
// Sparse products on the CPU that least squares (LinearSystem, SystemSolver) and aggregation
// multigrid's set-up (solvers/multigrid/AggregationHierarchy.h) need: the transpose, A^T y, A B and the
// normal matrix A^T A, which the Concurrent Number Cruncher forms
// on the CPU before the GPU solves with it (Buatois et al. 2008, §1).
#include <texstream/linalg/Csr.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace texstream::linalg {

/// A^T (cols x rows), columns ascending in each row. A must be valid (std::invalid_argument).
Csr transpose(const Csr& A);
/// A^T y in double precision; y has A.rows values (std::invalid_argument otherwise).
std::vector<double> transposeMultiply(const Csr& A, std::span<const double> y);
/// y = A x in double, rows split over threads as multiply's are. Only the sizes are checked
/// (std::invalid_argument), not A's structure: for loops that multiply by one validated
/// matrix many times.
void multiplyVector(const Csr& A, std::span<const double> x, std::span<double> y);
/// A B (A.rows x B.cols), columns ascending in each row, entries that cancel to exactly 0
/// kept: Gustavson's row-by-row product with a dense accumulator, O(flops + B.cols) time.
/// std::invalid_argument when A or B is invalid or A.cols != B.rows.
Csr multiply(const Csr& A, const Csr& B);
/// A^T A (cols x cols, symmetric), columns ascending in each row, entries that cancel to
/// exactly 0 kept (the pattern is the structural one): multiply(transpose(A), A).
Csr normalMatrix(const Csr& A);

/// Symbolic phase of a product A B, for scalar and block patterns alike: for each row i in
/// [first, last) of A, the number of distinct columns of row i of A B into rowLength[i + 1]
/// (a marker per column of B).
template <class AColumns, class BColumns>
void countProductRows(std::span<const std::int64_t> aRowPtr, const AColumns& aColIdx,
                      std::span<const std::int64_t> bRowPtr, const BColumns& bColIdx, std::size_t bCols,
                      std::size_t first, std::size_t last, std::vector<std::int64_t>& rowLength) {
  std::vector<std::int64_t> marker(bCols, -1);
  for (std::size_t i = first; i < last; ++i) {
    std::int64_t count = 0;
    for (std::int64_t k = aRowPtr[i]; k < aRowPtr[i + 1]; ++k) {
      const std::size_t r = std::size_t(aColIdx[std::size_t(k)]);
      for (std::int64_t l = bRowPtr[r]; l < bRowPtr[r + 1]; ++l) {
        const std::size_t j = std::size_t(bColIdx[std::size_t(l)]);
        if (marker[j] != std::int64_t(i)) {
          marker[j] = std::int64_t(i);
          ++count;
        }
      }
    }
    rowLength[i + 1] = count;
  }
}

}  // namespace texstream::linalg
