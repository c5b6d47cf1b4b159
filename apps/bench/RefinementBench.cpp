// Mixed-precision iterative refinement (solvers/krylov/MixedPrecisionRefinement.h; Göddeke,
// Strzodka & Turek 2007, §3) against float CG: time to a true relative residual
// ||b - A x|| / ||b|| of 1e-6 and of 1e-10, on the 3D 7-point Poisson system (Frantic
// Films' 100^3 in --full) and the curvature-flow system of a noisy icosphere (1M vertices
// in --full; SparseRows.h's curvatureMatrix, λΔt = 1e-3, entries rounded to float: the
// matrix the GPU holds, and the one every residual and peer uses).
// Rows, per backend:
//  - solve_1e-6.single.<tag>: texstream's CG in float (its drift check included);
//    solve_1e-6.single_async.<tag>: the same with asynchronous checks (no read-back stalls);
//  - solve_1e-6.mixed.<tag>, solve_1e-10.mixed.<tag>: refine() around float CG inner solves
//    (each asking for a 1e-3 reduction, RefinementOptions' default), x and b as double-float
//    pairs, the defect b - A x in double-float arithmetic on the GPU;
//    solve_1e-10.mixed_inner1e-5.<tag>: the same with inner solves asking for 1e-5;
//  - solve_1e-6.mixed_cg.<tag>, solve_1e-10.mixed_cg.<tag>: cg in mixed precision (reliable
//    updates: one float CG whose residual is replaced by the double-float defect each time
//    it falls by 1e-2, the search direction kept) with its default, asynchronous checks;
//    solve_1e-10.mixed_cg_blocking.<tag> with blocking checks;
//  - solve_1e-10.double_float_cg.<tag> (operators with double-float products: the mesh
//    system's segment matrix): doubleFloatCg (solvers/krylov/DoubleFloatCg.h), every vector,
//    product and dot product in pairs of floats, no float phase.
// Float CG alone does not reach 1e-10 (it stalls near 1e-7); the 1e-10 row's note says
// where one float CG run asked for 1e-10 stopped.
// Each row's max_rel_err is the true relative residual of its solution, computed in double
// on the CPU after the timing; its tolerance is the target (x 1.05 for float CG, which
// stops on its recurrence residual and accepts up to twice the target on the true one).
// Double-precision peers on the same matrix and right-hand side, same targets:
//  - peer.cusparse_dcg_<target>.<tag>: cuSPARSE + cuBLAS CG in double, scalars on the
//    device, the residual read every 8 iterations;
//  - peer.eigen_dcg_<target>.<tag>: Eigen ConjugateGradient in double, one thread.
#include "BenchCase.h"
#include "CudaPeers.h"
#include "EigenPeers.h"
#include "Reference.h"
#include "SparseRows.h"

#include <glad/gl.h>

#include <texstream/geometry/ProceduralMeshes.h>
#include <texstream/linalg/Csr.h>
#include <texstream/linalg/DoubleFloatVector.h>
#include <texstream/linalg/SegmentMatrix.h>
#include <texstream/linalg/StencilMatrix.h>
#include <texstream/solvers/krylov/ConjugateGradient.h>
#include <texstream/solvers/krylov/DoubleFloatCg.h>
#include <texstream/solvers/krylov/MixedPrecisionCg.h>
#include <texstream/solvers/krylov/MixedPrecisionRefinement.h>
#include <texstream/stream/Profiler.h>
#include <texstream/stream/Runtime.h>
#include <texstream/stream/Vector.h>
#include <texstream/text/Format.h>

#include <Eigen/IterativeLinearSolvers>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace texstream::bench {

namespace {

constexpr int kMaxIterations = 20000;

std::string targetName(double target) { return target == 1e-6 ? "1e-6" : "1e-10"; }

/// ||b - A x|| / ||b|| in double.
double trueResidual(const linalg::Csr& A, const std::vector<double>& b, const std::vector<double>& x) {
  const std::vector<double> Ax = A.multiply(x);
  double rr = 0, bb = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    rr += (b[i] - Ax[i]) * (b[i] - Ax[i]);
    bb += b[i] * b[i];
  }
  return std::sqrt(rr / std::max(bb, 1e-300));
}


linalg::Csr roundedToFloat(linalg::Csr A) {
  for (double& v : A.values) v = double(float(v));
  return A;
}

