// One mean-curvature-flow smoothing step (Bolz et al. 2003, §3 and §3.1.2): the matrix
// assembled on the GPU from the I, N, P and C textures, then CG on x, y and z at once to
// ||r|| / ||b|| <= 1e-6, warm-started from the current positions (CurvatureFlow's defaults:
// no preconditioner, a residual check every 2 iterations).
// Meshes: a noisy open patch with holes of about 37k vertices (Bolz's scanned mesh) and a
// noisy cube of about 1M (the CNC's dragon size); --quick: a 2k-vertex patch.
// Rows, per backend: smooth_assemble (the three assembly passes alone) and smooth_step
// (assembly + CG, plus the one-pass reset of the positions that lets every repetition take
// the same step). CPU peers on the same system, same state, same tolerance, one thread:
//  - peer.eigen_llt_smooth_step: libigl's way, assembly + SimplicialLLT factorisation of
//    the free rows (pattern analysed once, outside the timing) + three solves, double;
//  - peer.eigen_cg_smooth_step: assembly + Eigen's ConjugateGradient (Jacobi, float,
//    warm start), one solve per coordinate.
// Every step row is checked against the LLT solution (positions, relative to their scale).
#include "BenchCase.h"
#include "Reference.h"

#include <texstream/geometry/CurvatureFlow.h>
#include <texstream/geometry/CurvatureSystem.h>
#include <texstream/geometry/ProceduralMeshes.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/stream/Vector.h>

#include <Eigen/IterativeLinearSolvers>
#include <Eigen/SparseCholesky>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace texstream::bench {

