// The enhanced block Jacobi Poisson solver of Bajaj et al. 2004, §4.1, and its Table 3:
// iterations and time to the relative residuals 1e-3, 1e-4, 1e-5 on the paper's 40 x 80 x 80
// grid (zero Dirichlet on the planes perpendicular to x, zero Neumann on the others), from
// x = 0 with a random right-hand side, beside plain Jacobi and CG on the GPU (the same A as
// a StencilMatrix), Gauss–Seidel on the CPU (float, lexicographic), and, on a 2D problem, the
// layered multigrid when this build has it. EBJ runs in three orderings of the line: the
// optimal "stretches" (S costs 20 instead of 38 instructions), the natural one (the paper's
// unoptimised "EBJ on GPU") and the annealer's.
//
// Rows: <problem>.ebj_iteration[.ordering]: one sweep (slabs() passes), checked against a CPU
// double sweep; <problem>.<method>_solve_<tol>: one solve to that tolerance, iterations in the
// note, max_rel_err = the true relative residual of the result in double (its tolerance is
// twice the target). Iterations are counted in one run that checks every iteration; each time
// is then a separate solve of exactly that many iterations with checks only at its ends.
// 2D: 64 x 64 (--full: 128 x 128), x Dirichlet, y Neumann. --quick: 12 x 16 x 16 and 16 x 16.
#include "BenchCase.h"
#include "Reference.h"

#include <texstream/codegen/EbjKernel.h>
#include <texstream/linalg/Csr.h>
#include <texstream/linalg/StencilMatrix.h>
#include <texstream/solvers/krylov/ConjugateGradient.h>
#include <texstream/solvers/stationary/EnhancedBlockJacobi.h>
#include <texstream/solvers/stationary/Jacobi.h>
#include <texstream/stream/Vector.h>

#if __has_include(<texstream/solvers/multigrid/Multigrid.h>)
#include <texstream/solvers/multigrid/GridStencil.h>
#include <texstream/solvers/multigrid/Multigrid.h>
#define TEXSTREAM_BENCH_EBJ_MULTIGRID 1
#endif

#include <glad/gl.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

