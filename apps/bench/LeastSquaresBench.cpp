// The least-squares systems of the Concurrent Number Cruncher (Buatois et al. 2008, §3,
// Table 3): LSCM parameterization (geometry/Lscm.h) and DSI smoothing (geometry/Dsi.h),
// built row by row on the CPU (linalg/SystemBuilder.h) and solved on the GPU
// (solvers/systems/SystemSolver.h), at about the variable counts of Table 3 (parameterization
// 1.5K, 6.5K, 26K, 103K, 671K unknowns: 2 per vertex; smoothing 2.3K, 9.8K, 39K, 155K,
// 1M: one per vertex, x, y and z as three right-hand sides) on built-in noisy patches with
// holes (several boundary loops).
//
// Rows per mesh, per backend:
//  - lscm_setup.<route> / dsi_setup.<route>: building the rows, forming A^T A (normal
//    equations) or A^T (CGLS), uploading, the multigrid hierarchy: the solver object made
//    from the mesh, GPU finished; the note splits it (rows / A^T A / upload / multigrid, ms). Up to 200K unknowns; above,
//    the solve row's note carries the split, and LSCM runs only the normal-equation routes
//    on the compute backend (CGLS and the fragment path take minutes per row);
//  - lscm_parameterize.<route> / dsi_step.<route>: the same set-up plus the solve to the
//    solver's default tolerance (1e-6 on the normal equations, then defect correction in
//    double, SystemSolver.h), i.e. what a user's whole call costs; checked against the
//    peer's double-precision direct solve, relative to the largest |value|;
//  - spmv.* and cg_iteration.* on the normal matrix A^T A in BCRS 2x2 and segment form
//    (SparseRows.h), beside cuSPARSE and Eigen on the same matrix.
// Routes: normal_bcrs2_multigrid and normal_segment_multigrid (A^T A on the CPU, PCG on the
// GPU with smoothed-aggregation multigrid, AggregationMultigrid.h: the default),
// normal_bcrs2_jacobi (Jacobi-PCG, as the CNC) and cgls (A and A^T on the GPU, Jacobi). CPU peers on the same rows, one thread:
//  - peer.eigen_llt_<app>: A^T A and A^T b (Eigen), SimplicialLLT analyse + factorise +
//    solve(s), double. The rows themselves are not counted (texstream's rows are, in its
//    set-up): the comparison favours the peer;
//  - peer.eigen_cg_<app>: A^T A and A^T b (Eigen), ConjugateGradient with a Jacobi
//    preconditioner in double to the same tolerance from the same initial guess (up to
//    60K unknowns: above, one solve takes minutes).
#include "BenchCase.h"
#include "EigenPeers.h"
#include "Reference.h"
#include "SparseRows.h"

#include <texstream/geometry/Dsi.h>
#include <texstream/geometry/Lscm.h>
#include <texstream/geometry/ProceduralMeshes.h>
#include <texstream/linalg/SystemBuilder.h>
#include <texstream/solvers/systems/SystemSolver.h>
#include <texstream/text/Format.h>

#include <Eigen/IterativeLinearSolvers>
#include <Eigen/SparseCholesky>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace texstream::bench {