namespace {

constexpr float kCgTolerance = 1e-6f;
// The float CG stops at a relative residual of 1e-6: positions agree with the direct
// solve to about that, relative to their scale.
constexpr double kStepTolerance = 1e-4;
// a_ii = 4 A_i - sum_j a_ij from positions rounded to float (relative to their centre):
// an edge of length h carries an error of about 2^-24 R (R the mesh's radius), so a_ii
// about 2^-24 R / h relative; a few of those.
double assemblyTolerance(const geometry::Mesh& mesh) {
  double r = 0;
  const std::vector<double> box = mesh.bounds();
  for (int c = 0; c < 3; ++c) r = std::max(r, 0.5 * (box[std::size_t(c) + 3] - box[std::size_t(c)]));
  return 8.0 * std::ldexp(1.0, -24) * r / geometry::meanEdgeLength(mesh);
}

struct SmoothMesh {
  const char* name;
  std::size_t vertices;
};

std::vector<SmoothMesh> meshesFor(Preset p) {
  if (p == Preset::Quick) return {{"patch", 2000}};
  return {{"patch", 37000}, {"cube", 1000000}};
}

using SpD = Eigen::SparseMatrix<double>;
using SpF = Eigen::SparseMatrix<float, Eigen::RowMajor>;

/// The free rows of the CPU system as an SPD matrix A_FF and right-hand sides b_F - A_FH x_H
/// (held rows are decoupled rows a_ii x_i' = a_ii x_i: their x is known; A_FH is 0 since
/// buildCurvatureSystem already moves the held columns to b, symmetric elimination).
struct ReducedSystem {
  std::vector<int> freeIndex;  ///< per vertex its row in A_FF, or -1 when held
  std::vector<int> freeVertex;
  std::vector<Eigen::Triplet<double>> triplets;
  Eigen::MatrixXd rhs;
};

ReducedSystem reduce(const geometry::CurvatureSystem& s, const std::vector<double>& x) {
  ReducedSystem r;
  const std::size_t n = s.A.rows;
  r.freeIndex.assign(n, -1);
  for (std::size_t i = 0; i < n; ++i) {
    if (s.held[i]) continue;
    r.freeIndex[i] = int(r.freeVertex.size());
    r.freeVertex.push_back(int(i));
  }
  r.rhs.resize(Eigen::Index(r.freeVertex.size()), 3);
  r.triplets.reserve(s.A.nonZeros());
  for (std::size_t f = 0; f < r.freeVertex.size(); ++f) {
    const std::size_t i = std::size_t(r.freeVertex[f]);
    double b[3] = {s.rhs[3 * i], s.rhs[3 * i + 1], s.rhs[3 * i + 2]};
    for (auto e = s.A.rowPtr[i]; e < s.A.rowPtr[i + 1]; ++e) {
      const std::size_t j = std::size_t(s.A.colIdx[std::size_t(e)]);
      const double a = s.A.values[std::size_t(e)];
      if (r.freeIndex[j] >= 0) {
        r.triplets.emplace_back(Eigen::Index(f), Eigen::Index(r.freeIndex[j]), a);
      } else {
        for (int c = 0; c < 3; ++c) b[c] -= a * x[3 * j + std::size_t(c)];
      }
    }
    for (int c = 0; c < 3; ++c) r.rhs(Eigen::Index(f), c) = b[c];
  }
  return r;
}

/// Mesh positions from the free unknowns (held vertices keep x).
std::vector<float> assemblePositions(const ReducedSystem& r, const Eigen::MatrixXd& xf, const std::vector<double>& x) {
  std::vector<float> out(x.begin(), x.end());
  for (std::size_t f = 0; f < r.freeVertex.size(); ++f) {
    for (int c = 0; c < 3; ++c) out[3 * std::size_t(r.freeVertex[f]) + std::size_t(c)] = float(xf(Eigen::Index(f), c));
  }
  return out;
}

/// Estimated bytes of the three assembly passes (curvature_offdiagonal, _diagonal, _rhs):
/// I, C, N, P texels and four position texels per value texel channel, the values and G
/// (held columns moved to b) written; per row-group texel R, the positions again and the
/// values, G, C, N, P read, diagonal and mass written; per vertex texel b = m x, or, when a
/// fixed boundary fills G, b = m x + G x (one vertex product).
bool movesHeldColumns(const geometry::CurvatureFlow& flow) {
  return flow.options().fixBoundary && flow.topology().boundaryVertexCount() > 0;
}

double assemblyBytes(const geometry::CurvatureFlow& flow) {
  const linalg::SegmentMatrix& A = flow.matrix();
  const double valueTexels = double(A.layout().valueTexels), internalTexels = double(A.internalLayout().texels());
  const double vertexTexels = double(flow.positions().layout().texels());
  const double rhs = movesHeldColumns(flow) ? flow.vertexOperator().bytesPerApply() : vertexTexels * (16 + 4 + 16);
  return valueTexels * (4 * 16 + 4 * 4 * 16 + 2 * 16) + valueTexels * (5 * 16 + 4 * 3 * 16) +
         internalTexels * (4 + 4 * 16 + 16 + 16) + rhs;
}

double assemblyBytesWritten(const geometry::CurvatureFlow& flow) {
  const linalg::SegmentMatrix& A = flow.matrix();
  return double(A.layout().valueTexels) * 32 + double(A.internalLayout().texels()) * 32 +
         double(flow.positions().layout().texels()) * 16;
}

}  // namespace