/// One system: its CSR (float entries), its GPU operator, a right-hand side.
struct RefineSystem {
  std::string tag, note;
  linalg::Csr csr;
  std::unique_ptr<linalg::LinearOperator> gpu;
  /// Whether gpu implements LinearOperator::applyInDoubleFloat (the double-float CG row).
  bool pairProducts = false;
};

void systemRows(BenchContext& ctx, const RefineSystem& s) {
  const std::size_t n = s.csr.rows;
  const std::vector<float> bf = randomFloats(n, 901);
  const std::vector<double> b = toDouble(bf);
  ctx.progress("refine." + s.tag + ": " + s.note + ", " + std::to_string(n) + " unknowns");
  TimingSpec spec = ctx.timing;
  if (n > 200000) spec.batches = std::min(spec.batches, 3);
  const linalg::LinearOperator& A = *s.gpu;

  stream::Vector bSingle(n, "bench.refine.b"), xSingle(n, "bench.refine.x");
  bSingle.upload(bf);
  linalg::DoubleFloatVector bPair(n, "bench.refine.b2"), xPair(n, "bench.refine.x2");
  bPair.upload(b);

  for (stream::Backend backend : ctx.backends) {
    stream::BackendScope scope(backend);
    const std::vector<std::string> peers6 = {"peer.cusparse_dcg_1e-6." + s.tag, "peer.eigen_dcg_1e-6." + s.tag};
    const std::vector<std::string> peers10 = {"peer.cusparse_dcg_1e-10." + s.tag, "peer.eigen_dcg_1e-10." + s.tag};
    for (const bool asynchronous : {false, true}) {
      solvers::CgOptions options;
      options.tolerance = 1e-6f;
      options.maxIterations = kMaxIterations;
      options.asynchronousCheck = asynchronous;
      solvers::SolverStatus status;
      const Timing t = timeGl(
          [&] {
            xSingle.setZero();
            status = solvers::cg(A, bSingle, xSingle, options);
          },
          spec, /*gpuTimer=*/false);
      Row row = makeRow(std::string("solve_1e-6.single") + (asynchronous ? "_async." : ".") + s.tag,
                        stream::backendName(backend), n, t, 0.0, 0.0, 0.0);
      const std::vector<float> x = xSingle.download();
      const std::string passes = passBreakdown([&] {
        xSingle.setZero();
        solvers::cg(A, bSingle, xSingle, options);
      });
      row.maxRelErr = trueResidual(s.csr, b, toDouble(x));
      row.tolerance = 1e-6 * 1.05;
      row.peerCandidates = peers6;
      row.note = s.note + "; float CG" + (asynchronous ? " (asynchronous checks)" : "") + ", " +
                 std::to_string(status.iterations) + " iterations" +
                 (status.restarts ? ", " + std::to_string(status.restarts) + " restart(s)" : "") +
                 "; max_rel_err is the true relative residual" + passes;
      ctx.add(std::move(row));
    }
    // Where float CG alone stops when asked for 1e-10 (not timed).
    std::string singleAt1e10;
    {
      solvers::CgOptions options;
      options.tolerance = 1e-10f;
      options.maxIterations = kMaxIterations;
      xSingle.setZero();
      const solvers::SolverStatus status = solvers::cg(A, bSingle, xSingle, options);
      singleAt1e10 = "float CG asked for 1e-10: " + std::to_string(status.iterations) + " iterations, true residual " +
                     text::formatNumber(trueResidual(s.csr, b, toDouble(xSingle.download()))) + " (" +
                     std::string(status.converged() ? "claims convergence" : "not converged") + ")";
    }
    struct MixedRow {
      double target, innerTolerance;
      const char* variant;
    };
    // The default inner reduction (1e-3) and one that asks float CG for about all it can
    // give (1e-5): fewer outer steps, so fewer CG restarts.
    for (const MixedRow m : {MixedRow{1e-6, 1e-3, "mixed"}, MixedRow{1e-10, 1e-3, "mixed"},
                             MixedRow{1e-10, 1e-5, "mixed_inner1e-5"}}) {
      const double target = m.target;
      solvers::IterativeOptions outer;
      outer.tolerance = float(target);
      solvers::RefinementOptions options;
      options.innerTolerance = m.innerTolerance;
      solvers::CgOptions inner;
      inner.maxIterations = kMaxIterations;
      const solvers::InnerSolve innerSolve = solvers::cgInnerSolve(A, inner);
      solvers::RefinementStatus status;
      const Timing t = timeGl(
          [&] {
            xPair.setZero();
            status = solvers::refine(A, bPair, xPair, outer, options, innerSolve);
          },
          spec, /*gpuTimer=*/false);
      Row row = makeRow("solve_" + targetName(target) + "." + m.variant + "." + s.tag, stream::backendName(backend), n,
                        t, 0.0, 0.0, 0.0);
      row.maxRelErr = trueResidual(s.csr, b, xPair.download());
      const std::string passes = passBreakdown([&] {
        xPair.setZero();
        solvers::refine(A, bPair, xPair, outer, options, innerSolve);
      });
      row.tolerance = target;
      row.peerCandidates = target == 1e-6 ? peers6 : peers10;
      std::string inners;
      for (int k : status.innerIterations) {
        if (!inners.empty()) inners += '+';
        inners += std::to_string(k);
      }
      row.note = s.note + "; refinement, inner tolerance " + text::formatNumber(m.innerTolerance) + ", " +
                 std::to_string(status.outerSteps()) + " outer steps, inner CG " +
                 inners + " = " + std::to_string(status.iterations) + " iterations" +
                 (status.converged() ? "" : ", NOT CONVERGED: " + status.message) +
                 "; max_rel_err is the true relative residual" + (target == 1e-10 ? "; " + singleAt1e10 : "") +
                 passes;
      ctx.add(std::move(row));
    }
  }

  for (stream::Backend backend : ctx.backends) {
    stream::BackendScope scope(backend);
    struct CgRow {
      double target;
      bool blocking;  // asynchronousCheck = false; else unset (the default)
    };
    for (const CgRow c : {CgRow{1e-6, false}, CgRow{1e-10, false}, CgRow{1e-10, true}}) {
      const double target = c.target;
      solvers::RefinementOptions updates;
      updates.innerTolerance = 1e-2;
      solvers::CgOptions cgOptions;
      cgOptions.tolerance = float(target);
      cgOptions.maxIterations = kMaxIterations;
      if (c.blocking) cgOptions.asynchronousCheck = false;
      solvers::RefinementStatus status;
      const Timing t = timeGl(
          [&] {
            xPair.setZero();
            status = solvers::cg(A, bPair, xPair, cgOptions, nullptr, updates);
          },
          spec, /*gpuTimer=*/false);
      Row row = makeRow("solve_" + targetName(target) + (c.blocking ? ".mixed_cg_blocking." : ".mixed_cg.") + s.tag,
                        stream::backendName(backend), n, t, 0.0, 0.0, 0.0);
      row.maxRelErr = trueResidual(s.csr, b, xPair.download());
      const std::string passes = passBreakdown([&] {
        xPair.setZero();
        solvers::cg(A, bPair, xPair, cgOptions, nullptr, updates);
      });
      row.tolerance = target;
      row.peerCandidates = {"peer.cusparse_dcg_" + targetName(target) + "." + s.tag,
                            "peer.eigen_dcg_" + targetName(target) + "." + s.tag};
      std::string inners;
      for (int k : status.innerIterations) {
        if (!inners.empty()) inners += '+';
        inners += std::to_string(k);
      }
      row.note = s.note + "; cg in mixed precision (reliable updates at 1e-2" +
                 (c.blocking ? ", blocking checks), " : ", asynchronous checks: the default), ") + std::to_string(status.iterations) +
                 " iterations (" + inners + "), " + std::to_string(status.restarts) + " restart(s)" +
                 (status.converged() ? "" : ", NOT CONVERGED: " + status.message) +
                 "; max_rel_err is the true relative residual" + passes;
      ctx.add(std::move(row));
    }
  }

  for (stream::Backend backend : s.pairProducts ? ctx.backends : std::vector<stream::Backend>{}) {
    stream::BackendScope scope(backend);
    solvers::IterativeOptions options;
    options.tolerance = 1e-10f;
    options.maxIterations = kMaxIterations;
    solvers::SolverStatus status;
    const Timing t = timeGl(
        [&] {
          xPair.setZero();
          status = solvers::doubleFloatCg(A, bPair, xPair, options);
        },
        spec, /*gpuTimer=*/false);
    Row row = makeRow("solve_1e-10.double_float_cg." + s.tag, stream::backendName(backend), n, t, 0.0, 0.0, 0.0);
    row.maxRelErr = trueResidual(s.csr, b, xPair.download());
    const std::string passes = passBreakdown([&] {
      xPair.setZero();
      solvers::doubleFloatCg(A, bPair, xPair, options);
    });
    row.tolerance = 1e-10;
    row.peerCandidates = {"peer.cusparse_dcg_1e-10." + s.tag, "peer.eigen_dcg_1e-10." + s.tag};
    row.note = s.note + "; doubleFloatCg (vectors, products and dots in pairs of floats), " +
               std::to_string(status.iterations) + " iterations" +
               (status.converged() ? "" : ", NOT CONVERGED: " + status.message) +
               "; max_rel_err is the true relative residual" + passes;
    ctx.add(std::move(row));
  }

  for (const double target : {1e-6, 1e-10}) {
    std::vector<double> x;
    int iterations = 0;
#ifdef TEXSTREAM_BENCH_CUDA
    if (ctx.cudaPeers) {
      const Timing t = cuda::cgDouble(s.csr, b, target, kMaxIterations, 8, x, iterations, spec);
      Row row = makeRow("peer.cusparse_dcg_" + targetName(target) + "." + s.tag, "cuda", n, t, 0.0, 0.0, 0.0);
      row.maxRelErr = trueResidual(s.csr, b, x);
      row.tolerance = target * 1.05;
      row.note = s.note + "; CG in double, " + std::to_string(iterations) +
                 " iterations, residual read every 8, set-up included";
      ctx.add(std::move(row));
    }
#endif
    if (ctx.cpuPeers) {
      const auto M = eigen::toEigen<double>(s.csr);
      const Eigen::Map<const Eigen::VectorXd> be(b.data(), Eigen::Index(n));
      Eigen::VectorXd xe;
      TimingSpec cpu = cpuSpec(spec);
      if (n > 200000) {
        cpu.warmup = 0;
        cpu.batches = 1;
      }
      const Timing t = timeCpu(
          [&] {
            Eigen::ConjugateGradient<Eigen::SparseMatrix<double, Eigen::RowMajor, int>, Eigen::Lower | Eigen::Upper,
                                     Eigen::IdentityPreconditioner>
                cg;
            cg.setTolerance(target);
            cg.setMaxIterations(kMaxIterations);
            cg.compute(M);
            xe = cg.solve(be);
            iterations = int(cg.iterations());
          },
          cpu);
      Row row = makeRow("peer.eigen_dcg_" + targetName(target) + "." + s.tag, "cpu", n, t, 0.0, 0.0, 0.0);
      x.assign(xe.data(), xe.data() + xe.size());
      row.maxRelErr = trueResidual(s.csr, b, x);
      row.tolerance = target * 1.05;
      row.note = s.note + "; ConjugateGradient in double, no preconditioner, " + std::to_string(iterations) +
                 " iterations, 1 thread";
      ctx.add(std::move(row));
    }
  }
}

}  // namespace

