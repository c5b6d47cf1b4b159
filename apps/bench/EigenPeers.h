#pragma once
// The CPU peers of texstream-bench: Eigen's SpMV and ConjugateGradient on the same
// matrices (from linalg::Csr, in float like texstream), and a memcpy ceiling. One thread.
#include "Timing.h"

#include <texstream/linalg/Csr.h>

#include <span>
#include <string>
#include <vector>

namespace texstream::bench::eigen {

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