namespace {

using SpD = Eigen::SparseMatrix<double>;
using solvers::LeastSquaresRoute;
using solvers::SystemMatrixFormat;

// The accuracy: the GPU result equals a double solve within 1e-4 of the values' scale.
constexpr double kSolveTolerance = 1e-4;

struct Route {
  const char* name;
  LeastSquaresRoute route;
  SystemMatrixFormat format;
  solvers::SystemPreconditioner preconditioner;
};

constexpr Route kRoutes[] = {
    {"normal_bcrs2_multigrid", LeastSquaresRoute::NormalEquations, SystemMatrixFormat::Bcrs2,
     solvers::SystemPreconditioner::Multigrid},
    {"normal_segment_multigrid", LeastSquaresRoute::NormalEquations, SystemMatrixFormat::Segment,
     solvers::SystemPreconditioner::Multigrid},
    {"normal_bcrs2_jacobi", LeastSquaresRoute::NormalEquations, SystemMatrixFormat::Bcrs2,
     solvers::SystemPreconditioner::Jacobi},
    {"cgls", LeastSquaresRoute::Cgls, SystemMatrixFormat::Auto, solvers::SystemPreconditioner::Jacobi},
};

/// One mesh size: the CNC's name for it, its variable count in Table 3, our vertex count.
struct TableMesh {
  const char* cncName;
  const char* tag;
  std::size_t vertices;
};

std::vector<TableMesh> lscmMeshes(Preset p) {
  // Two unknowns per vertex: vertices = #var / 2.
  const std::vector<TableMesh> all = {{"Girl Face 1", "1.5k", 750},     {"Girl Face 2", "6.5k", 3250},
                                      {"Girl Face 3", "26k", 12950},    {"Girl Face 4", "103k", 51550},
                                      {"Phlegmatic Dragon", "671k", 335700}};
  if (p == Preset::Quick) return {all[0]};
  if (p == Preset::Default) return {all[0], all[1], all[2]};
  return all;
}

std::vector<TableMesh> dsiMeshes(Preset p) {
  const std::vector<TableMesh> all = {{"Girl Face 1", "2.3k", 2300},     {"Girl Face 2", "9.8k", 9800},
                                      {"Girl Face 3", "39k", 38800},     {"Girl Face 4", "155k", 154700},
                                      {"Phlegmatic Dragon", "1m", 1000000}};
  if (p == Preset::Quick) return {all[0]};
  if (p == Preset::Default) return {all[0], all[1], all[2]};
  return all;
}

/// CG iterations per timed CG solve: few enough that float CG stays near double CG on these
/// ill-conditioned matrices (after 50 iterations on the 671K LSCM system float and double CG
/// differ by 3-6%, cuSPARSE's and Eigen's alike; 20 keep it near 1e-6 up to 103K), many
/// enough that one read-back per solve is a small share of the time.
constexpr int kCgIterations = 20;

/// Large systems: one timed run (a set-up of seconds, an LLT of tens of seconds).
TimingSpec specFor(std::size_t unknowns, TimingSpec spec) {
  if (unknowns > 200000) {
    spec.warmup = 0;
    spec.warmupMs = 0;
    spec.batches = 1;
    spec.minBatchMs = 0;
  } else if (unknowns > 20000) {
    spec.batches = std::min(spec.batches, 3);
    spec.minBatchMs = 0;
  }
  return spec;
}

Eigen::VectorXd toEigen(const std::vector<double>& v) { return Eigen::Map<const Eigen::VectorXd>(v.data(), Eigen::Index(v.size())); }

std::vector<float> toFloats(const std::vector<double>& v) { return {v.begin(), v.end()}; }

std::string formatMs(const char* label, double ms) {
  char text[64];
  std::snprintf(text, sizeof text, "%s %.3g ms", label, ms);
  return text;
}

/// The CPU peers on `system`: every system's scalars (expanded, locked ones included) from
/// SimplicialLLT (also the reference of every GPU row) and, where affordable, from Eigen CG.
struct CpuPeers {
  std::vector<std::vector<double>> reference;  ///< per system k, system.scalars() values
};

CpuPeers runCpuPeers(BenchContext& ctx, const linalg::LinearSystem& system, const std::string& app,
                     const std::string& tag, const std::string& meshNote) {
  CpuPeers out;
  const int systems = system.systems();
  const SpD A = eigen::toEigen<double>(system.rows());
  std::vector<Eigen::VectorXd> b;
  for (int k = 0; k < systems; ++k) b.push_back(toEigen(system.scaledRhs(k)));
  const std::size_t n = system.unknowns();
  auto expandAll = [&](const std::vector<Eigen::VectorXd>& x) {
    std::vector<std::vector<double>> scalars;
    for (int k = 0; k < systems; ++k)
      scalars.push_back(system.expand(std::span<const double>(x[std::size_t(k)].data(), n), k));
    return scalars;
  };
  {
    // The reference: outside any timing.
    const SpD N = SpD(A.transpose() * A);
    Eigen::SimplicialLLT<SpD> llt(N);
    if (llt.info() != Eigen::Success) throw std::runtime_error(app + ": SimplicialLLT failed: A^T A is not SPD");
    std::vector<Eigen::VectorXd> x;
    for (int k = 0; k < systems; ++k) x.push_back(llt.solve(A.transpose() * b[std::size_t(k)]));
    out.reference = expandAll(x);
  }
  if (!ctx.cpuPeers) return out;
  TimingSpec cpu = specFor(n, cpuSpec(ctx.timing));
  if (n > 20000) {
    // Seconds per solve on the CPU: one timed run.
    cpu.warmup = 0;
    cpu.batches = 1;
  }
  std::vector<Eigen::VectorXd> x(static_cast<std::size_t>(systems));
  auto maxError = [&] {
    double err = 0;
    const auto scalars = expandAll(x);
    for (int k = 0; k < systems; ++k)
      err = std::max(err, maxRelativeError(toFloats(scalars[std::size_t(k)]), out.reference[std::size_t(k)]));
    return err;
  };
  {
    const Timing t = timeCpu(
        [&] {
          const SpD N = SpD(A.transpose() * A);
          Eigen::SimplicialLLT<SpD> llt;
          llt.analyzePattern(N);
          llt.factorize(N);
          for (int k = 0; k < systems; ++k) x[std::size_t(k)] = llt.solve(A.transpose() * b[std::size_t(k)]);
        },
        cpu);
    Row row = makeRow("peer.eigen_llt_" + app + "." + tag, "cpu", n, t, 0.0, 0.0, 0.0);
    row.maxRelErr = maxError();
    row.tolerance = kSolveTolerance;
    row.note = meshNote + "; A^T A + SimplicialLLT analyse, factorise and " + std::to_string(systems) +
               " solve(s), double, 1 thread; building the rows not counted";
    ctx.add(std::move(row));
  }
  if (n > 60000) {
    ctx.progress(app + "." + tag + ": no Eigen CG peer above 60K unknowns (one solve takes minutes)");
    return out;
  }
  {
    int iterations = 0;
    const Timing t = timeCpu(
        [&] {
          const SpD N = SpD(A.transpose() * A);
          Eigen::ConjugateGradient<SpD, Eigen::Lower | Eigen::Upper, Eigen::DiagonalPreconditioner<double>> cg;
          cg.setTolerance(1e-6);
          cg.setMaxIterations(20000);
          cg.compute(N);
          iterations = 0;
          for (int k = 0; k < systems; ++k) {
            const Eigen::VectorXd guess = toEigen(system.initialGuess(k));
            x[std::size_t(k)] = cg.solveWithGuess(A.transpose() * b[std::size_t(k)], guess);
            iterations += int(cg.iterations());
          }
        },
        cpu);
    Row row = makeRow("peer.eigen_cg_" + app + "." + tag, "cpu", n, t, 0.0, 0.0, 0.0);
    row.maxRelErr = maxError();
    row.tolerance = kSolveTolerance;
    row.note = meshNote + "; A^T A + ConjugateGradient (Jacobi, double) to 1e-6 from the same initial guess, " +
               std::to_string(iterations) + " iterations in all, 1 thread";
    ctx.add(std::move(row));
  }
  return out;
}

/// What the GPU rows need to know about one application (LSCM or DSI).
struct Application {
  std::string app;        ///< "lscm", "dsi"
  std::string solveOp;    ///< "lscm_parameterize", "dsi_step"
  /// The normal equations' tolerance: what makes the solution match the direct solve to
  /// kSolveTolerance on every size (LSCM's condition number grows with the mesh).
  float tolerance = 1e-6f;
  /// Makes the solver object from the mesh with `options` (rows, A^T A, upload).
  std::function<std::shared_ptr<void>(const solvers::SystemSolverOptions&)> make;
  /// Runs the solve on what make() returned; returns the slowest status.
  std::function<solvers::SolverStatus(void*)> solve;
  /// Every system's scalars after solve().
  std::function<std::vector<std::vector<double>>(void*)> result;
  /// Rows-building ms and the solver of what make() returned.
  std::function<double(void*)> buildMs;
  std::function<const solvers::SystemSolver&(void*)> solver;
};

void gpuRows(BenchContext& ctx, const Application& a, const std::string& tag, std::size_t n,
             const CpuPeers& peers, const std::string& meshNote) {
  const TimingSpec spec = specFor(n, ctx.timing);
  const std::vector<std::string> peerOps = {"peer.eigen_llt_" + a.app + "." + tag, "peer.eigen_cg_" + a.app + "." + tag};
  for (const Route& route : kRoutes) {
    if (n > 200000 && route.route != LeastSquaresRoute::NormalEquations && a.app == "lscm") {
      ctx.progress(a.app + "." + tag + ": route " + route.name + " skipped above 200K unknowns (minutes per row)");
      continue;
    }
    solvers::SystemSolverOptions options;
    options.route = route.route;
    options.format = route.format;
    options.preconditioner = route.preconditioner;
    // CGLS in float stops near 4e-6 on A^T r (Cgls.h: its result is not corrected in
    // double); the normal equations reach further through SystemSolver's defect correction.
    options.cg.tolerance = route.route == LeastSquaresRoute::Cgls ? std::max(a.tolerance, 1e-6f) : a.tolerance;
    for (stream::Backend backend : ctx.backends) {
      if (backend == stream::Backend::Fragment && n > 200000 && a.app == "lscm") {
        // Thousands of CG iterations at a few ms each: minutes per row on the fragment path.
        ctx.progress(a.app + "." + tag + ": " + route.name + " on the fragment backend skipped above 200K unknowns");
        continue;
      }
      stream::BackendScope scope(backend);
      std::shared_ptr<void> made;
      auto setupNote = [&] {
        const solvers::SystemSolverSetup& s = a.solver(made.get()).setup();
        return formatMs("rows", a.buildMs(made.get())) + ", " +
               formatMs(route.route == LeastSquaresRoute::Cgls ? "A^T" : "A^T A", s.normalMatrixMs) + ", " +
               formatMs("upload", s.uploadMs) +
               (s.multigridLevels > 0
                    ? ", " + formatMs("multigrid", s.multigridMs) + " (" + std::to_string(s.multigridLevels) +
                          " levels: " + formatMs("aggregation", s.multigrid.hierarchy.aggregationMs) + ", " +
                          formatMs("prolongators", s.multigrid.hierarchy.prolongatorMs) + ", " +
                          formatMs("Galerkin", s.multigrid.hierarchy.galerkinMs) + ", " +
                          formatMs("spectral radii", s.multigrid.hierarchy.spectralRadiusMs) + ", " +
                          formatMs("block conversion", s.multigrid.hierarchy.conversionMs) + ", " +
                          formatMs("GPU levels", s.multigrid.levelsMs) + ", " +
                          formatMs("transfers", s.multigrid.transfersMs) + ", " +
                          formatMs("coarsest inverse", s.multigrid.coarsestMs) + ")"
                    : std::string()) +
               "; " + std::to_string(s.matrixNonZeros) + " non-zeros on the GPU";
      };
      if (n <= 200000) {
        const Timing setup = timeGl([&] { made = a.make(options); }, spec, /*gpuTimer=*/false);
        Row setupRow = makeRow(a.app + "_setup." + route.name + "." + tag, stream::backendName(backend), n, setup, 0.0,
                               0.0, 0.0);
        setupRow.note = meshNote + "; " + setupNote();
        ctx.add(std::move(setupRow));
      }

      solvers::SolverStatus status;
      const Timing whole = timeGl(
          [&] {
            made = a.make(options);
            status = a.solve(made.get());
          },
          spec, /*gpuTimer=*/false);
      Row row = makeRow(a.solveOp + "." + route.name + "." + tag, stream::backendName(backend), n, whole, 0.0, 0.0, 0.0);
      const auto got = a.result(made.get());
      double err = 0;
      for (std::size_t k = 0; k < got.size(); ++k)
        err = std::max(err, maxRelativeError(toFloats(got[k]), peers.reference[k]));
      row.maxRelErr = err;
      row.tolerance = kSolveTolerance;
      row.peerCandidates = peerOps;
      row.note = meshNote + "; set-up (" + setupNote() + ") + solve: " + std::to_string(status.iterations) +
                 " iterations (slowest system), " +
                 (status.restarts > 0 ? std::to_string(status.restarts) + " restart(s), " : "") + "tolerance " +
                 text::formatNumber(options.cg.tolerance) + ", relative residual " + text::formatNumber(status.relativeResidual) +
                 (status.converged() ? "" : " NOT CONVERGED: " + status.message);
      if (route.preconditioner == solvers::SystemPreconditioner::Multigrid) {
        // Where a multigrid solve's GPU time goes (V-cycle passes against CG's own).
        made = a.make(options);
        row.note += passBreakdown([&] { a.solve(made.get()); });
      }
      ctx.add(std::move(row));
    }
  }
}

/// SpMV and CG-iteration rows on the system's normal matrix A^T A (SparseRows.h), segment
/// (both layouts) and BCRS 2x2, beside cuSPARSE and Eigen.
void normalMatrixRows(BenchContext& ctx, const std::string& tag, const linalg::LinearSystem& system,
                      const std::string& note) {
  SparseRowsSpec spec;
  spec.tag = tag;
  spec.spmvFormats = {SparseFormat::SegmentGroups, SparseFormat::SegmentGroupsInterleaved, SparseFormat::Bcrs2};
  spec.cgFormats = spec.spmvFormats;
  spec.cgIterations = kCgIterations;
  spec.matrixNote = note;
  sparseMatrixRows(ctx, system.matrix(), spec);
}

}  // namespace

