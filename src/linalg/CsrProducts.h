#pragma once
// Sparse products on the CPU that least squares (LinearSystem, SystemSolver) and aggregation
// multigrid's set-up (solvers/AggregationHierarchy.h) need: the transpose, A^T y, A B and the
// normal matrix A^T A, which the Concurrent Number Cruncher forms
// on the CPU before the GPU solves with it (Buatois et al. 2008, §1).
#include <texstream/linalg/Csr.h>

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

}  // namespace texstream::linalg
