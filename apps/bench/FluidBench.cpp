// The layered multigrid of Bolz et al. 2003, §4.2 and the stable-fluids step built on it.
//  Rows ending in .inkernel keep the layered borders in sync inside the kernels
//  (solvers/multigrid/Multigrid.h, BorderUpdate::InKernel) instead of by copy passes.
//  - multigrid.vcycle: one V(2,2) cycle on the Dirichlet Poisson problem of an n x n grid
//    (257^2, 1025^2, 4097^2 in --full), checked against the same cycle in double on the CPU;
//    the note gives the convergence factor (b = 0, random x: the asymptotic rate free of
//    the float32 floor) and the time per unknown.
//  - multigrid.solve / multigrid.jpcg_solve: the same problem solved to 1e-6 (recurrence
//    residual for both, as CG's stopping test) by multigrid V(2,2) and by the core's
//    Jacobi-preconditioned CG; max_rel_err is the true relative residual in double.
//  - fluid.step: one stable-fluids step (fluid/FluidSolver.h) at 513^2, 1024^2 (4096^2 in
//    --full), with Bolz's border copy passes and (.inkernel) with borders written by the
//    kernels: advection of the velocity, the projection with two V(4,2) cycles (Bolz
//    §4.3's setting, "about 1/20 s" at 513^2 on a GeForce FX), no dye, particles or
//    statistics; from a random velocity. max_rel_err is the face divergence after / before
//    one step, which two cycles must bring below 0.05.
#include "BenchCase.h"
#include "ProfileSteps.h"
#include "Reference.h"
#include "StatisticsStep.h"

#include <texstream/fluid/FluidSolver.h>
#include <texstream/linalg/StencilMatrix.h>
#include <texstream/solvers/krylov/ConjugateGradient.h>
#include <texstream/solvers/multigrid/GridStencil.h>
#include <texstream/solvers/stationary/JacobiPreconditioner.h>
#include <texstream/solvers/multigrid/LayeredGrid.h>
#include <texstream/solvers/multigrid/Multigrid.h>
#include <texstream/stream/Profiler.h>
#include <texstream/stream/Runtime.h>
#include <texstream/stream/Vector.h>

#include <glad/gl.h>
#include <Eigen/Dense>

#include <algorithm>
#include <map>

#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <vector>

