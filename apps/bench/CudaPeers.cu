// The CUDA peers (CudaPeers.h): what a CUDA programmer would write with the vendor
// libraries, on the same data as texstream's rows, timed the same way (median of batches,
// cudaEvents around each batch).
#include "CudaPeers.h"

#include <cublas_v2.h>
#include <cuda_runtime.h>
// csric02 (ic0Pcg) is marked deprecated in cusparse.h but still shipped, and it is
// cuSPARSE's only IC(0): its declarations without the deprecation warnings.
#define DISABLE_CUSPARSE_DEPRECATED
#include <cusparse.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>

namespace texstream::bench::cuda {

namespace {

[[noreturn]] void fail(const char* call, const std::string& what, const char* file, int line) {
  throw std::runtime_error(std::string("CUDA peer: ") + call + " failed: " + what + " (" + file + ":" +
                           std::to_string(line) + ")");
}
#define TS_CUDA(call)                                                                   \
  do {                                                                                  \
    cudaError_t e_ = (call);                                                            \
    if (e_ != cudaSuccess) fail(#call, cudaGetErrorString(e_), __FILE__, __LINE__);     \
  } while (0)
#define TS_CUBLAS(call)                                                                 \
  do {                                                                                  \
    cublasStatus_t s_ = (call);                                                         \
    if (s_ != CUBLAS_STATUS_SUCCESS) fail(#call, cublasGetStatusString(s_), __FILE__, __LINE__); \
  } while (0)
#define TS_CUSPARSE(call)                                                               \
  do {                                                                                  \
    cusparseStatus_t s_ = (call);                                                       \
    if (s_ != CUSPARSE_STATUS_SUCCESS) fail(#call, cusparseGetErrorString(s_), __FILE__, __LINE__); \
  } while (0)

// Device memory of `count` T's, freed on scope exit.
template <typename T>
class DeviceArray {
 public:
  explicit DeviceArray(std::size_t count) : m_count(count) {
    TS_CUDA(cudaMalloc(reinterpret_cast<void**>(&m_ptr), std::max<std::size_t>(count, 1) * sizeof(T)));
  }
  explicit DeviceArray(const std::vector<T>& host) : DeviceArray(host.size()) { upload(host); }
  /// One value (a device-pointer-mode coefficient).
  static DeviceArray scalar(T value) {
    DeviceArray a(1);
    a.upload(std::vector<T>{value});
    return a;
  }
  ~DeviceArray() { cudaFree(m_ptr); }
  DeviceArray(DeviceArray&& o) noexcept : m_ptr(o.m_ptr), m_count(o.m_count) { o.m_ptr = nullptr; }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  DeviceArray& operator=(DeviceArray&&) = delete;
  T* get() const { return m_ptr; }
  std::size_t size() const { return m_count; }
  void upload(const std::vector<T>& host) {
    TS_CUDA(cudaMemcpy(m_ptr, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  std::vector<T> download() const {
    std::vector<T> out(m_count);
    TS_CUDA(cudaMemcpy(out.data(), m_ptr, m_count * sizeof(T), cudaMemcpyDeviceToHost));
    return out;
  }
  /// All bytes 0xFF: NaN as floats. Written before a correctness run.
  void poison() { TS_CUDA(cudaMemset(m_ptr, 0xFF, m_count * sizeof(T))); }

 private:
  T* m_ptr = nullptr;
  std::size_t m_count = 0;
};

struct Blas {
  cublasHandle_t handle = nullptr;
  Blas() {
    TS_CUBLAS(cublasCreate(&handle));
    TS_CUBLAS(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_DEVICE));
  }
  ~Blas() { cublasDestroy(handle); }
  Blas(const Blas&) = delete;
  Blas& operator=(const Blas&) = delete;
};

struct Sparse {
  cusparseHandle_t handle = nullptr;
  Sparse() { TS_CUSPARSE(cusparseCreate(&handle)); }
  ~Sparse() { cusparseDestroy(handle); }
  Sparse(const Sparse&) = delete;
  Sparse& operator=(const Sparse&) = delete;
};

// The same protocol as timeGl: warm up, calibrate the repetitions, median of batches.
Timing timeCuda(const std::function<void()>& body, const TimingSpec& spec) {
  cudaEvent_t start, stop;
  TS_CUDA(cudaEventCreate(&start));
  TS_CUDA(cudaEventCreate(&stop));
  for (int i = 0; i < spec.warmup; ++i) body();
  TS_CUDA(cudaDeviceSynchronize());
  float single = 0;
  TS_CUDA(cudaEventRecord(start));
  body();
  TS_CUDA(cudaEventRecord(stop));
  TS_CUDA(cudaEventSynchronize(stop));
  TS_CUDA(cudaEventElapsedTime(&single, start, stop));
  const int reps = repetitionsFor(single, spec);
  std::vector<double> gpu, wall;
  for (int b = 0; b < spec.batches; ++b) {
    TS_CUDA(cudaDeviceSynchronize());
    const auto t0 = std::chrono::steady_clock::now();
    TS_CUDA(cudaEventRecord(start));
    for (int r = 0; r < reps; ++r) body();
    TS_CUDA(cudaEventRecord(stop));
    TS_CUDA(cudaEventSynchronize(stop));
    float ms = 0;
    TS_CUDA(cudaEventElapsedTime(&ms, start, stop));
    gpu.push_back(double(ms) / reps);
    wall.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / reps);
  }
  TS_CUDA(cudaGetLastError());
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  Timing t;
  t.ms = median(gpu);
  t.wallMs = median(wall);
  t.reps = reps;
  t.batches = spec.batches;
  t.method = "cudaEvent";
  return t;
}

template <typename T>
constexpr cudaDataType dataType() {
  return sizeof(T) == 8 ? CUDA_R_64F : CUDA_R_32F;
}

// A CSR matrix on the device in cuSPARSE's generic API (32-bit indices, T values).
template <typename T>
class DeviceCsrT {
 public:
  explicit DeviceCsrT(const linalg::Csr& A)
      : m_rowPtr(A.rows + 1), m_colIdx(A.nonZeros()), m_values(A.nonZeros()) {
    if (A.nonZeros() > std::size_t(std::numeric_limits<std::int32_t>::max()))
      throw std::runtime_error("CUDA peer: " + std::to_string(A.nonZeros()) +
                               " non-zeros do not fit cuSPARSE's 32-bit indices");
    std::vector<std::int32_t> rowPtr(A.rowPtr.begin(), A.rowPtr.end());
    std::vector<T> values(A.values.begin(), A.values.end());
    m_rowPtr.upload(rowPtr);
    m_colIdx.upload(A.colIdx);
    m_values.upload(values);
    TS_CUSPARSE(cusparseCreateCsr(&m_descr, std::int64_t(A.rows), std::int64_t(A.cols), std::int64_t(A.nonZeros()),
                                  m_rowPtr.get(), m_colIdx.get(), m_values.get(), CUSPARSE_INDEX_32I,
                                  CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, dataType<T>()));
  }
  ~DeviceCsrT() { cusparseDestroySpMat(m_descr); }
  DeviceCsrT(const DeviceCsrT&) = delete;
  DeviceCsrT& operator=(const DeviceCsrT&) = delete;
  cusparseSpMatDescr_t descr() const { return m_descr; }
  std::int32_t* rowPtr() const { return m_rowPtr.get(); }
  std::int32_t* colIdx() const { return m_colIdx.get(); }
  T* values() const { return m_values.get(); }

 private:
  DeviceArray<std::int32_t> m_rowPtr, m_colIdx;
  DeviceArray<T> m_values;
  cusparseSpMatDescr_t m_descr = nullptr;
};
using DeviceCsr = DeviceCsrT<float>;

template <typename T>
class DenseVecT {
 public:
  DenseVecT(T* data, std::size_t n) { TS_CUSPARSE(cusparseCreateDnVec(&m_descr, std::int64_t(n), data, dataType<T>())); }
  ~DenseVecT() { cusparseDestroyDnVec(m_descr); }
  DenseVecT(const DenseVecT&) = delete;
  DenseVecT& operator=(const DenseVecT&) = delete;
  cusparseDnVecDescr_t descr() const { return m_descr; }

 private:
  cusparseDnVecDescr_t m_descr = nullptr;
};
using DenseVec = DenseVecT<float>;

// y = alpha A x + beta y with its work buffer allocated once (and preprocessed: what a
// solver that applies one matrix many times does).
template <typename T>
class SpMVT {
 public:
  SpMVT(cusparseHandle_t h, const DeviceCsrT<T>& A, const DenseVecT<T>& x, const DenseVecT<T>& y, T alpha, T beta)
      : m_handle(h), m_A(A.descr()), m_x(x.descr()), m_y(y.descr()), m_alpha(alpha), m_beta(beta) {
    std::size_t bytes = 0;
    TS_CUSPARSE(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &m_alpha, m_A, m_x, &m_beta, m_y,
                                        dataType<T>(), CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
    TS_CUDA(cudaMalloc(&m_buffer, std::max<std::size_t>(bytes, 1)));
    TS_CUSPARSE(cusparseSpMV_preprocess(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &m_alpha, m_A, m_x, &m_beta, m_y,
                                        dataType<T>(), CUSPARSE_SPMV_ALG_DEFAULT, m_buffer));
  }
  ~SpMVT() { cudaFree(m_buffer); }
  SpMVT(const SpMVT&) = delete;
  SpMVT& operator=(const SpMVT&) = delete;
  void run() const {
    TS_CUSPARSE(cusparseSpMV(m_handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &m_alpha, m_A, m_x, &m_beta, m_y,
                             dataType<T>(), CUSPARSE_SPMV_ALG_DEFAULT, m_buffer));
  }

 private:
  cusparseHandle_t m_handle;
  cusparseSpMatDescr_t m_A;
  cusparseDnVecDescr_t m_x, m_y;
  T m_alpha, m_beta;
  void* m_buffer = nullptr;
};
using SpMV = SpMVT<float>;

// CG's scalar updates on the device (one thread): alpha = rho / pq, and -alpha.
template <typename T>
__global__ void cgAlpha(const T* rho, const T* pq, T* alpha, T* negAlpha) {
  const T a = *rho / *pq;
  *alpha = a;
  *negAlpha = -a;
}
// beta = rhoNew / rho; rho = rhoNew.
template <typename T>
__global__ void cgBeta(T* rho, const T* rhoNew, T* beta) {
  *beta = *rhoNew / *rho;
  *rho = *rhoNew;
}
// p = r + beta p (cuBLAS has no xpay; a CUDA CG writes this one-liner).
template <typename T>
__global__ void xpay(const T* r, const T* beta, T* p, std::int64_t n) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) p[i] = r[i] + *beta * p[i];
}

int cublasLength(std::size_t n) {
  if (n > std::size_t(std::numeric_limits<int>::max()))
    throw std::runtime_error("CUDA peer: n = " + std::to_string(n) + " exceeds cuBLAS's 32-bit lengths");
  return int(n);
}

// Preconditioned CG (jacobiPcg, ic0Pcg) ------------------------------------------------

// The checks the solves rely on, on the host before any set-up: A square, every row's
// diagonal stored and positive, and (csric02) columns strictly increasing in a row.
void requirePcgInput(const linalg::Csr& A, std::size_t bSize, int maxIterations, int checkEvery, bool sortedColumns,
                     const char* who) {
  const std::string name = std::string("CUDA peer ") + who + ": ";
  if (maxIterations < 1 || checkEvery < 1)
    throw std::invalid_argument(name + "maxIterations and checkEvery must be >= 1");
  if (A.rows != A.cols || A.rows != bSize)
    throw std::invalid_argument(name + "A is " + std::to_string(A.rows) + " x " + std::to_string(A.cols) +
                                " and b has " + std::to_string(bSize) + " entries");
  if (A.rows > std::size_t(std::numeric_limits<int>::max()))
    throw std::runtime_error(name + std::to_string(A.rows) + " rows exceed 32-bit indices");
  for (std::size_t i = 0; i < A.rows; ++i) {
    double diagonal = 0;
    for (std::int64_t k = A.rowPtr[i]; k < A.rowPtr[i + 1]; ++k) {
      if (std::size_t(A.colIdx[k]) == i) diagonal += A.values[k];
      if (sortedColumns && k > A.rowPtr[i] && A.colIdx[k] <= A.colIdx[k - 1])
        throw std::invalid_argument(name + "row " + std::to_string(i) + "'s columns are not strictly increasing");
    }
    if (!(diagonal > 0))
      throw std::invalid_argument(name + "row " + std::to_string(i) + " has no positive diagonal entry");
  }
}

// dInverse_i = 1 / a_ii (duplicates summed, as Csr::diagonal), one thread a row.
__global__ void inverseDiagonal(const std::int32_t* rowPtr, const std::int32_t* colIdx, const float* values,
                                float* dInverse, std::int64_t n) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float d = 0.0f;
  for (std::int32_t k = rowPtr[i]; k < rowPtr[i + 1]; ++k)
    if (colIdx[k] == i) d += values[k];
  dInverse[i] = 1.0f / d;
}
// z = dInverse .* r: the Jacobi preconditioner.
__global__ void multiplyElementwise(const float* dInverse, const float* r, float* z, std::int64_t n) {
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) z[i] = dInverse[i] * r[i];
}

unsigned blocksFor(std::size_t n) { return unsigned((n + 255) / 256); }

// The vectors, matrix and SpMV of a float PCG, and its solve from x = 0. The preconditioner
// (z = M^-1 r) is the caller's, on r() and z().
class Pcg {
 public:
  Pcg(cusparseHandle_t sparse, const linalg::Csr& A, const std::vector<float>& b)
      : m_n(A.rows), m_len(cublasLength(A.rows)), m_A(A), m_b(b), m_x(m_n), m_r(m_n), m_z(m_n), m_p(m_n),
        m_q(m_n), m_scalars(7), m_vr(m_r.get(), m_n), m_vz(m_z.get(), m_n), m_vp(m_p.get(), m_n),
        m_vq(m_q.get(), m_n), m_product(sparse, m_A, m_vp, m_vq, 1.0f, 0.0f) {}

  std::size_t size() const { return m_n; }
  const DeviceCsr& A() const { return m_A; }
  float* r() const { return m_r.get(); }
  float* z() const { return m_z.get(); }
  const DenseVec& rVec() const { return m_vr; }
  const DenseVec& zVec() const { return m_vz; }
  DeviceArray<float>& x() { return m_x; }

  /// x = M^-1 b approximately: PCG from x = 0 until the recurrence residual ||r|| <=
  /// tolerance ||b|| (||r|| read back every checkEvery iterations) or maxIterations.
  /// iterations: the iterations run.
  void solve(cublasHandle_t blas, const std::function<void()>& precondition, double tolerance, int maxIterations,
             int checkEvery, int& iterations) {
    float* rz = m_scalars.get();  // r.z of the current iterate
    float* rzNew = rz + 1;
    float* pq = rz + 2;
    float* alpha = rz + 3;
    float* negAlpha = rz + 4;
    float* beta = rz + 5;
    float* norm = rz + 6;  // ||b||, then ||r||^2 at each check
    TS_CUDA(cudaMemsetAsync(m_x.get(), 0, m_n * sizeof(float)));
    TS_CUDA(cudaMemcpyAsync(m_r.get(), m_b.get(), m_n * sizeof(float), cudaMemcpyDeviceToDevice));  // r = b - A 0
    TS_CUBLAS(cublasSnrm2(blas, m_len, m_b.get(), 1, norm));
    float host = 0.0f;
    TS_CUDA(cudaMemcpy(&host, norm, sizeof(float), cudaMemcpyDeviceToHost));
    const double stop = tolerance * double(host);
    iterations = 0;
    if (double(host) <= stop) return;
    precondition();
    TS_CUDA(cudaMemcpyAsync(m_p.get(), m_z.get(), m_n * sizeof(float), cudaMemcpyDeviceToDevice));
    TS_CUBLAS(cublasSdot(blas, m_len, m_r.get(), 1, m_z.get(), 1, rz));
    for (;;) {
      m_product.run();  // q = A p
      TS_CUBLAS(cublasSdot(blas, m_len, m_p.get(), 1, m_q.get(), 1, pq));
      cgAlpha<float><<<1, 1>>>(rz, pq, alpha, negAlpha);
      TS_CUBLAS(cublasSaxpy(blas, m_len, alpha, m_p.get(), 1, m_x.get(), 1));
      TS_CUBLAS(cublasSaxpy(blas, m_len, negAlpha, m_q.get(), 1, m_r.get(), 1));
      ++iterations;
      if (iterations % checkEvery == 0) {
        TS_CUBLAS(cublasSdot(blas, m_len, m_r.get(), 1, m_r.get(), 1, norm));
        TS_CUDA(cudaMemcpy(&host, norm, sizeof(float), cudaMemcpyDeviceToHost));
        if (std::sqrt(double(host)) <= stop) return;
      }
      if (iterations == maxIterations) return;
      precondition();
      TS_CUBLAS(cublasSdot(blas, m_len, m_r.get(), 1, m_z.get(), 1, rzNew));
      cgBeta<float><<<1, 1>>>(rz, rzNew, beta);
      xpay<float><<<blocksFor(m_n), 256>>>(m_z.get(), beta, m_p.get(), std::int64_t(m_n));  // p = z + beta p
    }
  }

 private:
  std::size_t m_n;
  int m_len;
  DeviceCsr m_A;
  DeviceArray<float> m_b, m_x, m_r, m_z, m_p, m_q, m_scalars;
  DenseVec m_vr, m_vz, m_vp, m_vq;
  SpMV m_product;
};

// Times Pcg::solve per solve (the set-up is the caller's); x and iterations are of the last
// timed solve (each starts from x = 0, so nothing of an earlier one survives in them).
Timing timePcg(cublasHandle_t blas, Pcg& pcg, const std::function<void()>& precondition, double tolerance,
               int maxIterations, int checkEvery, std::vector<float>& x, int& iterations, const TimingSpec& spec) {
  const Timing t = timeCuda(
      [&] { pcg.solve(blas, precondition, tolerance, maxIterations, checkEvery, iterations); }, spec);
  x = pcg.x().download();
  return t;
}

// A lower or upper triangle of device CSR arrays (not owned) for cusparseSpSV.
class Triangle {
 public:
  Triangle(std::size_t n, std::size_t nonZeros, std::int32_t* rowPtr, std::int32_t* colIdx, float* values,
           cusparseFillMode_t fill) {
    TS_CUSPARSE(cusparseCreateCsr(&m_descr, std::int64_t(n), std::int64_t(n), std::int64_t(nonZeros), rowPtr, colIdx,
                                  values, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                  CUDA_R_32F));
    cusparseDiagType_t diagonal = CUSPARSE_DIAG_TYPE_NON_UNIT;
    TS_CUSPARSE(cusparseSpMatSetAttribute(m_descr, CUSPARSE_SPMAT_FILL_MODE, &fill, sizeof(fill)));
    TS_CUSPARSE(cusparseSpMatSetAttribute(m_descr, CUSPARSE_SPMAT_DIAG_TYPE, &diagonal, sizeof(diagonal)));
  }
  ~Triangle() { cusparseDestroySpMat(m_descr); }
  Triangle(const Triangle&) = delete;
  Triangle& operator=(const Triangle&) = delete;
  cusparseSpMatDescr_t descr() const { return m_descr; }

 private:
  cusparseSpMatDescr_t m_descr = nullptr;
};

// y = T^-1 x (cusparseSpSV), analysed once; its buffer lives as long as the descriptor.
class TriangularSolve {
 public:
  TriangularSolve(cusparseHandle_t h, const Triangle& T, const DenseVec& x, const DenseVec& y)
      : m_handle(h), m_T(T.descr()), m_x(x.descr()), m_y(y.descr()) {
    TS_CUSPARSE(cusparseSpSV_createDescr(&m_descr));
    std::size_t bytes = 0;
    TS_CUSPARSE(cusparseSpSV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &m_one, m_T, m_x, m_y, CUDA_R_32F,
                                        CUSPARSE_SPSV_ALG_DEFAULT, m_descr, &bytes));
    TS_CUDA(cudaMalloc(&m_buffer, std::max<std::size_t>(bytes, 1)));
    TS_CUSPARSE(cusparseSpSV_analysis(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &m_one, m_T, m_x, m_y, CUDA_R_32F,
                                      CUSPARSE_SPSV_ALG_DEFAULT, m_descr, m_buffer));
  }
  ~TriangularSolve() {
    cusparseSpSV_destroyDescr(m_descr);
    cudaFree(m_buffer);
  }
  TriangularSolve(const TriangularSolve&) = delete;
  TriangularSolve& operator=(const TriangularSolve&) = delete;
  void run() const {
    TS_CUSPARSE(cusparseSpSV_solve(m_handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &m_one, m_T, m_x, m_y, CUDA_R_32F,
                                   CUSPARSE_SPSV_ALG_DEFAULT, m_descr));
  }

 private:
  cusparseHandle_t m_handle;
  cusparseSpMatDescr_t m_T;
  cusparseDnVecDescr_t m_x, m_y;
  const float m_one = 1.0f;
  cusparseSpSVDescr_t m_descr = nullptr;
  void* m_buffer = nullptr;
};

// A ~ L L^T by csric02 (natural order, no fill): L in the lower triangle of a copy of A's
// values on A's pattern, and L^T stored as its own CSR (the transpose of that array, by
// csr2csc) so that both triangular solves are non-transposed row solves.
struct Ic0Factor {
  DeviceArray<float> lower;
  DeviceArray<std::int32_t> upperRowPtr, upperColIdx;
  DeviceArray<float> upper;

