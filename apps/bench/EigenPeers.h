#pragma once
// The CPU peers of texstream-bench: Eigen's SpMV and ConjugateGradient on the same
// matrices (from linalg::Csr, in float like texstream), and a memcpy ceiling. One thread.
#include "Timing.h"

#include <texstream/linalg/Csr.h>

#include <Eigen/SparseCore>

#include <limits>
#include <stdexcept>

#include <span>
#include <string>
#include <vector>

namespace texstream::bench::eigen {

/// A as an Eigen row-major sparse matrix of Scalar (32-bit indices: std::runtime_error
/// beyond them), entries in A's order.
template <typename Scalar>
Eigen::SparseMatrix<Scalar, Eigen::RowMajor, int> toEigen(const linalg::Csr& A) {
  if (A.nonZeros() > std::size_t(std::numeric_limits<int>::max()))
    throw std::runtime_error("Eigen peer: " + std::to_string(A.nonZeros()) + " non-zeros exceed 32-bit indices");
  Eigen::SparseMatrix<Scalar, Eigen::RowMajor, int> M(Eigen::Index(A.rows), Eigen::Index(A.cols));
  M.resizeNonZeros(Eigen::Index(A.nonZeros()));
  for (std::size_t r = 0; r <= A.rows; ++r) M.outerIndexPtr()[r] = int(A.rowPtr[r]);
  for (std::size_t k = 0; k < A.nonZeros(); ++k) {
    M.innerIndexPtr()[k] = A.colIdx[k];
    M.valuePtr()[k] = Scalar(A.values[k]);
  }
  return M;
}

/// "Eigen 3.4.0, 1 thread"
std::string description();
/// y = x with std::memcpy: the CPU ceiling (2 x 4n bytes).
Timing copy(std::span<const float> x, std::vector<float>& y, const TimingSpec& spec);
/// y = A x with Eigen::SparseMatrix<float, RowMajor>.
Timing spmv(const linalg::Csr& A, std::span<const float> x, std::vector<float>& y, const TimingSpec& spec);
/// Eigen::ConjugateGradient (Lower|Upper, no preconditioner), `iterations` iterations from
/// x = 0 with tolerance 0; the Timing is per iteration, setup included. x: the iterate.
Timing cg(const linalg::Csr& A, std::span<const float> b, int iterations, std::vector<float>& x,
          const TimingSpec& spec);

}  // namespace texstream::bench::eigen