namespace texstream::bench {

namespace {

using solvers::Boundary;
using solvers::GridBoundaries;
using solvers::GridStencil;
using solvers::Multigrid;
using solvers::MultigridOptions;

std::string fixed3(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

// ---- A CPU V-cycle in double with the GPU's rules (solvers/multigrid/Multigrid.h) ----------------

double subdivision(int fx, int fy) {
  auto s = [](int f) { return f == 0 ? 1.0 : (f == 1 || f == -1 ? 0.5 : 0.0); };
  return s(fx) * s(fy);
}

struct CpuLevel {
  int nx = 0, ny = 0;
  std::array<std::vector<double>, 9> A;
  std::vector<double> x, b, r;
  bool fixed(std::size_t k) const { return A[4][k] == 0.0; }
};

class CpuMultigrid {
 public:
  CpuMultigrid(const GridStencil& fine, const std::vector<solvers::LayeredGrid>& grids, const MultigridOptions& o)
      : m_o(o) {
    CpuLevel top;
    top.nx = fine.nx();
    top.ny = fine.ny();
    for (int e = 0; e < 9; ++e) top.A[std::size_t(e)].assign(fine.entry(e).begin(), fine.entry(e).end());
    m_levels.push_back(std::move(top));
    for (std::size_t l = 1; l < grids.size(); ++l) m_levels.push_back(coarsen(m_levels.back(), grids[l]));
    for (CpuLevel& L : m_levels) {
      const std::size_t n = std::size_t(L.nx) * L.ny;
      L.x.assign(n, 0.0);
      L.b.assign(n, 0.0);
      L.r.assign(n, 0.0);
    }
  }
  CpuLevel& top() { return m_levels[0]; }
  void cycle(int l, bool zeroGuess) {
    CpuLevel& L = m_levels[std::size_t(l)];
    if (l + 1 == int(m_levels.size())) {
      coarseSolve(L, zeroGuess);
      return;
    }
    smooth(L, m_o.preSmoothing, zeroGuess);
    residual(L);
    CpuLevel& C = m_levels[std::size_t(l) + 1];
    for (int J = 0; J < C.ny; ++J)
      for (int I = 0; I < C.nx; ++I) {
        const std::size_t k = std::size_t(J) * C.nx + I;
        double s = 0;
        if (!C.fixed(k))
          for (int j = 2 * J - 1; j <= 2 * J + 1; ++j)
            for (int i = 2 * I - 1; i <= 2 * I + 1; ++i)
              if (i >= 0 && j >= 0 && i < L.nx && j < L.ny)
                s += 0.25 * subdivision(i - 2 * I, j - 2 * J) * L.r[std::size_t(j) * L.nx + i];
        C.b[k] = s;
      }
    cycle(l + 1, true);
    if (m_o.cycle == solvers::CycleType::W) cycle(l + 1, false);
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) {
        const std::size_t k = std::size_t(j) * L.nx + i;
        if (L.fixed(k)) continue;
        double s = 0;
        for (int J = j / 2; J <= (j + 1) / 2; ++J)
          for (int I = i / 2; I <= (i + 1) / 2; ++I) s += subdivision(i - 2 * I, j - 2 * J) * C.x[std::size_t(J) * C.nx + I];
        L.x[k] += s;
      }
    smooth(L, m_o.postSmoothing, false);
  }

 private:
  double offDiagonal(const CpuLevel& L, const std::vector<double>& x, int i, int j) const {
    double s = 0;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int a = i + dx, c = j + dy;
        if ((dx == 0 && dy == 0) || a < 0 || c < 0 || a >= L.nx || c >= L.ny) continue;
        s += L.A[std::size_t((dx + 1) + 3 * (dy + 1))][std::size_t(j) * L.nx + i] * x[std::size_t(c) * L.nx + a];
      }
    return s;
  }
  void smooth(CpuLevel& L, int sweeps, bool zeroGuess) {
    for (int s = 0; s < sweeps; ++s) {
      if (zeroGuess && s == 0) std::fill(L.x.begin(), L.x.end(), 0.0);
      std::vector<double> next(L.x.size());
      for (int j = 0; j < L.ny; ++j)
        for (int i = 0; i < L.nx; ++i) {
          const std::size_t k = std::size_t(j) * L.nx + i;
          if (L.fixed(k)) {
            next[k] = L.b[k];
            continue;
          }
          const double ax = L.A[4][k] * L.x[k] + offDiagonal(L, L.x, i, j);
          next[k] = L.x[k] + m_o.omega * (L.b[k] - ax) / L.A[4][k];
        }
      L.x.swap(next);
    }
  }
  void residual(CpuLevel& L) {
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) {
        const std::size_t k = std::size_t(j) * L.nx + i;
        L.r[k] = L.fixed(k) ? 0.0 : L.b[k] - L.A[4][k] * L.x[k] - offDiagonal(L, L.x, i, j);
      }
  }
  /// The exact coarsest solve (Eigen's LU with partial pivoting; fixed rows are identity rows).
  void coarseSolve(CpuLevel& L, bool /*zeroGuess*/) {
    const std::size_t n = std::size_t(L.nx) * L.ny;
    std::vector<double> M(n * n, 0.0), rhs = L.b;
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) {
        const std::size_t k = std::size_t(j) * L.nx + i;
        if (L.fixed(k)) {
          M[k * n + k] = 1.0;
          continue;
        }
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) {
            const int a = i + dx, c = j + dy;
            if (a < 0 || c < 0 || a >= L.nx || c >= L.ny) continue;
            M[k * n + std::size_t(c) * L.nx + a] += L.A[std::size_t((dx + 1) + 3 * (dy + 1))][k];
          }
      }
    using RowMajorMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    const Eigen::VectorXd x = Eigen::Map<const RowMajorMatrix>(M.data(), Eigen::Index(n), Eigen::Index(n))
                                  .partialPivLu()
                                  .solve(Eigen::Map<const Eigen::VectorXd>(rhs.data(), Eigen::Index(n)));
    for (std::size_t k = 0; k < n; ++k) L.x[k] = x[Eigen::Index(k)];
  }
  CpuLevel coarsen(const CpuLevel& F, const solvers::LayeredGrid& g) const {
    CpuLevel C;
    C.nx = g.nx();
    C.ny = g.ny();
    for (auto& e : C.A) e.assign(std::size_t(C.nx) * C.ny, 0.0);
    auto inFine = [&](int i, int j) { return i >= 0 && j >= 0 && i < F.nx && j < F.ny; };
    auto fineFixed = [&](int i, int j) { return F.fixed(std::size_t(j) * F.nx + i); };
    for (int J = 0; J < C.ny; ++J)
      for (int I = 0; I < C.nx; ++I) {
        for (int kj = 2 * J - 1; kj <= 2 * J + 1; ++kj)
          for (int ki = 2 * I - 1; ki <= 2 * I + 1; ++ki) {
            if (!inFine(ki, kj) || fineFixed(ki, kj)) continue;
            const double p = 0.25 * subdivision(ki - 2 * I, kj - 2 * J);
            for (int gy = -1; gy <= 1; ++gy)
              for (int gx = -1; gx <= 1; ++gx) {
                const int mi = ki + gx, mj = kj + gy;
                if (!inFine(mi, mj) || fineFixed(mi, mj)) continue;
                const double a = F.A[std::size_t((gx + 1) + 3 * (gy + 1))][std::size_t(kj) * F.nx + ki];
                if (a == 0.0) continue;
                for (int dy = -1; dy <= 1; ++dy)
                  for (int dx = -1; dx <= 1; ++dx) {
                    const double w = subdivision(mi - 2 * (I + dx), mj - 2 * (J + dy));
                    if (w != 0.0) C.A[std::size_t((dx + 1) + 3 * (dy + 1))][std::size_t(J) * C.nx + I] += p * a * w;
                  }
              }
          }
      }
    return C;
  }

  MultigridOptions m_o;
  std::vector<CpuLevel> m_levels;
};