  Ic0Factor(cusparseHandle_t h, const DeviceCsr& A, std::size_t n, std::size_t nonZeros)
      : lower(nonZeros), upperRowPtr(n + 1), upperColIdx(nonZeros), upper(nonZeros) {
    const int m = int(n), nnz = int(nonZeros);
    TS_CUDA(cudaMemcpy(lower.get(), A.values(), nonZeros * sizeof(float), cudaMemcpyDeviceToDevice));
    MatDescr descr;
    Csric02Info info;
    int bytes = 0;
    TS_CUSPARSE(cusparseScsric02_bufferSize(h, m, nnz, descr.d, lower.get(), A.rowPtr(), A.colIdx(), info.i, &bytes));
    DeviceArray<char> buffer(std::size_t(std::max(bytes, 1)));
    TS_CUSPARSE(cusparseScsric02_analysis(h, m, nnz, descr.d, lower.get(), A.rowPtr(), A.colIdx(), info.i,
                                          CUSPARSE_SOLVE_POLICY_USE_LEVEL, buffer.get()));
    requireNoZeroPivot(h, info.i, "a structural zero (no diagonal entry)");
    TS_CUSPARSE(cusparseScsric02(h, m, nnz, descr.d, lower.get(), A.rowPtr(), A.colIdx(), info.i,
                                 CUSPARSE_SOLVE_POLICY_USE_LEVEL, buffer.get()));
    requireNoZeroPivot(h, info.i, "a zero pivot");

    std::size_t transposeBytes = 0;
    TS_CUSPARSE(cusparseCsr2cscEx2_bufferSize(h, m, m, nnz, lower.get(), A.rowPtr(), A.colIdx(), upper.get(),
                                              upperRowPtr.get(), upperColIdx.get(), CUDA_R_32F,
                                              CUSPARSE_ACTION_NUMERIC, CUSPARSE_INDEX_BASE_ZERO,
                                              CUSPARSE_CSR2CSC_ALG1, &transposeBytes));
    DeviceArray<char> transposeBuffer(std::max<std::size_t>(transposeBytes, 1));
    TS_CUSPARSE(cusparseCsr2cscEx2(h, m, m, nnz, lower.get(), A.rowPtr(), A.colIdx(), upper.get(), upperRowPtr.get(),
                                   upperColIdx.get(), CUDA_R_32F, CUSPARSE_ACTION_NUMERIC, CUSPARSE_INDEX_BASE_ZERO,
                                   CUSPARSE_CSR2CSC_ALG1, transposeBuffer.get()));
    // The buffers are freed on return: the work that uses them is finished first.
    TS_CUDA(cudaDeviceSynchronize());
  }

