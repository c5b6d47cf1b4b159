// Vector operations (Krüger & Westermann §44.3.1): copy, axpy, dot and norm on each
// backend, then cuBLAS on the same data. gbps counts the bytes an operation must move
// (the same count for texstream and its peers); gbps_written counts what texstream's
// passes write, the quantity the fragment path is bound by (GPU.md).
#include "BenchCase.h"
#include "CudaPeers.h"
#include "Reference.h"
#include "Traffic.h"

#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/stream/Scalar.h>
#include <texstream/stream/Vector.h>

#include <cmath>
#include <vector>

namespace texstream::bench {

namespace {

using stream::Backend;
using stream::Scalar;
using stream::Vector;

constexpr double kVectorTolerance = 1e-6;     // one rounding per element
constexpr double kReductionTolerance = 1e-4;  // float sums of n positive terms

std::string gpuBackend(Backend b) { return stream::backendName(b); }

}  // namespace

void runCopy(BenchContext& ctx) {
  const std::size_t n = ctx.sizes.vector;
  const std::vector<float> xs = randomFloats(n, 201);
  const std::vector<double> reference = toDouble(xs);
  Vector x(n, "bench.copy.x"), y(n, "bench.copy.y");
  x.upload(xs);
  const std::vector<float> poisoned(n, poison());
  for (Backend b : ctx.backends) {
    stream::BackendScope scope(b);
    const Timing t = timeGl([&] { linalg::copy(x, y); }, ctx.timing);
    Row row = makeRow("copy", gpuBackend(b), n, t, 8.0 * n, 4.0 * n, 0);
    y.upload(poisoned);
    linalg::copy(x, y);
    row.maxRelErr = maxRelativeError(y.download(), reference);
    row.tolerance = 0;
    row.peerCandidates = {"peer.cublas_scopy"};
    ctx.add(std::move(row));
  }
#ifdef TEXSTREAM_BENCH_CUDA
  if (ctx.cudaPeers) {
    std::vector<float> out;
    Row row = makeRow("peer.cublas_scopy", "cuda", n, cuda::scopy(xs, out, ctx.timing), 8.0 * n, 4.0 * n, 0);
    row.maxRelErr = maxRelativeError(out, reference);
    ctx.add(std::move(row));
  }
#endif
}

void runAxpy(BenchContext& ctx) {
  const std::size_t n = ctx.sizes.vector;
  const float a = 0.5f;
  const std::vector<float> xs = randomFloats(n, 211), ys = randomFloats(n, 212);
  std::vector<double> reference(n);
  for (std::size_t i = 0; i < n; ++i) reference[i] = double(a) * xs[i] + ys[i];
  Vector x(n, "bench.axpy.x"), y(n, "bench.axpy.y");
  x.upload(xs);
  for (Backend b : ctx.backends) {
    stream::BackendScope scope(b);
    y.upload(ys);
    // In place, as solvers use it: y grows by a x per repetition, never zero.
    const Timing t = timeGl([&] { linalg::axpy(a, x, y); }, ctx.timing);
    Row row = makeRow("axpy", gpuBackend(b), n, t, 12.0 * n, 4.0 * n, 2.0 * n);
    y.upload(ys);  // y is also an input: reset it (an output-only poison would be read)
    linalg::axpy(a, x, y);
    row.maxRelErr = maxRelativeError(y.download(), reference);
    row.tolerance = kVectorTolerance;
    row.peerCandidates = {"peer.cublas_saxpy"};
    ctx.add(std::move(row));
  }
#ifdef TEXSTREAM_BENCH_CUDA
  if (ctx.cudaPeers) {
    std::vector<float> out;
    Row row = makeRow("peer.cublas_saxpy", "cuda", n, cuda::saxpy(a, xs, ys, out, ctx.timing), 12.0 * n, 4.0 * n,
                      2.0 * n);
    row.maxRelErr = maxRelativeError(out, reference);
    row.tolerance = kVectorTolerance;
    ctx.add(std::move(row));
  }
#endif
}

void runDot(BenchContext& ctx) {
  const std::size_t n = ctx.sizes.vector;
  // Positive data: the reference has no cancellation, so the error bound is about log n ulps.
  const std::vector<float> xs = randomFloats(n, 221, 0.5f, 1.5f), ys = randomFloats(n, 222, 0.5f, 1.5f);
  double reference = 0;
  for (std::size_t i = 0; i < n; ++i) reference += double(xs[i]) * ys[i];
  Vector x(n, "bench.dot.x"), y(n, "bench.dot.y");
  x.upload(xs);
  y.upload(ys);
  Scalar s("bench.dot");
  for (Backend b : ctx.backends) {
    stream::BackendScope scope(b);
    const Timing t = timeGl([&] { linalg::dot(x, y, s); }, ctx.timing);
    Row row = makeRow("dot", gpuBackend(b), n, t, 8.0 * n, reductionBytesWritten(x.layout(), b), 2.0 * n);
    s.write(poison());
    linalg::dot(x, y, s);
    row.maxRelErr = relativeError(s.read(), reference);
    row.tolerance = kReductionTolerance;
    row.peerCandidates = {"peer.cublas_sdot"};
    ctx.add(std::move(row));
  }
#ifdef TEXSTREAM_BENCH_CUDA
  if (ctx.cudaPeers) {
    double got = 0;
    Row row = makeRow("peer.cublas_sdot", "cuda", n, cuda::sdot(xs, ys, got, ctx.timing), 8.0 * n, 4.0, 2.0 * n);
    row.maxRelErr = relativeError(got, reference);
    row.tolerance = kReductionTolerance;
    ctx.add(std::move(row));
  }
#endif
}

void runNorm(BenchContext& ctx) {
  const std::size_t n = ctx.sizes.vector;
  const std::vector<float> xs = randomFloats(n, 231);
  double sumSquares = 0;
  for (float v : xs) sumSquares += double(v) * v;
  const double reference = std::sqrt(sumSquares);
  Vector x(n, "bench.norm.x");
  x.upload(xs);
  Scalar s("bench.norm");
  for (Backend b : ctx.backends) {
    stream::BackendScope scope(b);
    const Timing t = timeGl([&] { linalg::norm(x, s); }, ctx.timing);
    Row row = makeRow("norm", gpuBackend(b), n, t, 4.0 * n, reductionBytesWritten(x.layout(), b), 2.0 * n);
    s.write(poison());
    linalg::norm(x, s);
    row.maxRelErr = relativeError(s.read(), reference);
    row.tolerance = kReductionTolerance;
    row.peerCandidates = {"peer.cublas_snrm2"};
    ctx.add(std::move(row));
  }
#ifdef TEXSTREAM_BENCH_CUDA
  if (ctx.cudaPeers) {
    double got = 0;
    Row row = makeRow("peer.cublas_snrm2", "cuda", n, cuda::snrm2(xs, got, ctx.timing), 4.0 * n, 4.0, 2.0 * n);
    row.maxRelErr = relativeError(got, reference);
    row.tolerance = kReductionTolerance;
    ctx.add(std::move(row));
  }
#endif
}

}  // namespace texstream::bench
