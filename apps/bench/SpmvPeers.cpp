#include "SpmvPeers.h"

#include "CudaPeers.h"
#include "EigenPeers.h"
#include "Reference.h"
#include "Traffic.h"

namespace texstream::bench {

void sparsePeers(BenchContext& ctx, const std::string& name, const linalg::Csr& A, const std::vector<float>& xs,
                 const std::vector<double>& reference, double tolerance) {
  std::vector<float> y;
#ifdef TEXSTREAM_BENCH_CUDA
  if (ctx.cudaPeers) {
    Row row = makeRow("peer.cusparse_spmv." + name, "cuda", A.rows, cuda::spmv(A, xs, y, ctx.timing), csrSpmvBytes(A),
                      4.0 * double(A.rows), 2.0 * double(A.nonZeros()));
    row.maxRelErr = maxRelativeError(y, reference);
    row.tolerance = tolerance;
    row.note = "cusparseSpMV, CSR float, 32-bit indices";
    ctx.add(std::move(row));
  }
#endif
  if (ctx.cpuPeers) {
    Row row = makeRow("peer.eigen_spmv." + name, "cpu", A.rows, eigen::spmv(A, xs, y, cpuSpec(ctx.timing)),
                      csrSpmvBytes(A), 4.0 * double(A.rows), 2.0 * double(A.nonZeros()));
    row.maxRelErr = maxRelativeError(y, reference);
    row.tolerance = tolerance;
    row.note = "Eigen::SparseMatrix<float, RowMajor>, " + eigen::description();
    ctx.add(std::move(row));
  }
}

std::vector<std::string> sparsePeerNames(const std::string& name) {
  return {"peer.cusparse_spmv." + name, "peer.eigen_spmv." + name};
}

}  // namespace texstream::bench