 private:
  // The legacy descriptor csric02 takes: general, zero-based.
  struct MatDescr {
    cusparseMatDescr_t d = nullptr;
    MatDescr() {
      TS_CUSPARSE(cusparseCreateMatDescr(&d));
      TS_CUSPARSE(cusparseSetMatType(d, CUSPARSE_MATRIX_TYPE_GENERAL));
      TS_CUSPARSE(cusparseSetMatIndexBase(d, CUSPARSE_INDEX_BASE_ZERO));
    }
    ~MatDescr() { cusparseDestroyMatDescr(d); }
    MatDescr(const MatDescr&) = delete;
    MatDescr& operator=(const MatDescr&) = delete;
  };
  struct Csric02Info {
    csric02Info_t i = nullptr;
    Csric02Info() { TS_CUSPARSE(cusparseCreateCsric02Info(&i)); }
    ~Csric02Info() { cusparseDestroyCsric02Info(i); }
    Csric02Info(const Csric02Info&) = delete;
    Csric02Info& operator=(const Csric02Info&) = delete;
  };
  // cusparseXcsric02_zeroPivot answers CUSPARSE_STATUS_ZERO_PIVOT with the row.
  static void requireNoZeroPivot(cusparseHandle_t h, csric02Info_t info, const char* what) {
    int row = -1;
    const cusparseStatus_t s = cusparseXcsric02_zeroPivot(h, info, &row);
    if (s == CUSPARSE_STATUS_ZERO_PIVOT)
      throw std::runtime_error("CUDA peer ic0Pcg: csric02 found " + std::string(what) + " at row " +
                               std::to_string(row));
    TS_CUSPARSE(s);
  }
};

// z = L^-T L^-1 r: the forward solve into t, the backward solve into z.
class Ic0 {
 public:
  Ic0(cusparseHandle_t h, const linalg::Csr& A, const Pcg& pcg)
      : m_factor(h, pcg.A(), A.rows, A.nonZeros()),
        m_L(A.rows, A.nonZeros(), pcg.A().rowPtr(), pcg.A().colIdx(), m_factor.lower.get(), CUSPARSE_FILL_MODE_LOWER),
        m_U(A.rows, A.nonZeros(), m_factor.upperRowPtr.get(), m_factor.upperColIdx.get(), m_factor.upper.get(),
            CUSPARSE_FILL_MODE_UPPER),
        m_t(A.rows), m_vt(m_t.get(), A.rows), m_forward(h, m_L, pcg.rVec(), m_vt),
        m_backward(h, m_U, m_vt, pcg.zVec()) {}
  void apply() const {
    m_forward.run();
    m_backward.run();
  }