void runRefine(BenchContext& ctx) {
  std::size_t grid = 16, vertices = 2000;
  if (ctx.options.preset == Preset::Default) grid = 64, vertices = 37000;
  if (ctx.options.preset == Preset::Full) grid = 100, vertices = 1000000;
  {
    RefineSystem s;
    s.tag = "poisson" + std::to_string(grid);
    s.note = "3D 7-point Poisson " + std::to_string(grid) + "^3, stencil matrix";
    s.csr = linalg::Csr::poisson3D(grid, grid, grid);
    s.gpu = std::make_unique<linalg::StencilMatrix>(
        linalg::StencilMatrix::poisson3D(grid, grid, grid, "bench.refine.poisson"));
    systemRows(ctx, s);
  }
  {
    const geometry::Mesh mesh = geometry::builtinMesh("icosphere", vertices, 0.3, 5);
    RefineSystem s;
    s.csr = roundedToFloat(curvatureMatrix(mesh, 1e-3));
    s.tag = "mesh" + std::to_string(s.csr.rows);
    s.note = "curvature flow on a noisy icosphere, lambda dt = 1e-3, segment matrix (user order)";
    s.gpu = std::make_unique<linalg::SegmentMatrix>(s.csr, "bench.refine.mesh");
    s.pairProducts = true;
    systemRows(ctx, s);
  }
}

}  // namespace texstream::bench
