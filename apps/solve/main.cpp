// texstream-solve: solves A x = b for a sparse symmetric positive definite A read from a
// Matrix Market file, by (Jacobi-preconditioned) CG on the GPU, the matrix stored as
// Bolz et al.'s segment layout or the CNC's BCRS blocks. Headless (EGL); links no window
// system.
#include "AppOptions.h"
#include "MainGuard.h"
#include "OutputPath.h"
#include "Settings.h"

#include <texstream/gl/Error.h>
#include <texstream/gl/HeadlessContext.h>
#include <texstream/linalg/BcrsMatrix.h>
#include <texstream/linalg/Csr.h>
#include <texstream/linalg/DoubleFloatVector.h>
#include <texstream/linalg/MatrixMarket.h>
#include <texstream/linalg/SegmentMatrix.h>
#include <texstream/linalg/SystemExport.h>
#include <texstream/solvers/krylov/ConjugateGradient.h>
#include <texstream/solvers/krylov/DoubleFloatCg.h>
#include <texstream/solvers/stationary/JacobiPreconditioner.h>
#include <texstream/solvers/krylov/MixedPrecisionCg.h>
#include <texstream/solvers/krylov/MixedPrecisionRefinement.h>
#include <texstream/stream/Profiler.h>
#include <texstream/stream/Runtime.h>
#include <texstream/stream/Vector.h>
#include <texstream/text/FloatChars.h>
#include <texstream/text/Format.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <new>
#include <numeric>
#include <optional>