 private:
  Ic0Factor m_factor;
  Triangle m_L, m_U;
  DeviceArray<float> m_t;
  DenseVec m_vt;
  TriangularSolve m_forward, m_backward;
};

}  // namespace

bool available(std::string* whyNot) {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    if (whyNot) *whyNot = e != cudaSuccess ? std::string("no CUDA device: ") + cudaGetErrorString(e) : "no CUDA device";
    return false;
  }
  return true;
}

std::string deviceName() {
  cudaDeviceProp p{};
  TS_CUDA(cudaGetDeviceProperties(&p, 0));
  int runtime = 0;
  TS_CUDA(cudaRuntimeGetVersion(&runtime));
  return std::string(p.name) + " (sm_" + std::to_string(p.major) + std::to_string(p.minor) + ", " +
         std::to_string(p.totalGlobalMem >> 30) + " GiB), CUDA runtime " + std::to_string(runtime / 1000) + "." +
         std::to_string(runtime % 1000 / 10);
}

Timing copy(const std::vector<float>& x, std::vector<float>& y, const TimingSpec& spec) {
  DeviceArray<float> dx(x), dy(x.size());
  const Timing t = timeCuda(
      [&] { TS_CUDA(cudaMemcpyAsync(dy.get(), dx.get(), x.size() * sizeof(float), cudaMemcpyDeviceToDevice)); },
      spec);
  dy.poison();
  TS_CUDA(cudaMemcpy(dy.get(), dx.get(), x.size() * sizeof(float), cudaMemcpyDeviceToDevice));
  y = dy.download();
  return t;
}

