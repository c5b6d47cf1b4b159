// The pressure projection of a 3D fluid (Batty, Wiebe & Houston 2003) head to head: CG with
// a multigrid V-cycle (MGPCG, McAdams et al. 2010), with block-multicolour MIC(0) and with
// Jacobi (Frantic Films'), on the same matrices: a box of smoke open at the top, smoke
// around a solid sphere, and a pool of liquid with a second-order free surface, at each
// size of the preset. Each row times the solve to a relative residual of 1e-4 from x = 0
// (set-up apart: the coefficients and preconditioner rebuilt on the GPU from the labels and
// the level set, as a simulation does every step) and reports the iterations to 1e-4 and to
// 1e-8 (the recurrence residual; float CG's true residual stops near 1e-7), the residual
// reduction per two iterations, and the true residual of the 1e-4 solution in double.
// Peers on the same matrix and right-hand side (the unknowns only): Eigen's CG with
// IncompleteCholesky (CPU, double) and cuSPARSE CG with Jacobi and with IC(0), each up to
// the preset's size for it (Sizes); and the iterations of MIC(0) in natural order (CPU,
// double), which the multicolour order trades for parallel passes.
#include "BenchCase.h"
#include "CudaPeers.h"
#include "EigenPeers.h"
#include "Reference.h"

#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/PressureDomain3D.h>
#include <texstream/linalg/PressureMatrix3D.h>
#include <texstream/solvers/systems/PressureSolver3D.h>
#include <texstream/stream/GridField3D.h>
#include <texstream/stream/Runtime.h>
#include <texstream/stream/TexturePool.h>

#include <glad/gl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <sstream>
#include <stdexcept>

