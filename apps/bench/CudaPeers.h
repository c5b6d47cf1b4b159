#pragma once
// The CUDA peers of texstream-bench (GPU.md, "Peers, side by side in one run"): cuBLAS
// saxpy/sdot/snrm2/scopy/sgemv, cuSPARSE CSR SpMV, a cuSPARSE + cuBLAS CG, and CG
// preconditioned with Jacobi or IC(0) (the 3D pressure solvers' peers), run on
// the same data as the texstream rows, timed with cudaEvents (median of batches, the same
// TimingSpec). Plain C++: no CUDA type appears here, so the rest of the benchmark builds
// without CUDA; the definitions are in CudaPeers.cu (TEXSTREAM_CUDA_PEERS=ON).
#include "Timing.h"

#include <texstream/linalg/Csr.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace texstream::bench::cuda {

#ifdef TEXSTREAM_BENCH_CUDA
/// True when a CUDA device can be used; otherwise false with the reason in *whyNot.
bool available(std::string* whyNot);
/// "NVIDIA H200 (sm_90, 141 GB), CUDA runtime 13.0"
std::string deviceName();

/// y = x as a device-to-device cudaMemcpy: the CUDA ceiling (2 x 4n bytes).
Timing copy(const std::vector<float>& x, std::vector<float>& y, const TimingSpec& spec);
/// cublasScopy: y = x.
Timing scopy(const std::vector<float>& x, std::vector<float>& y, const TimingSpec& spec);
/// cublasSaxpy: result = a x + y (timed in place on a device copy of y; the result is of
/// one run from the original y).
Timing saxpy(float a, const std::vector<float>& x, const std::vector<float>& y, std::vector<float>& result,
             const TimingSpec& spec);
/// cublasSdot: result = x . y (device pointer mode: no host round trip per call).
Timing sdot(const std::vector<float>& x, const std::vector<float>& y, double& result, const TimingSpec& spec);
/// cublasSnrm2: result = ||x||_2.
Timing snrm2(const std::vector<float>& x, double& result, const TimingSpec& spec);
/// cuSPARSE CSR SpMV (32-bit indices, float values from A's doubles): y = A x.
Timing spmv(const linalg::Csr& A, const std::vector<float>& x, std::vector<float>& y, const TimingSpec& spec);
/// cublasSgemv: y = A x, A rows x cols in row-major order (A(i, j) = rowMajor[i cols + j],
/// as DenseMatrix takes it; cuBLAS sees the column-major transpose and applies OP_T).
Timing sgemv(std::size_t rows, std::size_t cols, const std::vector<float>& rowMajor, const std::vector<float>& x,
             std::vector<float>& y, const TimingSpec& spec);
/// `iterations` iterations of unpreconditioned CG from x = 0 (cuSPARSE SpMV, cuBLAS dot and
/// axpy in device pointer mode, scalars on the device, no host round trip), setup included;
/// the Timing is per iteration. x: the iterate after one such solve.
Timing cg(const linalg::Csr& A, const std::vector<float>& b, int iterations, std::vector<float>& x,
          const TimingSpec& spec);
/// CG in double precision (cuSPARSE SpMV and cuBLAS Ddot/Daxpy on doubles, scalars on the
/// device) from x = 0 until the recurrence residual ||r|| <= tolerance ||b|| (read back
/// every checkEvery iterations) or maxIterations; one solve per repetition, set-up
/// included. iterations and x: of one solve.
Timing cgDouble(const linalg::Csr& A, const std::vector<double>& b, double tolerance, int maxIterations,
                int checkEvery, std::vector<double>& x, int& iterations, const TimingSpec& spec);
/// Jacobi-preconditioned CG in float on a square SPD A with every diagonal entry stored:
/// cuSPARSE CSR SpMV, cuBLAS dot/axpy in device pointer mode with the scalars on the
/// device, z = D^-1 r by a small kernel. From x = 0 until the recurrence residual
/// ||r|| <= tolerance ||b|| (read back every checkEvery iterations) or maxIterations.
/// setupMs: wall time of one set-up (uploads, descriptors, buffers, D^-1), handles
/// excluded; the Timing is per solve, set-up excluded. iterations and x: of one solve.
Timing jacobiPcg(const linalg::Csr& A, const std::vector<float>& b, double tolerance, int maxIterations,
                 int checkEvery, std::vector<float>& x, int& iterations, double& setupMs, const TimingSpec& spec);
/// IC(0)-preconditioned CG in float, as jacobiPcg otherwise: cuSPARSE's csric02 factors A
/// on the device in natural order, no fill (A ~ L L^T, L on A's lower pattern; A's columns
/// sorted within each row), and each iteration applies z = L^-T L^-1 r with two
/// cusparseSpSV solves. setupMs includes the factorization and both solves' analyses.
Timing ic0Pcg(const linalg::Csr& A, const std::vector<float>& b, double tolerance, int maxIterations,
              int checkEvery, std::vector<float>& x, int& iterations, double& setupMs, const TimingSpec& spec);
#else
// Built without CUDA: available() says so, and callers guard the peer calls with
// #ifdef TEXSTREAM_BENCH_CUDA.
inline bool available(std::string* whyNot) {
  if (whyNot) *whyNot = "texstream-bench was built without TEXSTREAM_CUDA_PEERS";
  return false;
}
inline std::string deviceName() { return {}; }
#endif

}  // namespace texstream::bench::cuda