Timing scopy(const std::vector<float>& x, std::vector<float>& y, const TimingSpec& spec) {
  Blas blas;
  const int n = cublasLength(x.size());
  DeviceArray<float> dx(x), dy(x.size());
  const Timing t = timeCuda([&] { TS_CUBLAS(cublasScopy(blas.handle, n, dx.get(), 1, dy.get(), 1)); }, spec);
  dy.poison();
  TS_CUBLAS(cublasScopy(blas.handle, n, dx.get(), 1, dy.get(), 1));
  y = dy.download();
  return t;
}

Timing saxpy(float a, const std::vector<float>& x, const std::vector<float>& y, std::vector<float>& result,
             const TimingSpec& spec) {
  Blas blas;
  const int n = cublasLength(x.size());
  DeviceArray<float> dx(x), dy(y);
  const DeviceArray<float> da = DeviceArray<float>::scalar(a);
  const Timing t = timeCuda([&] { TS_CUBLAS(cublasSaxpy(blas.handle, n, da.get(), dx.get(), 1, dy.get(), 1)); }, spec);
  dy.upload(y);
  TS_CUBLAS(cublasSaxpy(blas.handle, n, da.get(), dx.get(), 1, dy.get(), 1));
  result = dy.download();
  return t;
}

Timing sdot(const std::vector<float>& x, const std::vector<float>& y, double& result, const TimingSpec& spec) {
  Blas blas;
  const int n = cublasLength(x.size());
  DeviceArray<float> dx(x), dy(y), out(1);
  const Timing t = timeCuda([&] { TS_CUBLAS(cublasSdot(blas.handle, n, dx.get(), 1, dy.get(), 1, out.get())); }, spec);
  out.poison();
  TS_CUBLAS(cublasSdot(blas.handle, n, dx.get(), 1, dy.get(), 1, out.get()));
  result = out.download()[0];
  return t;
}