namespace {

using namespace texstream;

constexpr int kNotConverged = 1;
constexpr int kBadInput = app::kUsageExitCode;  // 2
constexpr int kGpuFailure = 3;
constexpr int kOtherFailure = 4;  // out of host memory, an output that could not be written

constexpr const char* kDescription =
    "texstream-solve: solve A x = b on the GPU by conjugate gradients, A sparse symmetric positive definite\n"
    "from a Matrix Market file (coordinate real|integer|pattern, general|symmetric).\n\n"
    "  texstream-solve A.mtx [b.mtx] [--x0 X.mtx] [--format segment|bcrs2|bcrs4|auto]\n"
    "                  [--precond jacobi|none] [--tolerance T] [--max-iterations N]\n"
    "                  [--precision single|mixed|auto] [--inner-tol T] [--out x.mtx] [--json PATH]\n"
    "                  [--export-petsc DIR]\n\n"
    "Right-hand side: b.mtx (an n x 1 array or coordinate file) or, when absent, b = A * 1 (the row sums\n"
    "of A), so that the exact solution is all ones; the run then also reports max_i |x_i - 1|.\n"
    "Initial guess: --x0 X.mtx, else zero.\n"
    "Formats: segment = Bolz et al. 2003 (rows grouped by non-zero count, --packing groups|tiles);\n"
    "bcrs2 / bcrs4 = block CRS with 2x2 / 4x4 blocks (Buatois et al. 2008), --rcm reorders first;\n"
    "auto = bcrs4 when its 4x4 blocks are at least half full, else segment.\n"
    "Mixed precision: float CG on the GPU with the residual replaced by b - A x in double on the CPU; where\n"
    "that stagnates, CG in double-float arithmetic (pairs of floats, about 48 bits) goes on from its x,\n"
    "with A's entries held as pairs in a segment matrix (the JSON's double_float_iterations).\n"
    "Progress (iteration, relative residual) goes to stderr at every residual check.\n"
    "The verdict is the true residual's, ||b - A x|| / ||b|| in double against the file's A: where CG's float\n"
    "recurrence meets --tolerance and the true residual does not, the outcome is \"stagnated\" (at float precision,\n"
    "naming mixed precision).\n"
    "Exit status: 0 converged (the true residual meets --tolerance), 1 not converged (iteration cap, breakdown,\n"
    "NaN, stagnated at float precision), 2 bad command line or\n"
    "input file (message with file:line; output paths are checked before the solve), 3 the GPU could not\n"
    "run it (an OpenGL error, a size beyond its limits), 4 another failure (out of host memory, naming the\n"
    "file being read or the system being set up; an output that could not be written).";

/// The relative residual below which float CG alone stalls on typical systems: --precision
/// auto switches to mixed precision for tolerances below it.
constexpr float kFloatCgReach = 1e-6f;

/// The command line, declared once in describeSettings; the solver's defaults are the
/// library's (IterativeOptions, kCgDefaults).
struct Settings {
  std::string matrixPath, rhsPath, x0Path, outPath, exportPetsc;
  std::string format = "auto", precond = "jacobi", packing = "groups";
  bool rcm = false;
  float tolerance = solvers::IterativeOptions{}.tolerance;
  /// Unset: each solver's own cap (float CG's kCgDefaults; in mixed precision float and
  /// double-float CG kMixedPrecisionCgDefaults and kDoubleFloatCgDefaults each).
  std::optional<int> maxIterations;
  int checkEvery = solvers::kCgDefaults.checkEvery;
  /// Auto: mixed below kFloatCgReach; above it single, and mixed again where single cannot
  /// reach the tolerance.
  solvers::Precision precision = solvers::Precision::Auto;
  /// Mixed precision: the fall of CG's float residual after which it is replaced by the
  /// true one (1e-2: reliable updates as Clark et al. 2010 space them; docs/performance.md).
  double innerTolerance = 1e-2;
};

void describeSettings(app::SettingTable& t, Settings& s) {
  t.text("A", s.matrixPath, nullptr, "The matrix A (Matrix Market coordinate file)").typeName("A.mtx").positional().required();
  t.text("b", s.rhsPath, nullptr, "The right-hand side (n x 1 Matrix Market file); default b = A * 1")
      .typeName("b.mtx")
      .positional();
  t.text("x0", s.x0Path, nullptr, "Initial guess (n x 1 Matrix Market file); default 0").typeName("X.mtx");
  t.choice("format", s.format, {"segment", "bcrs2", "bcrs4", "auto"}, "Storage: segment, bcrs2, bcrs4 or auto");
  t.choice("packing", s.packing, {"groups", "tiles"},
           "Segment layout packing: groups (a rectangle per group) or tiles (Bolz s3.2.2)");
  t.flag("rcm", s.rcm, "Reorder by reverse Cuthill-McKee before blocking (bcrs formats)");
  t.choice("precond", s.precond, {"jacobi", "none"}, "Preconditioner: jacobi (diag(A)) or none");
  t.real("tolerance", s.tolerance, 0.0, 1.0, false, "Stop when ||r|| / ||b|| <= T, T in (0, 1)")
      .typeName("T")
      .formerly("tol");
  t.integer("max-iterations", s.maxIterations, 1, 1000000000,
            "Iteration cap, >= 1 (default: " + std::to_string(solvers::kCgDefaults.maxIterations) +
                "; mixed precision: float and double-float CG together, at most half of it float; unset, " +
                std::to_string(solvers::kMixedPrecisionCgDefaults.maxIterations) + " for each)")
      .formerly("max-iter");
  t.integer("check-every", s.checkEvery, 1, 1000000, "Iterations between residual checks (and progress lines), >= 1");
  t.named("precision", s.precision, solvers::precisionNames(),
          "Float CG, or mixed precision: float CG inside defect correction in double, for tolerances down to "
          "about 1e-12, then, where float CG stagnates (a matrix whose float rounding changes its solution), CG in "
          "double-float arithmetic on the entries held as pairs. Auto is mixed when --tolerance is below " +
              text::shortestText(kFloatCgReach) +
              ", else float CG, and mixed again where float CG cannot reach --tolerance (stagnated, the cap, a "
              "breakdown)");
  t.real("inner-tol", s.innerTolerance, 0.0, 1.0, false,
         "Mixed precision: the residual reduction after which CG's float residual is replaced by the true one")
      .typeName("T");
  t.text("out", s.outPath, app::requireWritablePath, "Write the solution x (n x 1 array Matrix Market file)")
      .typeName("x.mtx");
  t.text("export-petsc", s.exportPetsc,
         [](std::string_view source, const std::string& dir) {
           if (!dir.empty() && std::filesystem::exists(dir) && !std::filesystem::is_directory(dir))
             throw app::UsageError(std::string(source) + ": invalid value " + text::quoted(dir) +
                                   ": exists and is not a directory");
         },
         "Also write A and b as PETSc binary (DIR/system.petsc) for PETSc's solvers on many ranks "
         "(apps/solve/petsc_solve.py)")
      .typeName("DIR");
}

/// The format "auto" picks, from the 4x4 block fill (a CPU count over the pattern).
std::string chooseFormat(const linalg::Csr& A) {
  // One pass over the pattern with a per-block-row marker (no clearing needed).
  std::vector<std::int64_t> mark(A.cols / 4 + 1, -1);
  std::size_t blocks = 0;
  for (std::size_t i = 0; i < A.rows; ++i) {
    const std::int64_t I = std::int64_t(i / 4);
    for (std::int64_t e = A.rowPtr[i]; e < A.rowPtr[i + 1]; ++e) {
      const std::size_t J = std::size_t(A.colIdx[std::size_t(e)]) / 4;
      if (mark[J] != I) mark[J] = I, ++blocks;
    }
  }
  const double fill4 = blocks == 0 ? 1.0 : double(A.nonZeros()) / double(16 * blocks);
  return fill4 >= 0.5 ? "bcrs4" : "segment";
}

/// The matrix in internal order (linalg/PermutedMatrix.h) and how it was stored.
struct Operator {
  std::unique_ptr<linalg::PermutedMatrix> matrix;
  std::string description;
};

Operator buildOperator(const linalg::Csr& A, const Settings& s, const std::string& format) {
  Operator op;
  char text[160];
  if (format == "segment") {
    linalg::SegmentOptions o;
    o.packing = s.packing == "tiles" ? linalg::SegmentPacking::IdenticalTiles : linalg::SegmentPacking::GroupRectangles;
    // Segment layout: the library's default for the current backend (interleaved on
    // compute, consecutive on fragment; linalg/SegmentMatrix.h).
    auto segment = std::make_unique<linalg::SegmentMatrix>(A, "A", o);
    std::snprintf(text, sizeof text, "segment (%s packing, %zu groups, %d passes, padding %.2f%s)",
                  linalg::packingName(segment->layout().packing), segment->layout().groups.size(),
                  segment->layout().passesPerApply(), segment->layout().paddingRatio(), segment->layout().interleaved ? ", interleaved" : "");
    op.matrix = std::move(segment);
  } else {
    linalg::BcrsOptions o;
    o.blockSize = format == "bcrs2" ? 2 : 4;
    o.reverseCuthillMcKee = s.rcm;
    auto bcrs = std::make_unique<linalg::BcrsMatrix>(A, "A", o);
    std::snprintf(text, sizeof text, "bcrs%d (%zu blocks, fill %.2f%s)", bcrs->blockSize(), bcrs->blocks(),
                  bcrs->fillRatio(), bcrs->reordered() ? ", RCM" : "");
    op.matrix = std::move(bcrs);
  }
  op.description = text;
  return op;
}

[[noreturn]] void badInput(const std::string& message) { throw std::invalid_argument(message); }

/// Where mixed-precision CG stagnated (the condition number times float's rounding of the
/// entries is about 1: the float-rounded matrix is another matrix), defect correction goes
/// on with double-float CG (solvers/krylov/DoubleFloatCg.h) on A held as pairs, in a SegmentMatrix
/// of its own whatever --format stored: the defect in double here against the file's A.
/// x and the status are updated. Returns the double-float iterations.
int continueInDoubleFloat(const linalg::Csr& A, const std::vector<double>& b, std::vector<double>& x, const Settings& s,
                          solvers::RefinementStatus& status) {
  const std::size_t n = A.rows;
  // --max-iterations caps float and double-float iterations together.
  const int budget = s.maxIterations ? *s.maxIterations - status.iterations
                                     : solvers::kDoubleFloatCgDefaults.maxIterations;
  if (budget <= 0) return 0;
  std::fprintf(stderr, "texstream-solve: %s; going on with double-float CG\n", status.message.c_str());
  linalg::SegmentOptions options;
  options.entryTails = true;
  const linalg::SegmentMatrix pairs(A, "A(pairs)", options);
  const linalg::PermutedMatrix::Internal P = pairs.internal();
  std::unique_ptr<solvers::JacobiPreconditioner> M;
  if (s.precond == "jacobi") M = std::make_unique<solvers::JacobiPreconditioner>(P, pairs.internalLayout());
  linalg::DoubleFloatVector user(n, "pairs(user order)");
  solvers::PairDefectCorrection host;
  host.rightHandSideNorm = std::sqrt(std::inner_product(b.begin(), b.end(), b.begin(), 0.0));
  host.defect = [&](linalg::DoubleFloatVector& r) {
    const std::vector<double> Ax = A.multiply(x);
    std::vector<double> rd(n);
    double rr = 0;
    for (std::size_t i = 0; i < n; ++i) rd[i] = b[i] - Ax[i], rr += rd[i] * rd[i];
    user.upload(rd);
    pairs.toInternal(user.hi(), r.mutableHi());
    pairs.toInternal(user.lo(), r.mutableLo());
    return std::sqrt(rr);
  };
  auto correct = [&](const linalg::DoubleFloatVector& c, double sign) {
    pairs.toUser(c.hi(), user.mutableHi());
    pairs.toUser(c.lo(), user.mutableLo());
    const std::vector<double> cd = user.download();
    for (std::size_t i = 0; i < n; ++i) x[i] += sign * cd[i];
  };
  host.addCorrection = [&](const linalg::DoubleFloatVector& c) { correct(c, 1.0); };
  host.subtractCorrection = [&](const linalg::DoubleFloatVector& c) { correct(c, -1.0); };
  solvers::RefinementOptions refinement;
  const int before = status.iterations;
  int soFar = before;
  refinement.onStep = [&soFar](int step, int inner, double relative) {
    soFar += inner;
    if (step > 0) {
      std::fprintf(stderr, "texstream-solve: iteration %d, relative residual %.3e (true, in double; double-float CG)\n",
                   soFar, relative);
    }
  };
  solvers::IterativeOptions inner;
  inner.tolerance = s.tolerance;
  inner.maxIterations = budget;
  inner.checkEvery = std::max(s.checkEvery, solvers::kDoubleFloatCgDefaults.checkEvery);
  const solvers::RefinementStatus refined =
      solvers::refineWithDoubleFloatCg(pairs.internalLayout(), host, P, inner, refinement,
                                       M ? M->inverseDiagonal() : nullptr);
  status.outcome = refined.outcome;
  status.iterations += refined.iterations;
  status.relativeResidual = refined.relativeResidual;
  status.trueRelativeResidual = refined.trueRelativeResidual;
  for (std::size_t i = 1; i < refined.residualHistory.size(); ++i) {
    status.residualHistory.push_back(refined.residualHistory[i]);
    status.checkedAt.push_back(before + refined.checkedAt[i]);
    status.innerIterations.push_back(refined.innerIterations[i - 1]);
  }
  status.message += "; then " + refined.message;
  return refined.iterations;
}

/// `activity` says what run() is doing ("reading A.mtx"), for the message when memory runs out.
int run(const Settings& s, const app::AppOptions& shared, std::string& activity) {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  activity = "reading " + s.matrixPath;
  const linalg::Csr A = linalg::readMatrixMarket(s.matrixPath);
  if (A.rows != A.cols) {
    badInput(s.matrixPath + ": the matrix is " + std::to_string(A.rows) + "x" + std::to_string(A.cols) +
             "; CG needs a square (symmetric positive definite) matrix");
  }
  const std::size_t n = A.rows;
  activity = "setting up the system of " + s.matrixPath;
  std::vector<double> b;
  const bool ones = s.rhsPath.empty();
  if (ones) {
    b = A.multiply(std::vector<double>(n, 1.0));
  } else {
    activity = "reading " + s.rhsPath;
    b = linalg::readMatrixMarketVector(s.rhsPath);
    activity = "setting up the system of " + s.matrixPath;
    if (b.size() != n) badInput(s.rhsPath + ": b has " + std::to_string(b.size()) + " rows, A is " + std::to_string(n) + "x" + std::to_string(n));
  }
  std::vector<double> x0(n, 0.0);
  if (!s.x0Path.empty()) {
    activity = "reading " + s.x0Path;
    x0 = linalg::readMatrixMarketVector(s.x0Path);
    activity = "setting up the system of " + s.matrixPath;
    if (x0.size() != n) badInput(s.x0Path + ": x0 has " + std::to_string(x0.size()) + " rows, A is " + std::to_string(n) + "x" + std::to_string(n));
  }
  if (s.precond == "jacobi") {
    const std::vector<double> diag = A.diagonal();
        for (std::size_t i = 0; i < n; ++i) {
      if (!(diag[i] != 0.0) || !std::isfinite(float(diag[i])) || !std::isfinite(1.0f / float(diag[i]))) {
        badInput(s.matrixPath + ": row " + std::to_string(i + 1) + " has diagonal " + std::to_string(diag[i]) +
                 ", which --precond jacobi cannot invert (use --precond none, or fix the matrix)");
      }
    }
  }
  if (!s.exportPetsc.empty()) {
    activity = "writing the system to " + s.exportPetsc;
    const std::vector<std::vector<double>> rhs = {b};
    for (const std::string& path : linalg::exportSystem(A, rhs, s.exportPetsc, linalg::SystemFileFormat::Petsc,
                                                        "texstream-solve " + s.matrixPath))
      std::cerr << "texstream-solve: wrote " << path << " (solve it with PETSc: apps/solve/petsc_solve.py)\n";
  }
  const double readMs = std::chrono::duration<double, std::milli>(clock::now() - t0).count();

  gl::HeadlessContext context(gl::HeadlessOptions{-1, shared.gl, false});
  stream::Runtime& rt = stream::Runtime::current();
  if (shared.backend == stream::Backend::Compute && !rt.caps().compute) {
    throw gl::Error("--backend compute: this context (" + rt.caps().apiName() + ", " + rt.caps().summary() +
                    ") has no compute shaders (OpenGL 4.3 or OpenGL ES 3.1 needed); use --backend auto or fragment");
  }
  rt.setDefaultBackend(stream::resolveBackend(shared.backend, rt.caps()));
  rt.profiler().setEnabled(shared.profile);

  const std::string format = s.format == "auto" ? chooseFormat(A) : s.format;
  const auto t1 = clock::now();
  const Operator op = buildOperator(A, s, format);
  const linalg::PermutedMatrix& matrix = *op.matrix;
  const linalg::PermutedMatrix::Internal Ai = matrix.internal();
  stream::Vector bUser(n, "b"), xUser(n, "x");
  bUser.upload(b);
  xUser.upload(x0);
  stream::Vector bi = matrix.makeInternalVector("b(internal)"), xi = matrix.makeInternalVector("x(internal)");
  matrix.toInternal(bUser, bi);
  matrix.toInternal(xUser, xi);
  std::unique_ptr<solvers::JacobiPreconditioner> M;
  if (s.precond == "jacobi") M = std::make_unique<solvers::JacobiPreconditioner>(Ai, matrix.internalLayout());
  const double setupMs = std::chrono::duration<double, std::milli>(clock::now() - t1).count();
  std::cerr << "texstream-solve: n = " << n << ", nnz = " << A.nonZeros() << ", " << op.description << ", "
            << stream::backendName(rt.defaultBackend()) << " backend" << (shared.backend ? "" : " (auto)") << ", "
            << context.description() << ", " << (M ? "Jacobi" : "no") << " preconditioner"
            << (ones ? ", b = A 1" : "") << "\n";

  solvers::IterativeOptions opts;
  opts.tolerance = s.tolerance;
  opts.maxIterations = s.maxIterations;
  opts.checkEvery = s.checkEvery;
  opts.onCheck = [](int iteration, double residual) {
    std::fprintf(stderr, "texstream-solve: iteration %d, relative residual %.3e\n", iteration, residual);
  };
  // The true residual in double precision against the file's A (CG's own is a float
  // recurrence): the verdict is its (solvers::holdToTrueResidual).
  double bb = 0;
  for (double v : b) bb += v * v;
  auto trueRelativeResidual = [&](const std::vector<double>& xd) {
    const std::vector<double> Ax = A.multiply(xd);
    double rr = 0;
    for (std::size_t i = 0; i < n; ++i) rr += (b[i] - Ax[i]) * (b[i] - Ax[i]);
    return bb > 0 ? std::sqrt(rr / bb) : std::sqrt(rr);
  };
  // --precision auto: mixed below kFloatCgReach; above it float CG first, and a system it
  // cannot bring to the tolerance (solvers::needsMixedPrecision) again in mixed precision.
  bool mixed = s.precision == solvers::Precision::Mixed || (s.precision == solvers::Precision::Auto && s.tolerance < kFloatCgReach);
  solvers::RefinementStatus refinement;
  std::vector<double> x;
  double trueResidual = 0;
  int pairIterations = -1;  // double-float CG's iterations, where it ran
  std::optional<solvers::SolverStatus> single;  // the float attempt auto solved again
  if (!mixed) {
    static_cast<solvers::SolverStatus&>(refinement) = solvers::cg(Ai, bi, xi, opts, M.get());
    matrix.toUser(xi, xUser);
    const std::vector<float> xf = xUser.download();
    x.assign(xf.begin(), xf.end());
    trueResidual = trueRelativeResidual(x);
    solvers::holdToTrueResidual(refinement, trueResidual, s.tolerance, "in double",
                                "solve in mixed precision (--precision mixed)");
    if (s.precision == solvers::Precision::Auto && solvers::needsMixedPrecision(refinement)) {
      std::fprintf(stderr, "texstream-solve: %s; solving again in mixed precision (--precision auto)\n",
                   refinement.message.c_str());
      single = refinement;
      mixed = true;
    }
  }
  if (mixed) {
    // The matrix on the GPU holds A's entries rounded to float. Mixed-precision CG
    // (solvers/krylov/MixedPrecisionCg.h): float CG on the GPU whose residual is replaced, each
    // time it falls by --inner-tol, by b - A x formed in double on the CPU against the
    // file's A, x kept in double here; until the true residual meets --tolerance or stops falling.
    x = x0;
    stream::Vector rUser(n, "r"), cUser(n, "c");
    solvers::DefectCorrection host;
    host.rightHandSideNorm = std::sqrt(bb);
    host.defect = [&](stream::Vector& r) {
      const std::vector<double> Ax = A.multiply(x);
      std::vector<float> rf(n);
      double rr = 0;
      for (std::size_t i = 0; i < n; ++i) {
        rf[i] = float(b[i] - Ax[i]);
        rr += (b[i] - Ax[i]) * (b[i] - Ax[i]);
      }
      rUser.upload(rf);
      matrix.toInternal(rUser, r);
      return std::sqrt(rr);
    };
    host.addCorrection = [&](const stream::Vector& c) {
      matrix.toUser(c, cUser);
      const std::vector<float> cf = cUser.download();
      for (std::size_t i = 0; i < n; ++i) x[i] += double(cf[i]);
    };
    host.setSolutionZero = [&] { std::fill(x.begin(), x.end(), 0.0); };
    solvers::RefinementOptions ro;
    ro.innerTolerance = s.innerTolerance;
    int iterationsSoFar = 0;
    ro.onStep = [&](int, int inner, double relative) {
      iterationsSoFar += inner;
      std::fprintf(stderr, "texstream-solve: iteration %d, relative residual %.3e (true, in double)\n", iterationsSoFar,
                   relative);
    };
    solvers::CgOptions cgo = opts;
    cgo.onCheck = nullptr;
    // With --max-iterations, float CG gets half of it and double-float CG the rest (a float
    // residual can fall for thousands of iterations where the true one no longer moves).
    cgo.maxIterations = s.maxIterations ? (*s.maxIterations + 1) / 2 : solvers::kMixedPrecisionCgDefaults.maxIterations;
    refinement = solvers::cg(matrix.internalLayout(), host, Ai, cgo, M.get(), ro);
    if (!refinement.converged() && refinement.outcome != solvers::Outcome::NonFinite) {
      pairIterations = continueInDoubleFloat(A, b, x, s, refinement);
    }
    trueResidual = trueRelativeResidual(x);
  }
  const solvers::SolverStatus& status = refinement;
  double errorMax = 0;
  if (ones) {
    for (double v : x) errorMax = std::max(errorMax, std::abs(v - 1.0));
  }

  std::printf("%s: %s after %d iterations, relative residual %.3e (true %.3e), %.2f ms solve, %.2f ms set-up\n",
              s.matrixPath.c_str(), solvers::outcomeName(status.outcome), status.iterations, status.relativeResidual,
              trueResidual, status.milliseconds, setupMs);
  if (ones) std::printf("exact solution all ones: max |x_i - 1| = %.3e\n", errorMax);
  if (!status.converged()) std::fprintf(stderr, "texstream-solve: %s\n", status.message.c_str());

  if (!s.outPath.empty()) {
    linalg::writeMatrixMarketVector(s.outPath, x, "texstream-solve " + s.matrixPath + ": " +
                                                      solvers::outcomeName(status.outcome) + " after " +
                                                      std::to_string(status.iterations) + " iterations");
  }
  if (!shared.json.empty()) {
    nlohmann::ordered_json j;
    j["n"] = n;
    j["nnz"] = A.nonZeros();
    j["format"] = format;
    j["status"] = solvers::outcomeName(status.outcome);
    j["iterations"] = status.iterations;
    j["relative_residual"] = status.relativeResidual;
    j["ms"] = status.milliseconds;
    j["format_requested"] = s.format;
    j["storage"] = op.description;
    j["backend"] = stream::backendName(rt.defaultBackend());
    j["precond"] = s.precond;
    j["precision"] = mixed ? "mixed" : "single";
    j["precision_requested"] = stream::nameOf(solvers::precisionNames(), s.precision);
    if (single) {
      // --precision auto: the float solve that could not reach --tolerance, solved again in mixed.
      j["single_precision_attempt"] = {{"status", solvers::outcomeName(single->outcome)},
                                       {"iterations", single->iterations},
                                       {"relative_residual", single->relativeResidual},
                                       {"true_relative_residual", single->trueRelativeResidual},
                                       {"message", single->message}};
    }
    if (mixed) {
      j["inner_tolerance"] = s.innerTolerance;
      j["outer_steps"] = refinement.outerSteps();
      j["inner_iterations"] = refinement.innerIterations;
      if (pairIterations >= 0) j["double_float_iterations"] = pairIterations;
    }
    j["tolerance"] = s.tolerance;
    j["max_iterations"] = s.maxIterations.value_or(solvers::kCgDefaults.maxIterations);
    j["true_relative_residual"] = trueResidual;  // in double: what the verdict ("status") judges
    j["message"] = status.message;
    j["rhs"] = ones ? "A*1" : s.rhsPath;
    if (ones) j["max_error_vs_ones"] = errorMax;
    j["read_ms"] = readMs;
    j["setup_ms"] = setupMs;
    j["renderer"] = rt.caps().summary();
    j["residual_history"] = status.residualHistory;
    j["checked_at"] = status.checkedAt;
    if (shared.profile) {
      rt.profiler().collect();
      nlohmann::ordered_json passes = nlohmann::ordered_json::object();
      for (const auto& [label, stat] : rt.profiler().stats()) passes[label] = {{"ms", stat.totalMs}, {"passes", stat.passes}};
      j["gpu_passes"] = passes;
    }
    std::ofstream out(shared.json);
    out << j.dump(2) << "\n";
    if (!out) throw std::runtime_error("--json: cannot write " + shared.json);
  }
  return status.converged() ? 0 : kNotConverged;
}

int runMain(int argc, char** argv) {
  app::AppOptions defaults;
  defaults.headless = true;
  app::CommandLine cmd("texstream-solve", kDescription, defaults);
  CLI::App& cli = cmd.cli();
  // A headless tool: the window and grid options of the demos do not apply.
  for (const char* name : {"--headless", "--size", "--steps", "--screenshot"}) cli.remove_option(cli.get_option(name));
  Settings s;
  app::SettingTable table;
  describeSettings(table, s);
  table.addTo(cli, "Options");
  const auto exitCode = cmd.parse(argc, argv, [&] { table.applyCommandLine(); });
  if (exitCode) return *exitCode;

  std::string activity;
  try {
    return run(s, cmd.options(), activity);
  } catch (const gl::Error& e) {
    std::cerr << "texstream-solve: " << e.what() << "\n";
    return kGpuFailure;
  } catch (const std::invalid_argument& e) {  // MatrixMarketError, bad sizes, bad matrices
    std::cerr << "texstream-solve: " << e.what() << "\n";
    return kBadInput;
  } catch (const std::bad_alloc& e) {
    std::cerr << "texstream-solve: out of host memory while " << activity << " (" << e.what() << ")\n";
    return kOtherFailure;
  } catch (const std::exception& e) {
    std::cerr << "texstream-solve: " << e.what() << "\n";
    return kOtherFailure;
  }
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return runMain(argc, argv);
  } catch (...) {
    return texstream::app::failedMain("texstream-solve", kOtherFailure);
  }
}
