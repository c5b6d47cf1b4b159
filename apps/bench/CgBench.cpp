// One CG iteration on the 3D 7-point Poisson problem (Frantic Films' size, 100^3 unknowns,
// in --full): k iterations with tolerance 0 from x = 0, set-up included, divided by k.
// Peers on the same system and right-hand side: a cuSPARSE + cuBLAS CG with its scalars on
// the device, and Eigen's ConjugateGradient. Every iterate is checked against k
// iterations of CG in double precision.
#include "BenchCase.h"
#include "CgIterations.h"
#include "CudaPeers.h"
#include "EigenPeers.h"
#include "Reference.h"
#include "Traffic.h"

#include <texstream/linalg/Csr.h>
#include <texstream/linalg/StencilMatrix.h>
#include <texstream/solvers/krylov/ConjugateGradient.h>
#include <texstream/stream/Vector.h>

#include <vector>

namespace texstream::bench {

namespace {

// Float CG drifts from double CG by rounding that the iterations amplify a little.
constexpr double kCgTolerance = 1e-3;

/// Bytes of the vector work of one iteration, counted as the textbook algorithm needs it
/// (the same count for texstream and the peers): dot(p, q) 8n, x += alpha p 12n,
/// r -= alpha q 12n, r.r 8n, p = r + beta p 12n.
double vectorBytesPerIteration(std::size_t n) { return 52.0 * double(n); }
double vectorFlopsPerIteration(std::size_t n) { return 10.0 * double(n); }

}  // namespace

void runCg(BenchContext& ctx) {
  const std::size_t g = ctx.sizes.cgGrid, n = g * g * g;
  const int k = ctx.sizes.cgIterations;
  ctx.progress("cg: " + std::to_string(g) + "^3 unknowns, " + std::to_string(k) + " iterations per solve");
  const linalg::StencilMatrix A = linalg::StencilMatrix::poisson3D(g, g, g, "bench.cg.A");
  const linalg::Csr csr = linalg::Csr::poisson3D(g, g, g);
  const std::vector<float> bs = randomFloats(n, 401);
  const std::vector<double> reference = cgReference(csr, toDouble(bs), k);
  const std::vector<std::string> peers = {"peer.cusparse_cg_iteration", "peer.eigen_cg_iteration"};

  stream::Vector b(n, "bench.cg.b"), x(n, "bench.cg.x");
  b.upload(bs);
  const stream::Layout& layout = b.layout();

  // checkEvery = k: one residual read-back per solve, as the peers (which never check);
  // checkEvery = 8: the solver's default, what a user gets.
  for (const int checkEvery : {k, solvers::kCgDefaults.checkEvery}) {
    const std::string op = checkEvery == k ? "cg_iteration" : "cg_iteration.check" + std::to_string(checkEvery);
    for (stream::Backend backend : ctx.backends) {
      stream::BackendScope scope(backend);
      std::string breakdown;
      const Timing t = timeCgIterations(A, b, x, k, checkEvery, ctx.timing, op, &breakdown);
      // Written per iteration: q, x and r, p (one texture each) and two reductions.
      const double written = 4 * texelBytes(n) + 2 * reductionBytesWritten(layout, backend);
      Row row = makeRow(op, stream::backendName(backend), n, t, A.bytesPerApply() + vectorBytesPerIteration(n),
                        written, A.flopsPerApply() + vectorFlopsPerIteration(n));
      row.maxRelErr = maxRelativeError(x.download(), reference);
      row.tolerance = kCgTolerance;
      row.peerCandidates = peers;
      row.note = std::to_string(k) + " iterations per solve, checkEvery " + std::to_string(checkEvery) +
                 ", set-up included" + breakdown;
      ctx.add(std::move(row));
    }
  }

  std::vector<float> xs;
#ifdef TEXSTREAM_BENCH_CUDA
  if (ctx.cudaPeers) {
    Row row = makeRow("peer.cusparse_cg_iteration", "cuda", n, cuda::cg(csr, bs, k, xs, ctx.timing),
                      csrSpmvBytes(csr) + vectorBytesPerIteration(n), 16.0 * double(n),
                      2.0 * double(csr.nonZeros()) + vectorFlopsPerIteration(n));
    row.maxRelErr = maxRelativeError(xs, reference);
    row.tolerance = kCgTolerance;
    row.note = std::to_string(k) + " iterations per solve, scalars on the device, one residual read-back per solve, set-up included";
    ctx.add(std::move(row));
  }
#endif
  if (ctx.cpuPeers) {
    Row row = makeRow("peer.eigen_cg_iteration", "cpu", n, eigen::cg(csr, bs, k, xs, cpuSpec(ctx.timing)),
                      csrSpmvBytes(csr) + vectorBytesPerIteration(n), 16.0 * double(n),
                      2.0 * double(csr.nonZeros()) + vectorFlopsPerIteration(n));
    row.maxRelErr = maxRelativeError(xs, reference);
    row.tolerance = kCgTolerance;
    row.note = std::to_string(k) + " iterations per solve, " + eigen::description();
    ctx.add(std::move(row));
  }
}

}  // namespace texstream::bench