void runLscm(BenchContext& ctx) {
  for (const TableMesh& m : lscmMeshes(ctx.options.preset)) {
    const geometry::Mesh mesh = geometry::builtinMesh("patch", m.vertices, 0.1, 23);
    const std::string tag = "lscm" + std::string(m.tag);
    // The system, its references and peers (from the same rows as the GPU rows use).
    std::unique_ptr<geometry::Lscm> probe;
    {
      stream::BackendScope scope(ctx.backends.front());
      probe = std::make_unique<geometry::Lscm>(mesh);
    }
    const linalg::LinearSystem& system = probe->system();
    const std::size_t n = system.unknowns();
    const std::string meshNote = "noisy patch with holes, " + std::to_string(mesh.vertexCount()) + " vertices, " +
                                 std::to_string(probe->boundaryLoopCount()) + " boundary loops (CNC Table 3: " +
                                 m.cncName + ")";
    ctx.progress(tag + ": " + meshNote + ", " + std::to_string(n) + " unknowns, " +
                 std::to_string(system.rowCount()) + " rows");
    const CpuPeers peers = runCpuPeers(ctx, system, "lscm", tag, meshNote);

    Application a;
    a.app = "lscm";
    a.solveOp = "lscm_parameterize";
    a.tolerance = 1e-7f;
    a.make = [&](const solvers::SystemSolverOptions& o) -> std::shared_ptr<void> {
      geometry::LscmOptions lo;
      lo.solver = o;
      return std::make_shared<geometry::Lscm>(mesh, lo);
    };
    a.solve = [](void* p) { return static_cast<geometry::Lscm*>(p)->solve(); };
    a.result = [](void* p) { return std::vector<std::vector<double>>{static_cast<geometry::Lscm*>(p)->downloadUv()}; };
    a.buildMs = [](void* p) { return static_cast<geometry::Lscm*>(p)->buildMs(); };
    a.solver = [](void* p) -> const solvers::SystemSolver& { return static_cast<geometry::Lscm*>(p)->solver(); };
    gpuRows(ctx, a, tag, n, peers, meshNote);

    normalMatrixRows(ctx, tag, system, "LSCM normal matrix A^T A");
  }
}