void runSmooth(BenchContext& ctx) {
  for (const SmoothMesh& spec : meshesFor(ctx.options.preset)) {
    const geometry::Mesh mesh = geometry::builtinMesh(spec.name, spec.vertices, 0.3, 17);
    const std::size_t n = mesh.vertexCount();
    const double lambdaDt = std::pow(geometry::meanEdgeLength(mesh), 2);
    ctx.progress("smooth: noisy " + std::string(spec.name) + ", " + std::to_string(n) + " vertices, " +
                 std::to_string(mesh.triangleCount()) + " triangles, lambdaDt = h^2");

    geometry::CurvatureFlowOptions options;
    options.cg.tolerance = kCgTolerance;
    // CurvatureFlow hands unchanged coordinates back bit-exact: the GPU's x0 is the mesh's.
    const std::vector<double>& x0 = mesh.positions;
    const geometry::TriangleTopology topology(mesh);
    const std::string meshNote = "noisy " + std::string(spec.name) + " (" + std::to_string(mesh.triangleCount()) +
                                 " triangles, " + std::to_string(topology.boundaryVertexCount()) +
                                 " boundary vertices fixed)";

    // The CPU system of the same state: the reference and the peers' input.
    const geometry::CurvatureSystem system = geometry::buildCurvatureSystem(mesh, topology, lambdaDt, true, x0);
    const ReducedSystem reduced = reduce(system, x0);
    const auto nf = Eigen::Index(reduced.freeVertex.size());
    SpD Aff(nf, nf);
    Aff.setFromTriplets(reduced.triplets.begin(), reduced.triplets.end());
    Eigen::SimplicialLLT<SpD> llt;
    llt.analyzePattern(Aff);
    llt.factorize(Aff);
    if (llt.info() != Eigen::Success) throw std::runtime_error("smooth: SimplicialLLT failed: the system is not SPD");
    const Eigen::MatrixXd xf = llt.solve(reduced.rhs);
    const std::vector<float> referenceF = assemblePositions(reduced, xf, x0);
    const std::vector<double> reference(referenceF.begin(), referenceF.end());
    const std::vector<std::string> peers = {"peer.eigen_llt_smooth_step", "peer.eigen_cg_smooth_step"};
    std::vector<double> cpuDiagonal(n);
    for (std::size_t v = 0; v < n; ++v) cpuDiagonal[v] = system.A.values[std::size_t(system.A.rowPtr[v])];

    for (stream::Backend backend : ctx.backends) {
      stream::BackendScope scope(backend);
      // A flow per backend: the segment layout follows the backend it is built on
      // (SegmentOptions::interleave: interleaved on compute, consecutive on fragment).
      geometry::CurvatureFlow flow(mesh, options, "bench.smooth");
      const std::string layoutNote = flow.matrix().layout().interleaved ? "interleaved segments" : "consecutive segments";
      stream::Vector saved(flow.positions().layout(), "bench.smooth.saved");
      linalg::copy(flow.positions(), saved);
      const double vertexScalars = double(flow.positions().layout().size());
      const double iterationBytes = flow.vertexOperator().bytesPerApply() + 52.0 * vertexScalars;
      const double iterationWritten = 5.0 * double(flow.positions().layout().texels()) * 16.0;
      const double iterationFlops = flow.vertexOperator().flopsPerApply() + 10.0 * vertexScalars;
      const Timing ta = timeGl([&] { flow.assemble(float(lambdaDt)); }, ctx.timing);
      Row assemble = makeRow("smooth_assemble", stream::backendName(backend), n, ta, assemblyBytes(flow),
                             assemblyBytesWritten(flow), 0.0);
      // Checked entry by entry in tests/geometry; here the diagonal, which sums them all.
      // (A different λΔt first, so that a pass that failed to write would leave other values.)
      flow.assemble(float(3.0 * lambdaDt));
      flow.assemble(float(lambdaDt));
      const std::vector<float> diagonal = flow.matrix().internalDiagonal().download();
      std::vector<float> gotDiagonal(n);
      for (std::size_t v = 0; v < n; ++v) gotDiagonal[v] = diagonal[std::size_t(flow.positionIndexOf(v))];
      assemble.maxRelErr = maxRelativeError(gotDiagonal, cpuDiagonal);
      assemble.tolerance = assemblyTolerance(mesh);
      assemble.note = meshNote + "; a_ij, a_ii, b on the GPU (Bolz s3.1.2), " + layoutNote;
      ctx.add(std::move(assemble));

      int iterations = 0;
      auto step = [&] {
        flow.restorePositions(saved);
        const solvers::SolverStatus s = flow.step(float(lambdaDt));
        if (!s.converged()) throw std::runtime_error("smooth: CG did not converge: " + s.message);
        iterations = s.iterations;
      };
      const Timing t = timeGl(step, ctx.timing, /*gpuTimer=*/false);
      const double bytes = assemblyBytes(flow) + iterations * iterationBytes;
      const double written = assemblyBytesWritten(flow) + iterations * iterationWritten;
      Row row = makeRow("smooth_step", stream::backendName(backend), n, t, bytes, written, iterations * iterationFlops);
      step();
      std::vector<float> got;
      for (double v : flow.downloadPositions()) got.push_back(float(v));
      row.maxRelErr = maxRelativeError(got, reference);
      row.tolerance = kStepTolerance;
      row.peerCandidates = peers;
      row.note = meshNote + "; " + std::to_string(iterations) + " CG iterations to 1e-6, assembly included, " +
                 layoutNote;
      ctx.add(std::move(row));
    }

    if (!ctx.cpuPeers) continue;
    const TimingSpec cpu = cpuSpec(ctx.timing);
    {
      // At 1M vertices one factorisation takes most of a minute (H200 host): one timed run.
      TimingSpec llt = cpu;
      if (n > 200000) {
        llt.warmup = 0;
        llt.batches = 1;
      }
      Eigen::MatrixXd solution;
      Eigen::SimplicialLLT<SpD> solver;
      solver.analyzePattern(Aff);  // connectivity only: once per mesh, as a user would
      const Timing t = timeCpu(
          [&] {
            const geometry::CurvatureSystem s = geometry::buildCurvatureSystem(mesh, topology, lambdaDt, true, x0);
            const ReducedSystem r = reduce(s, x0);
            SpD M(nf, nf);
            M.setFromTriplets(r.triplets.begin(), r.triplets.end());
            solver.factorize(M);
            solution = solver.solve(r.rhs);
          },
          llt);
      Row row = makeRow("peer.eigen_llt_smooth_step", "cpu", n, t, 0.0, 0.0, 0.0);
      row.maxRelErr = maxRelativeError(assemblePositions(reduced, solution, x0), reference);
      row.tolerance = kStepTolerance;
      row.note = meshNote + "; assembly + SimplicialLLT factorize + 3 solves, double, " +
                 std::to_string(Eigen::nbThreads()) + " thread(s)";
      ctx.add(std::move(row));
    }
    {
      Eigen::MatrixXd solution(nf, 3);
      int iterations = 0;
      const Timing t = timeCpu(
          [&] {
            const geometry::CurvatureSystem s = geometry::buildCurvatureSystem(mesh, topology, lambdaDt, true, x0);
            const ReducedSystem r = reduce(s, x0);
            SpF M(nf, nf);
            std::vector<Eigen::Triplet<float>> tf;
            tf.reserve(r.triplets.size());
            for (const auto& e : r.triplets) tf.emplace_back(e.row(), e.col(), float(e.value()));
            M.setFromTriplets(tf.begin(), tf.end());
            Eigen::ConjugateGradient<SpF, Eigen::Lower | Eigen::Upper, Eigen::DiagonalPreconditioner<float>> cg;
            cg.setTolerance(kCgTolerance);
            cg.compute(M);
            iterations = 0;
            for (int c = 0; c < 3; ++c) {
              Eigen::VectorXf guess(nf), b(nf);
              for (Eigen::Index f = 0; f < nf; ++f) {
                guess[f] = float(x0[3 * std::size_t(r.freeVertex[std::size_t(f)]) + std::size_t(c)]);
                b[f] = float(r.rhs(f, c));
              }
              const Eigen::VectorXf xc = cg.solveWithGuess(b, guess);
              iterations += int(cg.iterations());
              solution.col(c) = xc.cast<double>();
            }
          },
          cpu);
      Row row = makeRow("peer.eigen_cg_smooth_step", "cpu", n, t, 0.0, 0.0, 0.0);
      row.maxRelErr = maxRelativeError(assemblePositions(reduced, solution, x0), reference);
      row.tolerance = kStepTolerance;
      row.note = meshNote + "; assembly + ConjugateGradient (Jacobi, float, warm start) to 1e-6 per coordinate, " +
                 std::to_string(iterations) + " iterations in all, " + std::to_string(Eigen::nbThreads()) +
                 " thread(s)";
      ctx.add(std::move(row));
    }
  }
}

}  // namespace texstream::bench