// ---- Traffic of a cycle ------------------------------------------------------------------

/// Bytes a V(eta1, eta2) cycle moves through texture memory, level by level: a sweep reads
/// nine coefficient texels, x and b and writes x (12 texels); the residual the same; the
/// projection reads r and writes a quarter; interpolation reads x, a quarter of the coarse
/// x and the centre and writes x; border copies (thin strips) and the coarsest solve are
/// not counted. `written`: the texels written only.
double vcycleBytes(const Multigrid& mg, bool written) {
  // Per level, in texels of that level: a sweep or a residual reads x (its neighbours
  // come from cache) and b, and either the nine stencil textures or, on levels that use
  // the constant-stencil path (Multigrid.h), a 4-byte flag; the projection reads r and
  // writes a quarter-size b; interpolation reads the coarse x (a quarter), x and the
  // centre. With post-smoothing the interpolation and the first post-sweep are one pass
  // (one write fewer). The model counts every level the same way whatever its fusions
  // save in reads, so it errs on the side of fewer bytes.
  // The tiled sweeps (compute backend, borders in kernel; Multigrid.h) read and write x
  // once a dispatch instead of once a sweep: the pre-smoothing dispatch reads x, b and the
  // stencil and writes x and a quarter-size b and x; the post-smoothing one also reads the
  // coarse x (a quarter) and writes x; further dispatches (more than maxTileSweeps sweeps)
  // read x, b and the stencil and write x. They skip the corner entries of a 5-point
  // level (LayeredStencil::fivePoint): 7 fields instead of 11 off the constant path. They
  // take the constant path on every level with flags (tiledConstantStencilTexels), their
  // uniform tiles without reading the flag: counted as 2.25 all the same.
  const MultigridOptions& o = mg.options();
  double total = 0;
  for (int l = 0; l + 1 < mg.levels(); ++l) {
    const double texels = double(mg.grid(l).width()) * double(mg.grid(l).height());
    const double t = 16.0 * texels;
    bool constant = texels >= double(o.constantStencilTexels);
    if (mg.tiledSweeps()) {
      constant = mg.op(l).hasConstantStencil() && texels >= double(o.tiledConstantStencilTexels);
      double sweepReads = constant ? 2.25 : 11.0;
      if (!constant && mg.op(l).fivePoint()) sweepReads = 7.0;
      const int m = mg.maxTileSweeps(l);
      const int pre = std::max(1, (o.preSmoothing + m - 1) / m), post = (o.postSmoothing + m - 1) / m;
      double reads = sweepReads * pre + (post > 0 ? sweepReads * post + 0.25 : 2.25);
      double writes = pre + 0.5 + (post > 0 ? post : 1);
      total += written ? t * writes : t * (reads + writes);
      continue;
    }
    const double sweepReads = constant ? 2.25 : 11.0;
    const double sweeps = o.preSmoothing + o.postSmoothing;
    const double writes = sweeps + 1 + 0.25 + (o.postSmoothing > 0 ? 0 : 1);
    const double reads = sweepReads * (sweeps + 1) + 1.25 + 2.25;
    total += written ? t * writes : t * (reads + writes);
  }
  return total;
}

