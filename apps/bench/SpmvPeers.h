#pragma once
// The SpMV peers of the sparse product rows (MatrixBench.cpp, SparseBench.cpp): cuSPARSE
// (with --cuda-peers builds) and Eigen multiply the CSR form of the matrix texstream
// multiplies, with the same x, each checked against the same double reference.
#include "BenchCase.h"

#include <texstream/linalg/Csr.h>

#include <string>
#include <vector>

namespace texstream::bench {

/// The rows peer.cusparse_spmv.NAME and peer.eigen_spmv.NAME of A x, where ctx asks for
/// those peers; max_rel_err against `reference`, within `tolerance`.
void sparsePeers(BenchContext& ctx, const std::string& name, const linalg::Csr& A, const std::vector<float>& xs,
                 const std::vector<double>& reference, double tolerance);

/// The ops of those rows (a texstream row's peer candidates).
std::vector<std::string> sparsePeerNames(const std::string& name);

}  // namespace texstream::bench