Timing snrm2(const std::vector<float>& x, double& result, const TimingSpec& spec) {
  Blas blas;
  const int n = cublasLength(x.size());
  DeviceArray<float> dx(x), out(1);
  const Timing t = timeCuda([&] { TS_CUBLAS(cublasSnrm2(blas.handle, n, dx.get(), 1, out.get())); }, spec);
  out.poison();
  TS_CUBLAS(cublasSnrm2(blas.handle, n, dx.get(), 1, out.get()));
  result = out.download()[0];
  return t;
}

Timing spmv(const linalg::Csr& A, const std::vector<float>& x, std::vector<float>& y, const TimingSpec& spec) {
  Sparse sparse;
  DeviceCsr dA(A);
  DeviceArray<float> dx(x), dy(A.rows);
  DenseVec vx(dx.get(), x.size()), vy(dy.get(), A.rows);
  SpMV product(sparse.handle, dA, vx, vy, 1.0f, 0.0f);
  const Timing t = timeCuda([&] { product.run(); }, spec);
  dy.poison();
  product.run();
  y = dy.download();
  return t;
}

Timing sgemv(std::size_t rows, std::size_t cols, const std::vector<float>& rowMajor, const std::vector<float>& x,
             std::vector<float>& y, const TimingSpec& spec) {
  Blas blas;
  DeviceArray<float> dA(rowMajor), dx(x), dy(rows);
  const DeviceArray<float> dOne = DeviceArray<float>::scalar(1.0f), dZero = DeviceArray<float>::scalar(0.0f);
  const int m = cublasLength(rows), n = cublasLength(cols);
  auto run = [&] {
    // Row-major rows x cols is column-major cols x rows: y = (that)^T x.
    TS_CUBLAS(cublasSgemv(blas.handle, CUBLAS_OP_T, n, m, dOne.get(), dA.get(), n, dx.get(), 1, dZero.get(), dy.get(), 1));
  };
  const Timing t = timeCuda(run, spec);
  dy.poison();
  run();
  y = dy.download();
  return t;
}