namespace texstream::bench {

namespace {

using linalg::CellLabel;
using linalg::PressureDomain3D;
using solvers::PressurePreconditioner;

constexpr double kLoose = 1e-4, kTight = 1e-8;
constexpr int kMaxIterations = 5000;

struct Domain {
  const char* name;
  PressureDomain3D (*make)(int n);
};

const Domain kDomains[] = {
    {"smoke", [](int n) { return PressureDomain3D::box(n, n, n, {linalg::kZHigh}); }},
    {"smoke_sphere", [](int n) { return PressureDomain3D::smokeAroundSphere(n); }},
    {"liquid_pool", [](int n) { return PressureDomain3D::pool(n, n, n); }},
};

/// The system on the unknowns (fluid cells with an equation), and a right-hand side.
struct System {
  PressureDomain3D domain;
  linalg::Csr csr;
  std::vector<std::int64_t> unknownOfCell;
  std::vector<float> bCells;     ///< every cell, 0 off the unknowns
  std::vector<double> bUnknowns;
};

System makeSystem(const Domain& d, int n) {
  System s{d.make(n), {}, {}, {}, {}};
  s.csr = s.domain.toCsr(&s.unknownOfCell);
  const std::vector<float> values = randomFloats(s.domain.cells(), 3100 + std::uint64_t(n));
  s.bCells.assign(s.domain.cells(), 0.0f);
  for (std::size_t c = 0; c < s.domain.cells(); ++c) {
    if (s.unknownOfCell[c] < 0) continue;
    s.bCells[c] = values[c];
    s.bUnknowns.push_back(values[c]);
  }
  return s;
}

template <typename T>
std::vector<double> unknownsOf(const System& s, const std::vector<T>& cells) {
  std::vector<double> v;
  v.reserve(s.bUnknowns.size());
  for (std::size_t c = 0; c < cells.size(); ++c) {
    if (s.unknownOfCell[c] >= 0) v.push_back(double(cells[c]));
  }
  return v;
}

double trueResidual(const linalg::Csr& A, const std::vector<double>& x, const std::vector<double>& b) {
  const std::vector<double> ax = A.multiply(x);
  double rr = 0, bb = 0;
  for (std::size_t i = 0; i < b.size(); ++i) rr += (b[i] - ax[i]) * (b[i] - ax[i]), bb += b[i] * b[i];
  return std::sqrt(rr / bb);
}

/// The first checked iteration whose residual is at most `target` (-1: none).
int iterationsTo(const solvers::SolverStatus& s, double target) {
  for (std::size_t k = 0; k < s.residualHistory.size(); ++k) {
    if (s.residualHistory[k] <= target) return s.checkedAt[k];
  }
  return -1;
}

/// (r_k / r_0)^(2 / k) at the last check: the geometric-mean residual reduction per two
/// iterations (the MGPCG target is <= 0.1).
double reductionPerTwo(const solvers::SolverStatus& s) {
  if (s.residualHistory.size() < 2 || s.checkedAt.back() == 0 || s.residualHistory.front() <= 0) return NAN;
  return std::pow(s.residualHistory.back() / s.residualHistory.front(), 2.0 / s.checkedAt.back());
}

std::string formatCompact(double v) {
  std::ostringstream o;
  o.precision(3);
  o << v;
  return o.str();
}

/// Video memory still free, in MB (GL_NVX_gpu_memory_info; -1 where the driver lacks it).
double freeVideoMemoryMb() {
  if (!GLAD_GL_NVX_gpu_memory_info) return -1;
  glFinish();
  GLint kb = 0;
  glGetIntegerv(GL_GPU_MEMORY_INFO_CURRENT_AVAILABLE_VIDMEM_NVX, &kb);
  return kb / 1024.0;
}

/// MIC(0)-PCG in natural order (x fastest) in double from x = 0: the iterations to each
/// target (Bridson 2015 §5.3: tau = 0.97, sigma = 0.25).
std::vector<int> naturalMic0Iterations(const linalg::Csr& A, const std::vector<double>& b,
                                       const std::vector<double>& targets, double& ms) {
  const auto start = std::chrono::steady_clock::now();
  const std::size_t n = A.rows;
  std::vector<double> e(n, 0.0);
  // Rows are in x-fastest cell order, so a row's earlier neighbours are its lower columns.
  // s_j for j < i: the couplings of j with its later neighbours other than i.
  std::vector<double> laterSum(n, 0.0);
  for (std::size_t j = 0; j < n; ++j) {
    for (auto k = A.rowPtr[j]; k < A.rowPtr[j + 1]; ++k) {
      if (std::size_t(A.colIdx[std::size_t(k)]) > j) laterSum[j] += -A.values[std::size_t(k)];
    }
  }
  std::vector<double> diag = A.diagonal();
  for (std::size_t i = 0; i < n; ++i) {
    double v = diag[i];
    for (auto k = A.rowPtr[i]; k < A.rowPtr[i + 1]; ++k) {
      const std::size_t j = std::size_t(A.colIdx[std::size_t(k)]);
      if (j >= i) continue;
      const double c = -A.values[std::size_t(k)];
      v -= (c * c + 0.97 * c * (laterSum[j] - c)) / e[j];
    }
    e[i] = v < 0.25 * diag[i] ? diag[i] : v;
  }
  auto precondition = [&](const std::vector<double>& r, std::vector<double>& z) {
    std::vector<double> y(n);
    for (std::size_t i = 0; i < n; ++i) {
      double v = r[i];
      for (auto k = A.rowPtr[i]; k < A.rowPtr[i + 1]; ++k) {
        const std::size_t j = std::size_t(A.colIdx[std::size_t(k)]);
        if (j < i) v -= A.values[std::size_t(k)] * y[j];
      }
      y[i] = v / e[i];
    }
    for (std::size_t i = n; i-- > 0;) {
      double v = 0;
      for (auto k = A.rowPtr[i]; k < A.rowPtr[i + 1]; ++k) {
        const std::size_t j = std::size_t(A.colIdx[std::size_t(k)]);
        if (j > i) v -= A.values[std::size_t(k)] * z[j];
      }
      z[i] = y[i] + v / e[i];
    }
  };
  std::vector<double> x(n, 0.0), r = b, z(n, 0.0), p, q;
  precondition(r, z);
  p = z;
  auto dot = [](const std::vector<double>& a, const std::vector<double>& c) {
    double s = 0;
    for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * c[i];
    return s;
  };
  const double bnorm = std::sqrt(dot(b, b));
  double rz = dot(r, z);
  std::vector<int> found(targets.size(), -1);
  for (int it = 1; it <= kMaxIterations; ++it) {
    q = A.multiply(p);
    const double alpha = rz / dot(p, q);
    for (std::size_t i = 0; i < n; ++i) x[i] += alpha * p[i], r[i] -= alpha * q[i];
    const double rel = std::sqrt(dot(r, r)) / bnorm;
    bool all = true;
    for (std::size_t t = 0; t < targets.size(); ++t) {
      if (found[t] < 0 && rel <= targets[t]) found[t] = it;
      all = all && found[t] >= 0;
    }
    if (all) break;
    precondition(r, z);
    const double rzNew = dot(r, z);
    for (std::size_t i = 0; i < n; ++i) p[i] = z[i] + rzNew / rz * p[i];
    rz = rzNew;
  }
  ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return found;
}

}  // namespace

void runPressure3D(BenchContext& ctx) {
  for (const int n : ctx.sizes.pressure3d) {
    for (const Domain& domainCase : kDomains) {
      const auto& only = ctx.options.pressureDomains;
      if (!only.empty() && std::find(only.begin(), only.end(), domainCase.name) == only.end()) continue;
      const System sys = makeSystem(domainCase, n);
      const std::size_t cells = sys.domain.cells(), unknowns = sys.csr.rows;
      const std::string base = std::string("pressure3d.") + domainCase.name;
      ctx.progress(base + ": " + std::to_string(n) + "^3 cells, " + std::to_string(unknowns) + " unknowns");
      // The labels and level set as a simulation holds them on the GPU: set-up rebuilds the
      // coefficients and the preconditioner from them.
      std::vector<float> labelValues(cells);
      for (std::size_t c = 0; c < cells; ++c) labelValues[c] = float(sys.domain.labels[c]);

      for (stream::Backend backend : ctx.backends) {
        stream::BackendScope scope(backend);
        gl::StateGuard guard;
        // What the solve holds on the GPU: the matrix, labels, level set, b, x, and the
        // preconditioner's and CG's fields (measured for multigrid, whose are the most).
        stream::Runtime::current().pool().clear();
        const double freeBefore = freeVideoMemoryMb();
        linalg::PressureMatrix3D A(sys.domain, base + ".A");
        stream::GridField3D labels(A.grid(), base + ".labels"), levelSet, b(A.grid(), base + ".b"),
            x(A.grid(), base + ".x");
        labels.uploadCells(labelValues);
        if (!sys.domain.levelSet.empty()) {
          levelSet = stream::GridField3D(A.grid(), base + ".levelSet");
          levelSet.uploadCells(sys.domain.levelSet);
        }
        b.uploadCells(sys.bCells);
        for (PressurePreconditioner kind :
             {PressurePreconditioner::Multigrid, PressurePreconditioner::Mic0, PressurePreconditioner::Jacobi}) {
          const auto& wanted = ctx.options.pressurePreconditioners;
          if (!wanted.empty() &&
              std::find(wanted.begin(), wanted.end(), solvers::pressurePreconditionerName(kind)) == wanted.end()) {
            continue;
          }
          const std::string op = base + "." + solvers::pressurePreconditionerName(kind);
          solvers::PressureMultigrid3DOptions multigrid;
          if (ctx.options.pressureBoundarySweeps) multigrid.boundarySweeps = *ctx.options.pressureBoundarySweeps;
          solvers::PressureSolver3D solver(A, kind, multigrid);
          const Timing setup = timeGl(
              [&] {
                A.update(labels, levelSet.empty() ? nullptr : &levelSet, nullptr, false);
                solver.update();
              },
              ctx.timing);
          solvers::SolverStatus loose, tight;
          auto solve = [&](double tolerance, solvers::SolverStatus& status) {
            x.setZero();
            solvers::IterativeOptions options;
            options.tolerance = float(tolerance);
            options.maxIterations = kMaxIterations;
            options.restartOnDrift = false;
            status = solver.solve(b, x, options);
          };
          // Blocking read-backs: wall clock, the GPU drained at both ends.
          Timing t = timeGl([&] { solve(kLoose, loose); }, ctx.timing, /*gpuTimer=*/false);
          const double looseTrue = trueResidual(sys.csr, unknownsOf(sys, x.downloadCells()), sys.bUnknowns);
          const double usedMb = freeBefore >= 0 ? freeBefore - freeVideoMemoryMb() : NAN;
          solvers::IterativeOptions tightOptions;
          x.setZero();
          tightOptions.tolerance = float(kTight);
          tightOptions.maxIterations = kMaxIterations;
          tightOptions.checkEvery = 1;
          tightOptions.restartOnDrift = false;
          const auto tightStart = std::chrono::steady_clock::now();
          tight = solver.solve(b, x, tightOptions);
          const double tightMs =
              std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - tightStart).count();
          const double tightTrue = trueResidual(sys.csr, unknownsOf(sys, x.downloadCells()), sys.bUnknowns);

          Row row = makeRow(op, stream::backendName(backend), cells, t, A.bytesPerApply(), A.bytesPerApply() / 3,
                            A.flopsPerApply());
          row.maxRelErr = looseTrue;
          row.tolerance = 2 * kLoose;
          row.peerCandidates = {base + ".peer.cusparse_jacobi_cg", base + ".peer.eigen_ic_cg"};
          row.extras = {{"iterations_1e-4", double(iterationsTo(tight, kLoose))},
                        {"iterations_1e-8", double(iterationsTo(tight, kTight))},
                        {"ms_1e-8", tightMs},
                        {"true_residual_1e-8", tightTrue},
                        {"reduction_per_two_iterations", reductionPerTwo(tight)},
                        {"setup_ms", setup.ms},
                        {"unknowns", double(unknowns)}};
          if (kind == PressurePreconditioner::Multigrid && usedMb >= 0) {
            row.extras.emplace_back("gpu_mb", usedMb);
            row.extras.emplace_back("gpu_bytes_per_cell", usedMb * 1048576.0 / double(cells));
          }
          row.note = std::to_string(iterationsTo(tight, kLoose)) + " iterations to 1e-4 (true " +
                     formatCompact(looseTrue) +
                     "), " + std::to_string(iterationsTo(tight, kTight)) + " to 1e-8 in " + formatCompact(tightMs) +
                     " ms (true " + formatCompact(tightTrue) + "), residual x" +
                     formatCompact(reductionPerTwo(tight)) + " per two iterations, set-up " + formatCompact(setup.ms) +
                     " ms, " + solver.preconditioner().name();
          if (kind == PressurePreconditioner::Multigrid) row.note += passBreakdown([&] { solve(kLoose, loose); });
          ctx.add(std::move(row));
        }
      }

      // Peers, on the unknowns: their ms is a solve to 1e-4, set-up apart, as texstream's rows.
      const std::vector<float> bFloat(sys.bUnknowns.begin(), sys.bUnknowns.end());
      auto addPeer = [&](const std::string& name, const std::string& backend, const Timing& t, int looseIterations,
                         double looseTrue, int tightIterations, double tightTrue, double setupMs,
                         const std::string& what) {
        Row row = makeRow(base + ".peer." + name, backend, cells, t, 0, 0, 0);
        row.maxRelErr = looseTrue;
        row.tolerance = 2 * kLoose;
        row.extras = {{"iterations_1e-4", double(looseIterations)}, {"iterations_1e-8", double(tightIterations)},
                      {"true_residual_1e-8", tightTrue}, {"setup_ms", setupMs}, {"unknowns", double(unknowns)}};
        row.note = std::to_string(looseIterations) + " iterations to 1e-4 (true " + formatCompact(looseTrue) + "), " +
                   std::to_string(tightIterations) + " to 1e-8 (true " + formatCompact(tightTrue) + "), set-up " +
                   formatCompact(setupMs) + " ms, " + what;
        ctx.add(std::move(row));
      };
#ifdef TEXSTREAM_BENCH_CUDA
      if (ctx.cudaPeers) {
        using Peer = Timing (*)(const linalg::Csr&, const std::vector<float>&, double, int, int, std::vector<float>&,
                                int&, double&, const TimingSpec&);
        const std::pair<const char*, Peer> cudaPeers[] = {{"cusparse_jacobi_cg", &cuda::jacobiPcg},
                                                          {"cusparse_ic0_cg", &cuda::ic0Pcg}};
        for (const auto& [name, peer] : cudaPeers) {
          if (std::string(name) == "cusparse_ic0_cg" && n > ctx.sizes.pressure3dCusparseIc0) continue;
          std::vector<float> x;
          int looseIt = 0, tightIt = 0;
          double setupMs = 0, unused = 0;
          const Timing t = peer(sys.csr, bFloat, kLoose, kMaxIterations, 1, x, looseIt, setupMs, ctx.timing);
          const double looseTrue = trueResidual(sys.csr, std::vector<double>(x.begin(), x.end()), sys.bUnknowns);
          TimingSpec once = ctx.timing;
          once.warmup = 0, once.warmupMs = 0, once.batches = 1, once.minReps = once.maxReps = 1;
          peer(sys.csr, bFloat, kTight, kMaxIterations, 1, x, tightIt, unused, once);
          const double tightTrue = trueResidual(sys.csr, std::vector<double>(x.begin(), x.end()), sys.bUnknowns);
          addPeer(name, "cuda", t, looseIt, looseTrue, tightIt, tightTrue, setupMs,
                  std::string(name) == "cusparse_ic0_cg" ? "cuSPARSE csric02 + SpSV, float" : "cuSPARSE + cuBLAS, float");
        }
      }
#endif
      if (ctx.cpuPeers && n <= ctx.sizes.pressure3dEigen) {
        std::vector<double> x;
        int looseIt = 0, tightIt = 0;
        double setupMs = 0, unused = 0;
        const Timing t = eigen::icCg(sys.csr, sys.bUnknowns, kLoose, kMaxIterations, x, looseIt, setupMs, cpuSpec(ctx.timing));
        const double looseTrue = trueResidual(sys.csr, x, sys.bUnknowns);
        TimingSpec once = cpuSpec(ctx.timing);
        once.warmup = 0, once.warmupMs = 0, once.batches = 1, once.minReps = once.maxReps = 1;
        eigen::icCg(sys.csr, sys.bUnknowns, kTight, kMaxIterations, x, tightIt, unused, once);
        addPeer("eigen_ic_cg", "cpu", t, looseIt, looseTrue, tightIt, trueResidual(sys.csr, x, sys.bUnknowns), setupMs,
                "Eigen ConjugateGradient + IncompleteCholesky, double, " + eigen::icCgDescription());
      }

      if (ctx.cpuPeers && n <= ctx.sizes.pressure3dNaturalMic) {
        double ms = 0;
        const std::vector<int> it = naturalMic0Iterations(sys.csr, sys.bUnknowns, {kLoose, kTight}, ms);
        Timing t;
        t.ms = t.wallMs = ms;
        t.method = "clock";
        Row row = makeRow(base + ".ref.natural_mic0", "cpu", cells, t, 0, 0, 0);
        row.maxRelErr = 0;
        row.tolerance = 1;
        row.extras = {{"iterations_1e-4", double(it[0])}, {"iterations_1e-8", double(it[1])},
                      {"unknowns", double(unknowns)}};
        row.note = "MIC(0) in natural order, CPU double, one thread: " + std::to_string(it[0]) +
                   " iterations to 1e-4, " + std::to_string(it[1]) + " to 1e-8 (the multicolour rows' reference)";
        ctx.add(std::move(row));
      }
    }
  }
}

}  // namespace texstream::bench