void runDsi(BenchContext& ctx) {
  for (const TableMesh& m : dsiMeshes(ctx.options.preset)) {
    const geometry::Mesh mesh = geometry::builtinMesh("patch", m.vertices, 0.3, 29);
    const std::string tag = "dsi" + std::string(m.tag);
    std::unique_ptr<geometry::DsiSmoother> probe;
    {
      stream::BackendScope scope(ctx.backends.front());
      probe = std::make_unique<geometry::DsiSmoother>(mesh);
    }
    // The step's targets are the current positions: the system as step() sets it up.
    linalg::LinearSystem system = probe->system();
    const std::size_t n = system.unknowns();
    const std::string meshNote = "noisy patch with holes, " + std::to_string(mesh.vertexCount()) + " vertices, " +
                                 std::to_string(probe->heldVertexCount()) +
                                 " held (boundary), data weight 0.1, x, y, z (CNC Table 3: " + m.cncName + ")";
    ctx.progress(tag + ": " + meshNote + ", " + std::to_string(n) + " unknowns, " +
                 std::to_string(system.rowCount()) + " rows");
    const CpuPeers peers = runCpuPeers(ctx, system, "dsi", tag, meshNote);

    struct DsiRun {
      DsiRun(const geometry::Mesh& m, const geometry::DsiOptions& d) : smoother(m, d) {}
      geometry::DsiSmoother smoother;
      std::vector<std::vector<double>> result;
      double buildMs = 0;
    };
    Application a;
    a.app = "dsi";
    a.solveOp = "dsi_step";
    a.make = [&](const solvers::SystemSolverOptions& o) -> std::shared_ptr<void> {
      geometry::DsiOptions d;
      d.solver = o;
      const auto t0 = std::chrono::steady_clock::now();
      auto run = std::make_shared<DsiRun>(mesh, d);
      run->buildMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() -
                     run->smoother.solver().setup().normalMatrixMs - run->smoother.solver().setup().uploadMs;
      return run;
    };
    a.solve = [&](void* p) {
      auto* run = static_cast<DsiRun*>(p);
      const solvers::SolverStatus s = run->smoother.step(mesh.positions);
      run->result.clear();
      for (int k = 0; k < 3; ++k) run->result.push_back(run->smoother.solver().downloadValues(k));
      return s;
    };
    a.result = [](void* p) { return static_cast<DsiRun*>(p)->result; };
    a.buildMs = [](void* p) { return static_cast<DsiRun*>(p)->buildMs; };
    a.solver = [](void* p) -> const solvers::SystemSolver& { return static_cast<DsiRun*>(p)->smoother.solver(); };
    gpuRows(ctx, a, tag, n, peers, meshNote);

    normalMatrixRows(ctx, tag, system, "DSI normal matrix A^T A");
  }
}

}  // namespace texstream::bench