Timing cg(const linalg::Csr& A, const std::vector<float>& b, int iterations, std::vector<float>& x,
          const TimingSpec& spec) {
  if (iterations < 1) throw std::invalid_argument("CUDA peer cg: iterations must be >= 1");
  Blas blas;
  Sparse sparse;
  const std::size_t n = A.rows;
  const int len = cublasLength(n);
  DeviceCsr dA(A);
  DeviceArray<float> db(b), dx(n), dr(n), dp(n), dq(n), scalars(6);
  float* rho = scalars.get();
  float* rhoNew = rho + 1;
  float* pq = rho + 2;
  float* alpha = rho + 3;
  float* negAlpha = rho + 4;
  float* beta = rho + 5;
  DenseVec vx(dx.get(), n), vr(dr.get(), n), vp(dp.get(), n), vq(dq.get(), n);
  SpMV residual(sparse.handle, dA, vx, vr, -1.0f, 1.0f);  // r = b - A x (r holds b)
  SpMV product(sparse.handle, dA, vp, vq, 1.0f, 0.0f);    // q = A p
  const unsigned blocks = unsigned((n + 255) / 256);

  auto solve = [&] {
    TS_CUDA(cudaMemsetAsync(dx.get(), 0, n * sizeof(float)));
    TS_CUDA(cudaMemcpyAsync(dr.get(), db.get(), n * sizeof(float), cudaMemcpyDeviceToDevice));
    residual.run();
    TS_CUDA(cudaMemcpyAsync(dp.get(), dr.get(), n * sizeof(float), cudaMemcpyDeviceToDevice));
    TS_CUBLAS(cublasSdot(blas.handle, len, dr.get(), 1, dr.get(), 1, rho));
    for (int k = 0; k < iterations; ++k) {
      product.run();
      TS_CUBLAS(cublasSdot(blas.handle, len, dp.get(), 1, dq.get(), 1, pq));
      cgAlpha<float><<<1, 1>>>(rho, pq, alpha, negAlpha);
      TS_CUBLAS(cublasSaxpy(blas.handle, len, alpha, dp.get(), 1, dx.get(), 1));
      TS_CUBLAS(cublasSaxpy(blas.handle, len, negAlpha, dq.get(), 1, dr.get(), 1));
      TS_CUBLAS(cublasSdot(blas.handle, len, dr.get(), 1, dr.get(), 1, rhoNew));
      cgBeta<float><<<1, 1>>>(rho, rhoNew, beta);
      xpay<float><<<blocks, 256>>>(dr.get(), beta, dp.get(), std::int64_t(n));
    }
    // ||r||^2 read back once per solve, as texstream's CG reads its check texel: a solve
    // that never reads its residual cannot tell its caller anything.
    float rr = 0.0f;
    TS_CUDA(cudaMemcpy(&rr, rhoNew, sizeof(float), cudaMemcpyDeviceToHost));
  };
  Timing t = timeCuda(solve, spec);
  t.ms /= iterations;
  t.wallMs /= iterations;
  dx.poison();
  solve();
  x = dx.download();
  return t;
}

