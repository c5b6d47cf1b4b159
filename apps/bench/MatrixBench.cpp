// Matrix-vector products, one case per matrix class of linalg/ (Krüger & Westermann
// §44.2.2-44.2.3): the 2D 5-point and 3D 7-point Poisson stencils (Frantic Films' 3D
// Laplacian), a banded matrix, a dense matrix and a point matrix. Each texstream row is
// checked against the double product of the same matrix as a linalg::Csr, and that CSR
// is what cuSPARSE (and Eigen) multiply as peers: the same matrix, the same x.
// gbps uses each storage's own traffic (LinearOperator::bytesPerApply for texstream, CSR
// arrays + x + y for the peers), so compare times through peer_speedup.
#include "BenchCase.h"
#include "CudaPeers.h"
#include "Reference.h"
#include "SpmvPeers.h"
#include "Traffic.h"

#include <texstream/linalg/BandedMatrix.h>
#include <texstream/linalg/Csr.h>
#include <texstream/linalg/DenseMatrix.h>
#include <texstream/linalg/PointMatrix.h>
#include <texstream/linalg/StencilMatrix.h>
#include <texstream/stream/Vector.h>

#include <algorithm>
#include <random>
#include <vector>

namespace texstream::bench {

namespace {

using stream::Backend;
using stream::Vector;

constexpr double kSpmvTolerance = 1e-5;   // a handful of products per row
constexpr double kDenseTolerance = 1e-4;  // thousands of products per row

struct ProductCase {
  std::string op;                     ///< "spmv.stencil2d"
  const linalg::LinearOperator* A;    ///< texstream's matrix
  double bytesWritten;                ///< by one apply()
  double tolerance;
  std::string note;
};

/// Times y = A x on every backend and checks a poisoned-output run against `reference`.
void measureProduct(BenchContext& ctx, const ProductCase& c, const std::vector<float>& xs,
                    const std::vector<double>& reference, const std::vector<std::string>& peers) {
  Vector x(c.A->cols(), "bench." + c.op + ".x"), y(c.A->rows(), "bench." + c.op + ".y");
  x.upload(xs);
  const std::vector<float> poisoned(c.A->rows(), poison());
  for (Backend b : ctx.backends) {
    stream::BackendScope scope(b);
    const Timing t = timeGl([&] { c.A->apply(x, y); }, ctx.timing);
    Row row = makeRow(c.op, stream::backendName(b), c.A->rows(), t, c.A->bytesPerApply(), c.bytesWritten,
                      c.A->flopsPerApply());
    y.upload(poisoned);
    c.A->apply(x, y);
    row.maxRelErr = maxRelativeError(y.download(), reference);
    row.tolerance = c.tolerance;
    row.peerCandidates = peers;
    row.note = c.note;
    ctx.add(std::move(row));
  }
}

void stencilCase(BenchContext& ctx, const std::string& name, const linalg::StencilMatrix& A, const linalg::Csr& csr,
                 std::uint64_t seed) {
  const std::vector<float> xs = randomFloats(A.cols(), seed);
  const std::vector<double> reference = csr.multiply(toDouble(xs));
  const ProductCase c{"spmv." + name, &A, texelBytes(A.rows()), kSpmvTolerance,
                      std::to_string(A.banded().offsets().size()) + " stored diagonals"};
  measureProduct(ctx, c, xs, reference, sparsePeerNames(name));
  sparsePeers(ctx, name, csr, xs, reference, kSpmvTolerance);
}

}  // namespace

void runStencil2D(BenchContext& ctx) {
  const std::size_t g = ctx.sizes.grid2d;
  ctx.progress("stencil2d: " + std::to_string(g) + "^2 grid");
  const linalg::StencilMatrix A = linalg::StencilMatrix::poisson2D(g, g, "bench.poisson2d");
  stencilCase(ctx, "stencil2d", A, linalg::Csr::poisson2D(g, g), 301);
}

void runStencil3D(BenchContext& ctx) {
  const std::size_t g = ctx.sizes.grid3d;
  ctx.progress("stencil3d: " + std::to_string(g) + "^3 grid");
  const linalg::StencilMatrix A = linalg::StencilMatrix::poisson3D(g, g, g, "bench.poisson3d");
  stencilCase(ctx, "stencil3d", A, linalg::Csr::poisson3D(g, g, g), 311);
}

void runBanded(BenchContext& ctx) {
  const std::size_t n = ctx.sizes.banded;
  // Nine diagonals, near and far, most of them not multiples of 4 (unaligned shifts of x).
  std::vector<int> offsets = {-513, -64, -3, -1, 0, 1, 3, 64, 513};
  offsets.erase(std::remove_if(offsets.begin(), offsets.end(),
                               [&](int o) { return std::size_t(std::abs(o)) >= n; }),
                offsets.end());
  std::vector<std::vector<float>> diagonals;
  for (std::size_t k = 0; k < offsets.size(); ++k) diagonals.push_back(randomFloats(n, 320 + k));
  // The same matrix as CSR: A(i, i + offset) = diagonal[i], columns in increasing order.
  linalg::Csr csr;
  csr.rows = csr.cols = n;
  csr.rowPtr.reserve(n + 1);
  csr.rowPtr.push_back(0);
  csr.colIdx.reserve(n * offsets.size());
  csr.values.reserve(n * offsets.size());
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t k = 0; k < offsets.size(); ++k) {
      const long long j = (long long)i + offsets[k];
      if (j < 0 || j >= (long long)n) continue;
      csr.colIdx.push_back(std::int32_t(j));
      csr.values.push_back(diagonals[k][i]);
    }
    csr.rowPtr.push_back(std::int64_t(csr.values.size()));
  }
  const linalg::BandedMatrix A(n, offsets, diagonals, "bench.banded");
  diagonals.clear();
  const std::vector<float> xs = randomFloats(n, 329);
  const std::vector<double> reference = csr.multiply(toDouble(xs));
  const ProductCase c{"spmv.banded", &A, texelBytes(n), kSpmvTolerance,
                      std::to_string(offsets.size()) + " diagonals, offsets up to 513"};
  measureProduct(ctx, c, xs, reference, sparsePeerNames("banded"));
  sparsePeers(ctx, "banded", csr, xs, reference, kSpmvTolerance);
}