/// The Dirichlet Poisson problem of an n x n grid (boundary nodes fixed at zero).
GridStencil dirichletPoisson(int n) {
  return GridStencil::poisson(n, n, GridBoundaries::all(Boundary::Dirichlet), "bench.mg.A");
}

std::vector<float> zeroOnBoundary(std::vector<float> v, int n) {
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      if (i == 0 || j == 0 || i == n - 1 || j == n - 1) v[std::size_t(j) * n + i] = 0.0f;
  return v;
}

/// ||b - A x|| / ||b|| in double over the free nodes.
double trueResidual(const GridStencil& A, const std::vector<float>& x, const std::vector<float>& b) {
  const std::vector<double> ax = A.apply(toDouble(x));
  double rr = 0, bb = 0;
  for (std::size_t k = 0; k < ax.size(); ++k) {
    if (A.entry(4)[k] == 0.0f) continue;
    rr += (b[k] - ax[k]) * (b[k] - ax[k]);
    bb += double(b[k]) * b[k];
  }
  return std::sqrt(rr / bb);
}

std::vector<int> vcycleSizes(Preset p) {
  switch (p) {
    case Preset::Quick: return {65, 129};
    case Preset::Default: return {257, 1025};
    case Preset::Full: return {257, 1025, 4097};
  }
  return {};
}

int solveSize(Preset p) { return p == Preset::Quick ? 129 : 1025; }

bool allFinite(const std::vector<float>& v) {
  for (float x : v)
    if (!std::isfinite(x)) return false;
  return true;
}

/// "" for Bolz's copy passes, ".inkernel" for borders written by the kernels.
const char* borderSuffix(solvers::BorderUpdate b) { return b == solvers::BorderUpdate::InKernel ? ".inkernel" : ""; }

}  // namespace

