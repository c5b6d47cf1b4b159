#pragma once
// The CPU peers of texstream-bench: Eigen's SpMV and ConjugateGradient on the same
// matrices (from linalg::Csr, in float like texstream), and a memcpy ceiling, on one
// thread; and IncompleteCholesky-preconditioned CG in double on every hardware thread
// (icCg, the 3D pressure solvers' peer).
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

/// "Eigen 3.4.0, 1 thread(s)": the threads of every row but icCg's (main() sets Eigen to
/// one; with OpenMP linked, Eigen would otherwise take every hardware thread).
std::string description();
/// "Eigen 3.4.0, SpMV on 16 threads (OpenMP), the rest on one": what icCg runs on; "...,
/// 1 thread (built without OpenMP)" where OpenMP was not found.
std::string icCgDescription();
/// y = x with std::memcpy: the CPU ceiling (2 x 4n bytes).
Timing copy(std::span<const float> x, std::vector<float>& y, const TimingSpec& spec);
/// y = A x with Eigen::SparseMatrix<float, RowMajor>.
Timing spmv(const linalg::Csr& A, std::span<const float> x, std::vector<float>& y, const TimingSpec& spec);
/// Eigen::ConjugateGradient (Lower|Upper, no preconditioner), `iterations` iterations from
/// x = 0 with tolerance 0; the Timing is per iteration, setup included. x: the iterate.
Timing cg(const linalg::Csr& A, std::span<const float> b, int iterations, std::vector<float>& x,
          const TimingSpec& spec);
/// Eigen::ConjugateGradient<SparseMatrix<double, RowMajor>, Lower|Upper,
/// IncompleteCholesky<double>> on a square SPD A, from x = 0 until Eigen's recurrence
/// residual ||r|| <= tolerance ||b|| or maxIterations. IncompleteCholesky is Eigen's
/// default: Lin & More's limited-memory IC (each column keeps its largest entries, fill
/// included, as many as A's lower triangle has there; a diagonal shift only if a pivot
/// breaks down) after AMD reordering and diagonal scaling, not a natural-order IC(0).
/// Eigen parallelises the row-major SpMV over std::thread::hardware_concurrency() OpenMP
/// threads for this call (the previous count is restored); the triangular solves and
/// vector updates run on one. setupMs: compute() (ordering and factorization), measured
/// once; the Timing is per solve: timeCpu's protocol while a solve takes up to a second;
/// a longer one is timed alone, at most three solves (the first included) and no more
/// once they have taken 20 s, median. iterations and x: of the last solve.
/// std::runtime_error if the factorization fails.
Timing icCg(const linalg::Csr& A, const std::vector<double>& b, double tolerance, int maxIterations,
            std::vector<double>& x, int& iterations, double& setupMs, const TimingSpec& spec);

}  // namespace texstream::bench::eigen