namespace texstream::bench {

namespace {

using solvers::EbjBoundary;
using solvers::EbjGrid;
using codegen::EbjOrdering;
using solvers::EnhancedBlockJacobi;

constexpr std::array<double, 3> kTolerances = {1e-3, 1e-4, 1e-5};
constexpr int kIterationCap = 200000;

struct Problem {
  std::string label;  ///< "ebj3d"
  EbjGrid grid;
};

std::vector<Problem> problems(Preset p) {
  const EbjBoundary D = EbjBoundary::Dirichlet, N = EbjBoundary::Neumann;
  if (p == Preset::Quick) {
    return {{"ebj3d", {.nx = 12, .ny = 16, .nz = 16, .x = D, .y = N, .z = N}},
            {"ebj2d", {.nx = 16, .ny = 16, .nz = 1, .x = D, .y = N}}};
  }
  // 2D: unlike the 3D slabs (80 x 80 texels), a 2D slab is one row of texels, so the passes
  // are small and many (n2 / 4 per iteration) while the iteration counts grow as n2^2.
  const int n2 = p == Preset::Full ? 128 : 64;
  return {{"ebj3d", {.nx = 40, .ny = 80, .nz = 80, .x = D, .y = N, .z = N}},  // Table 3
          {"ebj2d", {.nx = n2, .ny = n2, .nz = 1, .x = D, .y = N}}};
}

std::string tolName(double t) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.0e", t);
  return buf;
}

std::string fixed(double v, int digits = 3) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

double norm(const std::vector<double>& v) {
  double s = 0;
  for (double e : v) s += e * e;
  return std::sqrt(s);
}

double trueRelativeResidual(const linalg::Csr& A, const std::vector<float>& x, const std::vector<double>& f) {
  for (float v : x) {
    if (!std::isfinite(v)) return NAN;
  }
  std::vector<double> r = A.multiply(toDouble(x));
  for (std::size_t i = 0; i < r.size(); ++i) r[i] = f[i] - r[i];
  return norm(r) / norm(f);
}

/// First iteration at which each tolerance was met (-1: never), from a solver's onCheck.
struct Counts {
  std::array<int, 3> at{-1, -1, -1};
  void record(int iteration, double relres) {
    for (std::size_t t = 0; t < kTolerances.size(); ++t) {
      if (at[t] < 0 && relres <= kTolerances[t]) at[t] = iteration;
    }
  }
  bool complete() const { return at.back() >= 0; }
};

/// Median wall time of `runs` calls, the GPU drained at both ends (solvers read back).
Timing timeSolve(const std::function<void()>& body, int runs) {
  std::vector<double> ms;
  for (int r = 0; r < runs; ++r) {
    glFinish();
    const auto t0 = std::chrono::steady_clock::now();
    body();
    glFinish();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  Timing t;
  t.ms = t.wallMs = median(ms);
  t.reps = 1;
  t.batches = runs;
  t.method = "glFinish+clock";
  return t;
}

/// Lexicographic Gauss–Seidel sweep in float on the CPU: x_p = (f_p - Σ_{q != p} a_pq x_q) / a_pp.
void gaussSeidelSweep(const linalg::Csr& A, const std::vector<float>& diagonal, const std::vector<float>& values,
                      const std::vector<float>& f, std::vector<float>& x) {
  for (std::size_t p = 0; p < A.rows; ++p) {
    float sum = f[p];
    for (std::int64_t k = A.rowPtr[p]; k < A.rowPtr[p + 1]; ++k) {
      const auto q = std::size_t(A.colIdx[std::size_t(k)]);
      if (q != p) sum -= values[std::size_t(k)] * x[q];
    }
    x[p] = sum / diagonal[p];
  }
}

/// Options of a counting run (iterations < 0: to the smallest tolerance, a check every
/// iteration, `check` called) or of a timed run of exactly `iterations` (checks at the ends).
solvers::IterativeOptions options(int iterations, std::function<void(int, double)> check = {}) {
  solvers::IterativeOptions o;
  if (iterations < 0) {
    o.tolerance = float(kTolerances.back());
    o.maxIterations = kIterationCap;
    o.checkEvery = 1;
    o.onCheck = std::move(check);
  } else {
    o.tolerance = 0.0f;
    o.maxIterations = iterations;
    o.checkEvery = std::max(iterations, 1);
  }
  return o;
}

struct SolveRun {
  std::string method;   ///< "ebj", "jacobi", ...
  std::string backend;  ///< "fragment", "compute", "cpu"
  std::string note;     ///< appended to every row
  std::string peerPrefix;  ///< the peer of the row for tolerance t is peerPrefix + "1e-03" etc.
  /// Solves from x = 0 with checks every iteration to the smallest tolerance, calling back
  /// (iteration, relative residual) at each check.
  std::function<void(const std::function<void(int, double)>&)> count;
  /// Runs exactly `iterations` iterations from x = 0 (checks only at the ends) and returns x.
  std::function<std::vector<float>(int iterations)> run;
  /// When set, used instead of count and run: the solver's own solve from x = 0 to the
  /// tolerance, with its own stopping test (CG: the recurrence residual, confirmed against
  /// b - A x and restarted from it once if it drifted), returning x, the iterations and
  /// the solver's restarts. Equal iteration counts of plain CG would not carry the restart,
  /// and its true residual ended 3x the tolerance at 1e-5 on the 128^2 problem.
  std::function<std::tuple<std::vector<float>, int, int>(double tolerance)> solve;
};

void addSolveRows(BenchContext& ctx, const Problem& pb, const linalg::Csr& A, const std::vector<double>& f,
                  const SolveRun& s) {
  const std::size_t n = pb.grid.cells();
  Counts counts;
  if (!s.solve) s.count([&](int it, double relres) { counts.record(it, relres); });
  const int runs = ctx.options.preset == Preset::Quick ? 1 : std::max(1, std::min(ctx.timing.batches, 3));
  for (std::size_t t = 0; t < kTolerances.size(); ++t) {
    const std::string op = pb.label + "." + s.method + "_solve_" + tolName(kTolerances[t]);
    int iterations = counts.at[t], restarts = 0;
    std::vector<float> x;
    Timing timing;
    if (s.solve) {
      timing = timeSolve([&] { std::tie(x, iterations, restarts) = s.solve(kTolerances[t]); }, runs);
    } else if (iterations >= 0) {
      timing = timeSolve([&] { x = s.run(iterations); }, runs);
    }
    Row row = makeRow(op, s.backend, n, timing, 0.0, 0.0, 0.0);
    row.tolerance = 2.0 * kTolerances[t];
    row.maxRelErr = iterations >= 0 ? trueRelativeResidual(A, x, f) : NAN;
    if (!s.peerPrefix.empty()) row.peerCandidates = {s.peerPrefix + tolName(kTolerances[t])};
    row.note = iterations >= 0 ? std::to_string(iterations) + " iterations, " +
                                     fixed(iterations > 0 ? timing.ms / iterations : 0.0, 4) + " ms/iteration"
                               : "did not reach " + tolName(kTolerances[t]) + " within " +
                                     std::to_string(kIterationCap) + " iterations";
    if (restarts > 0) row.note += ", restarted from b - A x";
    if (!s.note.empty()) row.note += "; " + s.note;
    ctx.add(std::move(row));
  }
}

#ifdef TEXSTREAM_BENCH_EBJ_MULTIGRID
/// The 2D problem's A (cell-centred, ghost-cell boundaries) as a GridStencil: every node
/// free, Neumann sides through the lowered centre.
solvers::GridStencil gridStencil(const EbjGrid& g) {
  solvers::GridStencil S(g.nx, g.ny, "bench.ebj.mg.A");
  for (int j = 0; j < g.ny; ++j)
    for (int i = 0; i < g.nx; ++i) {
      float d = 4.0f;
      auto side = [&](int dx, int dy, EbjBoundary b) {
        const int ii = i + dx, jj = j + dy;
        if (ii < 0 || ii >= g.nx || jj < 0 || jj >= g.ny) {
          if (b == EbjBoundary::Neumann) d -= 1.0f;
        } else {
          S.setCoefficient(i, j, dx, dy, -1.0f);
        }
      };
      side(-1, 0, g.x);
      side(1, 0, g.x);
      side(0, -1, g.y);
      side(0, 1, g.y);
      S.setCoefficient(i, j, 0, 0, d);
    }
  return S;
}
#endif

void runProblem(BenchContext& ctx, const Problem& pb) {
  const EbjGrid& g = pb.grid;
  const std::size_t n = g.cells();
  ctx.progress("ebj: " + pb.label + " " + g.describe() + ", " + std::to_string(n) + " unknowns");
  const linalg::Csr A = solvers::ebjPoissonCsr(g);
  const std::vector<float> fs = randomFloats(n, 901);
  const std::vector<double> f = toDouble(fs);
  const std::string gsPeer = pb.label + ".gs_cpu_solve_";

  struct Variant {
    EbjOrdering ordering;
    const char* suffix;
  };
  const Variant variants[] = {{EbjOrdering::Stretches, ""},
                              {EbjOrdering::Natural, ".natural"},
                              {EbjOrdering::Annealed, ".annealed"}};

  // The solvers, built once (their textures serve both backends); annealing timed.
  std::vector<EnhancedBlockJacobi> ebjs;
  std::vector<std::string> kernelNotes;
  for (const Variant& v : variants) {
    const auto t0 = std::chrono::steady_clock::now();
    const codegen::EbjKernel kernel(g.nx, g.dimensions(), g.x, v.ordering);
    ebjs.emplace_back(g, kernel.slabKernel(), "bench.ebj");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    kernelNotes.push_back(std::string("ordering ") + codegen::ebjOrderingName(v.ordering) + ", S costs " +
                          std::to_string(kernel.naturalCost()) + " -> " + std::to_string(kernel.cost()) +
                          " instructions" +
                          (v.ordering == EbjOrdering::Annealed ? " (annealed in " + fixed(seconds, 1) + " s)"
                                                               : std::string()));
  }
  const linalg::StencilMatrix S = solvers::ebjPoissonMatrix(g, "bench.ebj.A");

  for (stream::Backend backend : ctx.backends) {
    stream::BackendScope scope(backend);
    const std::string bname = stream::backendName(backend);
    stream::Vector fv(n, "bench.ebj.f"), xv(n, "bench.ebj.x");
    fv.upload(fs);

    for (std::size_t vi = 0; vi < std::size(variants); ++vi) {
      const Variant& v = variants[vi];
      EnhancedBlockJacobi& ebj = ebjs[vi];
      const solvers::EbjSlabKernel& kernel = ebj.kernel();
      const std::string& kernelNote = kernelNotes[vi];

      // One sweep: time, and a check against the CPU double sweep from the same state.
      const std::vector<float> x0 = randomFloats(n, 902);
      xv.upload(x0);
      ebj.load(fv, &xv);
      Timing t = timeGl([&] { ebj.sweep(1); }, ctx.timing);
      double bytes = 0;
      const double texels = double(g.ny) * double(g.nz);
      for (int s = 0; s < ebj.slabs(); ++s) {
        double inputs = 2;  // the slab itself and f
        for (int J : kernel.blocksRead[std::size_t(s)]) inputs += J != s ? 1 : 0;
        bytes += 16.0 * texels * (inputs + 1);
      }
      Row row = makeRow(pb.label + ".ebj_iteration" + v.suffix, bname, n, t, bytes, 4.0 * double(n),
                        double(n) * (2.0 * (2 * g.dimensions() + 1)));
      ebj.load(fv, &xv);
      ebj.sweep(1);
      std::vector<float> poisoned(n, poison());
      xv.upload(poisoned);
      ebj.store(xv);
      std::vector<double> reference = toDouble(x0);
      solvers::ebjReferenceSweep(g, kernel.permutation, f, reference);
      row.maxRelErr = maxRelativeError(xv.download(), reference);
      row.tolerance = 1e-5;
      row.note = std::to_string(ebj.slabs()) + " slab passes; " + kernelNote;
      ctx.add(std::move(row));

      SolveRun s;
      s.method = std::string("ebj") + (v.suffix[0] ? std::string("_") + (v.suffix + 1) : std::string());
      s.backend = bname;
      s.note = kernelNote;
      s.peerPrefix = gsPeer;
      s.count = [&](const std::function<void(int, double)>& check) {
        xv.setZero();
        solvers::enhancedBlockJacobi(ebj, fv, xv, options(-1, check));
      };
      s.run = [&](int iterations) {
        xv.setZero();
        solvers::enhancedBlockJacobi(ebj, fv, xv, options(iterations));
        return xv.download();
      };
      addSolveRows(ctx, pb, A, f, s);
    }

    {
      SolveRun s;
      s.method = "jacobi";
      s.backend = bname;
      s.note = "plain Jacobi (omega = 1), true diagonal";
      s.count = [&](const std::function<void(int, double)>& check) {
        xv.setZero();
        solvers::jacobi(S, fv, xv, options(-1, check));
      };
      s.run = [&](int iterations) {
        xv.setZero();
        solvers::jacobi(S, fv, xv, options(iterations));
        return xv.download();
      };
      addSolveRows(ctx, pb, A, f, s);
    }
    {
      SolveRun s;
      s.method = "cg";
      s.backend = bname;
      s.note = "unpreconditioned CG, the library's solve (checks every 8 iterations included)";
      s.solve = [&](double tolerance) {
        xv.setZero();
        solvers::CgOptions o;
        o.tolerance = float(tolerance);
        o.maxIterations = kIterationCap;
        const solvers::SolverStatus status = solvers::cg(S, fv, xv, o);
        if (!status.converged()) return std::tuple{std::vector<float>{}, -1, status.restarts};
        return std::tuple{xv.download(), status.iterations, status.restarts};
      };
      addSolveRows(ctx, pb, A, f, s);
    }
#ifdef TEXSTREAM_BENCH_EBJ_MULTIGRID
    if (g.dimensions() == 2) {
      solvers::Multigrid mg(gridStencil(g), {.preSmoothing = 2, .postSmoothing = 2});
      SolveRun s;
      s.method = "multigrid";
      s.backend = bname;
      s.note = "layered multigrid V(2,2) cycles (iterations = cycles), true residual";
      s.count = [&](const std::function<void(int, double)>& check) {
        xv.setZero();
        solvers::IterativeOptions o;
        o.tolerance = float(kTolerances.back());
        o.maxIterations = 1000;
        o.checkEvery = 1;
        o.onCheck = check;
        mg.solve(fv, xv, o);
      };
      s.run = [&](int cycles) {
        xv.setZero();
        solvers::IterativeOptions o;
        o.tolerance = 0.0f;
        o.maxIterations = cycles;
        o.checkEvery = std::max(cycles, 1);
        mg.solve(fv, xv, o);
        return xv.download();
      };
      addSolveRows(ctx, pb, A, f, s);
    }
#endif
  }

  // The CPU Gauss-Seidel peer last: a GPU left idle for its seconds would clock down before
  // the GPU rows (the EBJ rows name it as their peer; Report::finalize pairs them).
  {
    std::vector<float> diagonal(n), values(A.values.begin(), A.values.end()), x;
    for (std::size_t p = 0; p < n; ++p) {
      for (std::int64_t k = A.rowPtr[p]; k < A.rowPtr[p + 1]; ++k) {
        if (std::size_t(A.colIdx[std::size_t(k)]) == p) diagonal[p] = float(A.values[std::size_t(k)]);
      }
    }
    SolveRun s;
    s.method = "gs_cpu";
    s.backend = "cpu";
    s.note = "lexicographic Gauss-Seidel, float, one core";
    s.count = [&](const std::function<void(int, double)>& check) {
      x.assign(n, 0.0f);
      for (int k = 0;; ++k) {
        const double relres = trueRelativeResidual(A, x, f);
        check(k, relres);
        if (relres <= kTolerances.back() || k == kIterationCap || !std::isfinite(relres)) break;
        gaussSeidelSweep(A, diagonal, values, fs, x);
      }
    };
    s.run = [&](int iterations) {
      x.assign(n, 0.0f);
      for (int k = 0; k < iterations; ++k) gaussSeidelSweep(A, diagonal, values, fs, x);
      return x;
    };
    addSolveRows(ctx, pb, A, f, s);
  }
}

}  // namespace

void runEbj(BenchContext& ctx) {
  for (const Problem& pb : problems(ctx.options.preset)) runProblem(ctx, pb);
}

}  // namespace texstream::bench