void runMultigrid(BenchContext& ctx) {
  const MultigridOptions options{.preSmoothing = 2, .postSmoothing = 2};
  const solvers::BorderUpdate borders[] = {solvers::BorderUpdate::CopyPasses, solvers::BorderUpdate::InKernel};
  for (const int n : vcycleSizes(ctx.options.preset)) {
    const std::size_t nodes = std::size_t(n) * n;
    const GridStencil A = dirichletPoisson(n);
    const std::vector<float> bs = zeroOnBoundary(randomFloats(nodes, 501), n);
    const std::vector<float> xs = zeroOnBoundary(randomFloats(nodes, 502), n);

    // CPU reference of one cycle from (x, b).
    const auto t0 = std::chrono::steady_clock::now();
    CpuMultigrid cpu(A, solvers::LayeredGrid::hierarchy(n, n, options.maxLevels, options.coarsestNodes), options);
    cpu.top().x = toDouble(xs);
    cpu.top().b = toDouble(bs);
    cpu.cycle(0, false);
    const std::vector<double> reference = cpu.top().x;
    ctx.progress("multigrid: " + std::to_string(n) + "^2, CPU reference cycle in " +
                 fixed3(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()) + " s");

    for (stream::Backend backend : ctx.backends)
    for (const solvers::BorderUpdate border : borders) {
      stream::BackendScope scope(backend);
      MultigridOptions o = options;
      o.border = border;
      Multigrid mg(A, o);
      const solvers::LayeredGrid& g = mg.grid(0);
      stream::Vector x(nodes, "bench.mg.x"), b(nodes, "bench.mg.b");
      x.upload(xs);
      b.upload(bs);
      g.layer(b, mg.rhs());
      g.layer(x, mg.solution());
      // Timed on the live solution (converging values cost the same), GPU timer.
      Timing t = timeGl([&] { mg.cycle(); }, ctx.timing);
      Row row = makeRow(std::string("multigrid.vcycle") + borderSuffix(border), stream::backendName(backend), nodes, t,
                        vcycleBytes(mg, false), vcycleBytes(mg, true), 0.0);
      // Correctness: one cycle from the same (x, b) against the CPU double cycle.
      g.layer(x, mg.solution());
      mg.cycle();
      stream::Vector out(nodes, "bench.mg.out");
      g.unlayer(mg.solution(), out);
      const std::vector<float> got = out.download();
      row.maxRelErr = allFinite(got) ? maxRelativeError(got, reference) : NAN;
      row.tolerance = 1e-4;
      // Convergence factor on A x = 0 from random x (cycles 3..8).
      stream::Vector zero(nodes, "bench.mg.zero");
      g.layer(zero, mg.rhs());
      g.layer(x, mg.solution());
      std::vector<double> h{mg.residualNorm()};
      for (int c = 0; c < 8; ++c) {
        mg.cycle();
        h.push_back(mg.residualNorm());
      }
      const double factor = std::pow(h[8] / h[3], 1.0 / 5.0);
      if (!std::isfinite(factor)) row.maxRelErr = NAN;
      row.note = std::string("V(2,2), border ") + solvers::borderUpdateName(border) + ", " + std::to_string(mg.levels()) + " levels, factor " + fixed3(factor) + ", " +
                 fixed3(1e6 * row.ms / double(nodes)) + " ns/unknown";
      if (factor > 0.15) row.note += " (above the 0.15 target)";
      row.note += passBreakdown([&] { mg.cycle(); });
      ctx.add(std::move(row));
    }
  }

  // A full solve to 1e-6 against the core's Jacobi-preconditioned CG, same problem.
  const int n = solveSize(ctx.options.preset);
  const std::size_t nodes = std::size_t(n) * n;
  const GridStencil A = dirichletPoisson(n);
  const std::vector<float> bs = zeroOnBoundary(randomFloats(nodes, 511), n);
  // The core's StencilMatrix with identity rows on the boundary (the fixed nodes).
  linalg::FivePointCoefficients c;
  c.center.assign(nodes, 1.0f);
  c.west.assign(nodes, 0.0f);
  c.east = c.south = c.north = c.west;
  for (int j = 1; j + 1 < n; ++j)
    for (int i = 1; i + 1 < n; ++i) {
      const std::size_t k = std::size_t(j) * n + i;
      c.center[k] = 4.0f;
      c.west[k] = i > 1 ? -1.0f : 0.0f;
      c.east[k] = i + 2 < n ? -1.0f : 0.0f;
      c.south[k] = j > 1 ? -1.0f : 0.0f;
      c.north[k] = j + 2 < n ? -1.0f : 0.0f;
    }
  const linalg::StencilMatrix S = linalg::StencilMatrix::fivePoint(std::size_t(n), std::size_t(n), c, "bench.jpcg.A");
  for (stream::Backend backend : ctx.backends) {
    stream::BackendScope scope(backend);
    stream::Vector b(nodes, "bench.solve.b"), x(nodes, "bench.solve.x");
    b.upload(bs);
    solvers::SolverStatus mgStatus, cgStatus;
    solvers::IterativeOptions mgOptions;
    mgOptions.tolerance = 1e-6f;
    mgOptions.maxIterations = 50;
    std::vector<Row> mgRows;
    std::vector<solvers::SolverStatus> mgStatuses;
    for (const solvers::BorderUpdate border : borders) {
      MultigridOptions o = options;
      o.border = border;
      o.residualCheck = solvers::ResidualCheck::Recurrence;
      Multigrid mg(A, o);
      auto mgSolve = [&] {
        x.setZero();
        mgStatus = mg.solve(b, x, mgOptions);
      };
      Timing tm = timeGl(mgSolve, ctx.timing, /*gpuTimer=*/false);
      mgSolve();
      Row mgRow = makeRow(std::string("multigrid.solve") + borderSuffix(border), stream::backendName(backend), nodes, tm,
                          0.0, 0.0, 0.0);
      const std::vector<float> got = x.download();
      mgRow.maxRelErr = allFinite(got) ? trueResidual(A, got, bs) : NAN;
      mgRow.tolerance = 1e-4;
      mgRow.note = std::string("V(2,2), border ") + solvers::borderUpdateName(border) + ", to 1e-6 (recurrence residual): " +
                   std::to_string(mgStatus.iterations) + " cycles, " + solvers::outcomeName(mgStatus.outcome) +
                   "; max_rel_err = true residual";
      mgRows.push_back(std::move(mgRow));
      mgStatuses.push_back(mgStatus);
    }

    solvers::JacobiPreconditioner M(S, b.layout());
    solvers::CgOptions cgOptions;
    cgOptions.tolerance = 1e-6f;
    cgOptions.maxIterations = 20000;
    // To 1e-6 in its recurrence residual, as the multigrid rows: in float the true residual
    // of a million-unknown Poisson solve stops near 1e-5, and holding CG to it (the library's
    // default) ends in a restart and "stagnated" instead of the time the rows compare.
    cgOptions.checkTrueResidual = false;
    auto cgSolve = [&] {
      x.setZero();
      cgStatus = solvers::cg(S, b, x, cgOptions, &M);
    };
    TimingSpec once = ctx.timing;
    once.warmup = 1;
    once.batches = std::min(ctx.timing.batches, 3);
    once.minBatchMs = 0;
    Timing tc = timeGl(cgSolve, once, /*gpuTimer=*/false);
    cgSolve();
    Row cgRow = makeRow("multigrid.jpcg_solve", stream::backendName(backend), nodes, tc, 0.0, 0.0, 0.0);
    const std::vector<float> got = x.download();
    // The core's CG in float: its true residual drifts from the recurrence one (the
    // tolerance here is looser than the multigrid rows', the check is for garbage).
    cgRow.maxRelErr = allFinite(got) ? trueResidual(A, got, bs) : NAN;
    cgRow.tolerance = 1e-3;
    cgRow.note = "Jacobi-PCG to 1e-6 (recurrence residual): " + std::to_string(cgStatus.iterations) +
                 " iterations, " + solvers::outcomeName(cgStatus.outcome) + "; max_rel_err = true residual";
    if (!cgStatus.converged()) cgRow.maxRelErr = NAN;
    for (std::size_t k = 0; k < mgRows.size(); ++k) {
      mgRows[k].note += ", " + fixed3(tc.ms / mgRows[k].ms) + "x faster than Jacobi-PCG";
      if (!mgStatuses[k].converged()) mgRows[k].maxRelErr = NAN;
      ctx.add(std::move(mgRows[k]));
    }
    ctx.add(std::move(cgRow));
  }
}