Timing cgDouble(const linalg::Csr& A, const std::vector<double>& b, double tolerance, int maxIterations,
                int checkEvery, std::vector<double>& x, int& iterations, const TimingSpec& spec) {
  if (maxIterations < 1 || checkEvery < 1)
    throw std::invalid_argument("CUDA peer cgDouble: maxIterations and checkEvery must be >= 1");
  Blas blas;
  Sparse sparse;
  const std::size_t n = A.rows;
  const int len = cublasLength(n);
  DeviceCsrT<double> dA(A);
  DeviceArray<double> db(b), dx(n), dr(n), dp(n), dq(n), scalars(7);
  double* rho = scalars.get();
  double* rhoNew = rho + 1;
  double* pq = rho + 2;
  double* alpha = rho + 3;
  double* negAlpha = rho + 4;
  double* beta = rho + 5;
  double* bNorm = rho + 6;
  DenseVecT<double> vx(dx.get(), n), vr(dr.get(), n), vp(dp.get(), n), vq(dq.get(), n);
  SpMVT<double> residual(sparse.handle, dA, vx, vr, -1.0, 1.0);  // r = b - A x (r holds b)
  SpMVT<double> product(sparse.handle, dA, vp, vq, 1.0, 0.0);    // q = A p
  const unsigned blocks = unsigned((n + 255) / 256);

  auto solve = [&] {
    TS_CUDA(cudaMemsetAsync(dx.get(), 0, n * sizeof(double)));
    TS_CUDA(cudaMemcpyAsync(dr.get(), db.get(), n * sizeof(double), cudaMemcpyDeviceToDevice));
    residual.run();
    TS_CUDA(cudaMemcpyAsync(dp.get(), dr.get(), n * sizeof(double), cudaMemcpyDeviceToDevice));
    TS_CUBLAS(cublasDdot(blas.handle, len, dr.get(), 1, dr.get(), 1, rho));
    TS_CUBLAS(cublasDnrm2(blas.handle, len, db.get(), 1, bNorm));
    double host[2] = {0, 0};  // rho, ||b||
    TS_CUDA(cudaMemcpy(&host[0], rho, sizeof(double), cudaMemcpyDeviceToHost));
    TS_CUDA(cudaMemcpy(&host[1], bNorm, sizeof(double), cudaMemcpyDeviceToHost));
    const double stop = tolerance * host[1];
    iterations = 0;
    if (std::sqrt(host[0]) <= stop) return;
    while (iterations < maxIterations) {
      product.run();
      TS_CUBLAS(cublasDdot(blas.handle, len, dp.get(), 1, dq.get(), 1, pq));
      cgAlpha<double><<<1, 1>>>(rho, pq, alpha, negAlpha);
      TS_CUBLAS(cublasDaxpy(blas.handle, len, alpha, dp.get(), 1, dx.get(), 1));
      TS_CUBLAS(cublasDaxpy(blas.handle, len, negAlpha, dq.get(), 1, dr.get(), 1));
      TS_CUBLAS(cublasDdot(blas.handle, len, dr.get(), 1, dr.get(), 1, rhoNew));
      cgBeta<double><<<1, 1>>>(rho, rhoNew, beta);
      xpay<double><<<blocks, 256>>>(dr.get(), beta, dp.get(), std::int64_t(n));
      ++iterations;
      if (iterations % checkEvery == 0 || iterations == maxIterations) {
        double r2 = 0;
        TS_CUDA(cudaMemcpy(&r2, rho, sizeof(double), cudaMemcpyDeviceToHost));
        if (std::sqrt(r2) <= stop) return;
      }
    }
  };
  Timing t = timeCuda(solve, spec);
  dx.poison();
  solve();
  x = dx.download();
  return t;
}

Timing jacobiPcg(const linalg::Csr& A, const std::vector<float>& b, double tolerance, int maxIterations,
                 int checkEvery, std::vector<float>& x, int& iterations, double& setupMs, const TimingSpec& spec) {
  requirePcgInput(A, b.size(), maxIterations, checkEvery, /*sortedColumns=*/false, "jacobiPcg");
  Blas blas;
  Sparse sparse;
  TS_CUDA(cudaDeviceSynchronize());
  const auto start = std::chrono::steady_clock::now();
  Pcg pcg(sparse.handle, A, b);
  const std::size_t n = pcg.size();
  DeviceArray<float> dInverse(n);
  inverseDiagonal<<<blocksFor(n), 256>>>(pcg.A().rowPtr(), pcg.A().colIdx(), pcg.A().values(), dInverse.get(),
                                          std::int64_t(n));
  TS_CUDA(cudaGetLastError());
  TS_CUDA(cudaDeviceSynchronize());
  setupMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  auto precondition = [&] {
    multiplyElementwise<<<blocksFor(n), 256>>>(dInverse.get(), pcg.r(), pcg.z(), std::int64_t(n));
  };
  return timePcg(blas.handle, pcg, precondition, tolerance, maxIterations, checkEvery, x, iterations, spec);
}

// IC(0) by cuSPARSE's csric02 (still in cusparse.h, though marked deprecated), on the device
// in float: no CPU factorization.
Timing ic0Pcg(const linalg::Csr& A, const std::vector<float>& b, double tolerance, int maxIterations,
              int checkEvery, std::vector<float>& x, int& iterations, double& setupMs, const TimingSpec& spec) {
  requirePcgInput(A, b.size(), maxIterations, checkEvery, /*sortedColumns=*/true, "ic0Pcg");
  Blas blas;
  Sparse sparse;
  TS_CUDA(cudaDeviceSynchronize());
  const auto start = std::chrono::steady_clock::now();
  Pcg pcg(sparse.handle, A, b);
  const Ic0 ic0(sparse.handle, A, pcg);
  TS_CUDA(cudaDeviceSynchronize());
  setupMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return timePcg(blas.handle, pcg, [&] { ic0.apply(); }, tolerance, maxIterations, checkEvery, x, iterations, spec);
}

}  // namespace texstream::bench::cuda