void runDense(BenchContext& ctx) {
  const std::size_t n = ctx.sizes.dense;
  const std::vector<float> a = randomFloats(n * n, 331), xs = randomFloats(n, 332);
  std::vector<double> reference(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    double s = 0;
    for (std::size_t j = 0; j < n; ++j) s += double(a[i * n + j]) * xs[j];
    reference[i] = s;
  }
  const linalg::DenseMatrix A(n, n, a, "bench.dense");
  const ProductCase c{"mv.dense", &A, A.bytesWrittenPerApply(), kDenseTolerance,
                      std::to_string(A.batches()) + " batches of " +
                          std::to_string(linalg::DenseMatrix::kColumnsPerBatch) + " columns, " +
                          std::to_string(A.passesPerApply()) + " passes"};
  measureProduct(ctx, c, xs, reference, {"peer.cublas_sgemv"});
#ifdef TEXSTREAM_BENCH_CUDA
  if (ctx.cudaPeers) {
    std::vector<float> y;
    Row row = makeRow("peer.cublas_sgemv", "cuda", n, cuda::sgemv(n, n, a, xs, y, ctx.timing),
                      4.0 * double(n) * double(n) + 8.0 * double(n), 4.0 * double(n), 2.0 * double(n) * double(n));
    row.maxRelErr = maxRelativeError(y, reference);
    row.tolerance = kDenseTolerance;
    ctx.add(std::move(row));
  }
#endif
}

void runPoint(BenchContext& ctx) {
  const std::size_t n = ctx.sizes.point;
  const int perRow = std::min<int>(ctx.sizes.pointPerRow, int(n));
  // A random sparse pattern (K&W §44.2.3): perRow distinct random columns in every row.
  linalg::Csr csr;
  csr.rows = csr.cols = n;
  csr.rowPtr.reserve(n + 1);
  csr.rowPtr.push_back(0);
  std::mt19937_64 rng(0x9017);
  std::uniform_int_distribution<std::int32_t> column(0, std::int32_t(n - 1));
  const std::vector<float> values = randomFloats(n * std::size_t(perRow), 341);
  std::vector<std::int32_t> cols;
  for (std::size_t i = 0; i < n; ++i) {
    cols.clear();
    while (int(cols.size()) < perRow) {
      const std::int32_t c = column(rng);
      if (std::find(cols.begin(), cols.end(), c) == cols.end()) cols.push_back(c);
    }
    std::sort(cols.begin(), cols.end());
    for (std::int32_t c : cols) {
      csr.colIdx.push_back(c);
      csr.values.push_back(values[csr.values.size()]);
    }
    csr.rowPtr.push_back(std::int64_t(csr.values.size()));
  }
  const linalg::PointMatrix A = linalg::PointMatrix::fromCsr(csr, "bench.point");
  const std::vector<float> xs = randomFloats(n, 342);
  const std::vector<double> reference = csr.multiply(toDouble(xs));
  // Every vertex's fragment reads and writes one texel (blending), after a clear of y.
  const ProductCase c{"spmv.point", &A, 16.0 * double(A.nonZeros()) + texelBytes(n), kSpmvTolerance,
                      std::to_string(perRow) + " random non-zeros per row; raster scatter on either backend"};
  measureProduct(ctx, c, xs, reference, sparsePeerNames("point"));
  sparsePeers(ctx, "point", csr, xs, reference, kSpmvTolerance);
}

}  // namespace texstream::bench