namespace {

std::vector<int> fluidSizes(Preset p) {
  switch (p) {
    case Preset::Quick: return {65};
    case Preset::Default: return {513, 1024};
    case Preset::Full: return {513, 1024, 4096};
  }
  return {};
}

}  // namespace

void runFluid(BenchContext& ctx) {
  for (const int n : fluidSizes(ctx.options.preset)) {
    const std::size_t nodes = std::size_t(n) * n;
    const std::vector<float> u0 = randomFloats(nodes, 601), v0 = randomFloats(nodes, 602);
    for (stream::Backend backend : ctx.backends)
    for (const solvers::BorderUpdate border : {solvers::BorderUpdate::CopyPasses, solvers::BorderUpdate::InKernel}) {
      stream::BackendScope scope(backend);
      fluid::FluidParameters p;
      p.multigrid.border = border;
      p.scene = fluid::Scene::Smoke;
      p.nx = p.ny = n;
      p.dt = 0.25 / double(n);  // a quarter of a cell per step at speed 1
      p.buoyancy = 0;
      p.vorticity = 0;
      p.dyeScale = 1;
      p.particles = 0;
      p.cycles = 2;
      p.multigrid.preSmoothing = 4;
      p.multigrid.postSmoothing = 2;
      p.statistics = false;
      fluid::FluidSolver solver(p);
      // Correctness first: one step with statistics from the random velocity.
      solver.setVelocity(u0, v0);
      const fluid::StepStats stats = statisticsStep(solver);
      solver.setVelocity(u0, v0);
      Timing t = timeGl([&] { solver.step(); }, ctx.timing);
      // Per-pass GPU times of one more step (profiler on), the three largest in the note.
      std::vector<std::pair<double, std::string>> passes;
      long long count = 0;
      for (const auto& [label, st] : profileSteps(3, [&] { solver.step(); })) {
        passes.push_back({st.totalMs / 3.0, label + " " + fixed3(st.totalMs / 3.0) + " ms x" +
                                                std::to_string(st.passes / 3)});
        count += st.passes;
      }
      std::sort(passes.rbegin(), passes.rend());
      Row row = makeRow(std::string("fluid.step") + borderSuffix(border), stream::backendName(backend), nodes, t, 0.0,
                        0.0, 0.0);
      row.maxRelErr = stats.divergenceBefore > 0 ? stats.divergenceAfter / stats.divergenceBefore : NAN;
      row.tolerance = 0.05;
      row.note = std::string("2 V(4,2), border ") + solvers::borderUpdateName(border) + ", " + std::to_string(solver.pressureMultigrid().levels()) + " levels, " +
                 std::to_string(count / 3) + " passes/step; max_rel_err = divergence after/before; ";
      for (std::size_t k = 0; k < std::min<std::size_t>(4, passes.size()); ++k)
        row.note += (k ? ", " : "") + passes[k].second;
      ctx.add(std::move(row));
    }
  }
}

}  // namespace texstream::bench
