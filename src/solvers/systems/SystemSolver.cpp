// The CNC's pipeline (Buatois et al. 2008, §1-2): a system built on the CPU, its matrix
// uploaded once, CG (or CGLS) on the GPU, the result gathered back into the user's
// variable order on the GPU.
#include <texstream/solvers/systems/SystemSolver.h>

#include <texstream/gl/Error.h>
#include <texstream/linalg/BcrsMatrix.h>
#include <texstream/linalg/CsrProducts.h>
#include <texstream/linalg/SegmentMatrix.h>
#include <texstream/solvers/multigrid/AggregationMultigrid.h>
#include <texstream/solvers/krylov/Cgls.h>
#include <texstream/solvers/krylov/ConjugateGradient.h>
#include <texstream/solvers/stationary/JacobiPreconditioner.h>
#include <texstream/solvers/SolverInputs.h>
#include <texstream/stream/Pass.h>

#include <glad/gl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

namespace texstream::solvers {
inline namespace systems {

namespace {

/// The relative residual CG in float reliably reaches on the systems here (its own
/// rounding of b - A x stalls near it); defect correction takes over below.
constexpr float kFloatReach = 1e-6f;

/// Where the first float solve stops when defect correction follows. On matrices whose
/// float rounding limits CG (LSCM's normal equations: b - A x stays near 1e-4 of b while
/// the updated residual falls on) float iterations past this gain nothing real, and a
/// round in double goes on from the true residual instead; on systems float solves well
/// it costs one round more (a CPU residual and a restart), the same iterations in all.
constexpr float kFirstSolveReach = 1e-4f;

double msSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

/// A (m x n) as the top-left corner of a square matrix of size max(m, n).
linalg::Csr embedSquare(const linalg::Csr& A) {
  linalg::Csr S = A;
  const std::size_t N = std::max(A.rows, A.cols);
  S.rows = S.cols = N;
  S.rowPtr.resize(N + 1, S.rowPtr.back());
  return S;
}

}  // namespace

const char* leastSquaresRouteName(LeastSquaresRoute route) {
  return route == LeastSquaresRoute::Cgls ? "cgls" : "normal";
}

const char* systemPreconditionerName(SystemPreconditioner p) {
  switch (p) {
    case SystemPreconditioner::Auto: return "auto";
    case SystemPreconditioner::None: return "none";
    case SystemPreconditioner::Jacobi: return "jacobi";
    case SystemPreconditioner::Multigrid: return "multigrid";
  }
  return "?";
}

const char* systemMatrixFormatName(SystemMatrixFormat format) {
  switch (format) {
    case SystemMatrixFormat::Auto: return "auto";
    case SystemMatrixFormat::Segment: return "segment";
    case SystemMatrixFormat::Bcrs2: return "bcrs2";
    case SystemMatrixFormat::Bcrs4: return "bcrs4";
  }
  return "?";
}

struct SystemSolver::Gpu {
  std::unique_ptr<linalg::BcrsMatrix> bcrs;
  std::unique_ptr<linalg::SegmentMatrix> segment, segmentTransposed;
  std::unique_ptr<linalg::LinearOperator> op, opTransposed;  // internal order
  const linalg::RowPermutation* permutation = nullptr;
  std::unique_ptr<Preconditioner> preconditioner;
  std::vector<stream::Vector> b, x, values, locked;
  stream::Vector index;  // per scalar: the internal position of its unknown, -1 where locked
  // The double-precision copies defect correction works with: N and f_k (NormalEquations)
  // or the scaled rows A and b_k (Cgls), and ||f_k|| (||A^T b_k||).
  linalg::Csr matrix;
  std::vector<std::vector<double>> rhs;
  std::vector<double> rhsNorm;
  stream::Vector correctionB, correctionX;
  // The double-precision unknowns defect correction produced (empty: none, or stale), and
  // what downloadValues() needs to expand them.
  std::vector<std::vector<double>> refined;
  std::vector<std::int32_t> scalarOfUnknown;
  std::vector<std::vector<double>> lockedValues;
};

CgOptions SystemSolverOptions::defaultCg() {
  CgOptions cg;
  cg.tolerance = 1e-6f;
  cg.maxIterations = 5000;
  cg.checkEvery = 8;
  return cg;
}

SystemSolver::SystemSolver(const linalg::LinearSystem& system, SystemSolverOptions options)
    : m_name(system.name()), m_options(std::move(options)), m_mode(system.mode()), m_systems(system.systems()),
      m_unknowns(system.unknowns()), m_rows(system.rowCount()), m_scalars(system.scalars()), m_gpu(std::make_unique<Gpu>()) {
  const std::string where = "SystemSolver(\"" + m_name + "\")";
  // The unset limits take SystemSolver's defaults, so that options() shows what runs.
  m_options.cg.maxIterations = m_options.cg.maxIterations.value_or(5000);
  m_options.cg.checkEvery = m_options.cg.checkEvery.value_or(8);
  requireIterationOptions(where, m_options.cg.tolerance, *m_options.cg.maxIterations, *m_options.cg.checkEvery);
  if (m_options.refinementSteps < 0)
    throw std::invalid_argument(where + ": refinementSteps must be >= 0, got " + std::to_string(m_options.refinementSteps));
  const bool cglsRoute = m_mode == linalg::SystemMode::LeastSquares && m_options.route == LeastSquaresRoute::Cgls;
  if (m_mode == linalg::SystemMode::Square && !system.symmetric())
    throw std::invalid_argument(where + ": the square system is not symmetric; CG needs a symmetric positive definite "
                                        "matrix (build it in least-squares mode instead)");
  m_format = m_options.format;
  m_preconditioner = m_options.preconditioner;
  if (m_preconditioner == SystemPreconditioner::Auto)
    m_preconditioner = cglsRoute ? SystemPreconditioner::Jacobi : SystemPreconditioner::Multigrid;
  if (cglsRoute && m_preconditioner == SystemPreconditioner::Multigrid)
    throw std::invalid_argument(where + ": the multigrid preconditioner needs the normal matrix; CGLS never forms it "
                                        "(use the normal-equations route, or the Jacobi preconditioner)");
  if (cglsRoute) m_format = SystemMatrixFormat::Segment;
  else if (m_format == SystemMatrixFormat::Auto)
    m_format = system.blockSize() == 2   ? SystemMatrixFormat::Bcrs2
               : system.blockSize() == 4 ? SystemMatrixFormat::Bcrs4
                                         : SystemMatrixFormat::Segment;

  Gpu& g = *m_gpu;
  std::vector<double> inverseColumnNorms;
  auto t0 = std::chrono::steady_clock::now();
  linalg::Csr N;
  if (cglsRoute) {
    inverseColumnNorms.assign(m_unknowns, 0.0);
    const linalg::Csr& A = system.rows();
    for (std::size_t k = 0; k < A.nonZeros(); ++k) inverseColumnNorms[std::size_t(A.colIdx[k])] += A.values[k] * A.values[k];
    for (std::size_t j = 0; j < m_unknowns; ++j) {
      if (!(inverseColumnNorms[j] > 0.0))
        throw std::invalid_argument(where + ": unknown " + std::to_string(j) + " (scalar " +
                                    std::to_string(system.scalarOfUnknown()[j]) +
                                    ") has only zero coefficients: nothing determines it");
      inverseColumnNorms[j] = 1.0 / inverseColumnNorms[j];
    }
  } else {
    N = system.matrix();
    if (m_mode == linalg::SystemMode::LeastSquares) m_setup.normalMatrixMs = msSince(t0);
  }

  t0 = std::chrono::steady_clock::now();
  std::vector<std::int32_t> unknownPosition(m_unknowns);
  if (!cglsRoute) {
    m_setup.matrixRows = N.rows;
    m_setup.matrixNonZeros = N.nonZeros();
    g.matrix = std::move(N);  // where the GPU matrix and the hierarchy read it from
  }
  const bool multigrid = m_preconditioner == SystemPreconditioner::Multigrid;
  AggregationMultigridOptions mo;
  if (multigrid) {
    // Nodes of the aggregation: the variables' blocks (a BCRS matrix's blocks), scalars when
    // locking left a system of partial blocks.
    mo.hierarchy.blockSize = m_format == SystemMatrixFormat::Bcrs4 ? 4 : m_format == SystemMatrixFormat::Bcrs2 ? 2 : system.blockSize();
    if (g.matrix.rows % std::size_t(mo.hierarchy.blockSize) != 0) mo.hierarchy.blockSize = 1;
    for (std::size_t j = 0; j < m_options.nearNullSpace.size(); ++j) {
      const std::vector<double>& scalars = m_options.nearNullSpace[j];
      if (scalars.size() != m_scalars)
        throw std::invalid_argument(where + ": near-null vector " + std::to_string(j) + " has " +
                                    std::to_string(scalars.size()) + " values, the system " + std::to_string(m_scalars) +
                                    " scalars");
      std::vector<double> unknowns(m_unknowns);
      for (std::size_t u = 0; u < m_unknowns; ++u) unknowns[u] = scalars[std::size_t(system.scalarOfUnknown()[u])];
      mo.hierarchy.nearNullSpace.push_back(std::move(unknowns));
    }
  }
  auto uploadMatrix = [&] {
    if (cglsRoute) {
      const linalg::Csr square = embedSquare(system.rows());
      g.segment = std::make_unique<linalg::SegmentMatrix>(square, m_name + ".A");
      g.segmentTransposed = std::make_unique<linalg::SegmentMatrix>(g.segment->transposed(m_name + ".At"));
      g.op = std::make_unique<linalg::SegmentMatrix::Internal>(*g.segment);
      g.opTransposed = std::make_unique<linalg::SegmentMatrix::Internal>(*g.segmentTransposed);
      g.permutation = &g.segment->permutation();
      m_setup.matrixRows = square.rows;
      m_setup.matrixNonZeros = 2 * square.nonZeros();
    } else if (m_format == SystemMatrixFormat::Segment) {
      g.segment = std::make_unique<linalg::SegmentMatrix>(g.matrix, m_name + ".N");
      g.op = std::make_unique<linalg::SegmentMatrix::Internal>(*g.segment);
      g.permutation = &g.segment->permutation();
    } else {
      linalg::BcrsOptions bo;
      bo.blockSize = m_format == SystemMatrixFormat::Bcrs4 ? 4 : 2;
      g.bcrs = std::make_unique<linalg::BcrsMatrix>(g.matrix, m_name + ".N", bo);
      g.op = std::make_unique<linalg::BcrsMatrix::Internal>(*g.bcrs);
      g.permutation = &g.bcrs->permutation();
    }
  };
  // With multigrid, the hierarchy is built on a second thread while this one uploads the
  // matrix and then the levels (AggregationMultigrid.h); the time it adds beyond the upload
  // is multigridMs.
  double uploadMatrixMs = 0;
  std::unique_ptr<AggregationMultigrid> amg;
  if (multigrid) {
    const auto tm = std::chrono::steady_clock::now();
    amg = std::make_unique<AggregationMultigrid>(
        g.matrix,
        [&]() -> const linalg::PermutedMatrix& {
          const auto tu = std::chrono::steady_clock::now();
          uploadMatrix();
          uploadMatrixMs = msSince(tu);
          return g.bcrs ? static_cast<const linalg::PermutedMatrix&>(*g.bcrs) : *g.segment;
        },
        mo, m_name + ".amg");
    m_setup.multigridMs = msSince(tm) - uploadMatrixMs;
  } else {
    uploadMatrix();
  }
  if (cglsRoute) g.matrix = system.rows();
  const stream::Layout& internal = g.permutation->internalLayout();
  const std::size_t internalUser = g.permutation->userSize();  // n, or max(m, n) for CGLS
  for (std::size_t u = 0; u < m_unknowns; ++u) unknownPosition[u] = g.permutation->userToInternal()[u];

  if (m_preconditioner == SystemPreconditioner::Jacobi) {
    if (cglsRoute) {
      inverseColumnNorms.resize(internalUser, 0.0);
      stream::Vector d(internal, m_name + ".inverseColumnNorms");
      d.upload(g.permutation->toInternal(inverseColumnNorms));
      g.preconditioner = std::make_unique<JacobiPreconditioner>(JacobiPreconditioner::fromInverseDiagonal(std::move(d)));
    } else {
      g.preconditioner = std::make_unique<JacobiPreconditioner>(*g.op, internal);
    }
  } else if (multigrid) {
    m_setup.multigridLevels = amg->stats().levels;
    m_setup.multigrid = amg->stats();
    g.preconditioner = std::move(amg);
  }

  std::vector<float> index(m_scalars, -1.0f);
  for (std::size_t u = 0; u < m_unknowns; ++u)
    index[std::size_t(system.scalarOfUnknown()[u])] = float(unknownPosition[u]);
  g.scalarOfUnknown = system.scalarOfUnknown();
  g.refined.assign(std::size_t(m_systems), {});
  g.index = stream::Vector(m_scalars, m_name + ".index");
  g.index.upload(index);
  for (int k = 0; k < m_systems; ++k) {
    const std::string suffix = m_systems > 1 ? std::to_string(k) : std::string();
    g.b.emplace_back(internal, m_name + ".b" + suffix);
    g.x.emplace_back(internal, m_name + ".x" + suffix);
    g.values.emplace_back(m_scalars, m_name + ".values" + suffix);
    g.locked.emplace_back(m_scalars, m_name + ".locked" + suffix);
  }
  if (m_options.refinementSteps > 0) {
    g.correctionB = stream::Vector(internal, m_name + ".correctionB");
    g.correctionX = stream::Vector(internal, m_name + ".correctionX");
  }
  uploadRightHandSides(system);
  resetToInitialGuess(system);
  m_status.resize(std::size_t(m_systems));
  glFinish();
  m_setup.uploadMs = msSince(t0) - m_setup.multigridMs;
}

SystemSolver::~SystemSolver() = default;

void SystemSolver::requireSystem(const char* where, int system) const {
  if (system < 0 || system >= m_systems)
    throw std::invalid_argument("SystemSolver(\"" + m_name + "\")::" + where + ": system " + std::to_string(system) +
                                " does not exist (" + std::to_string(m_systems) + " right-hand sides)");
}

void SystemSolver::uploadRightHandSides(const linalg::LinearSystem& system) {
  Gpu& g = *m_gpu;
  const bool cglsRoute = g.segmentTransposed != nullptr;
  g.rhs.assign(std::size_t(m_systems), {});
  g.lockedValues.assign(std::size_t(m_systems), {});
  g.rhsNorm.assign(std::size_t(m_systems), 0.0);
  for (int k = 0; k < m_systems; ++k) {
    std::vector<double> rhs = cglsRoute ? system.scaledRhs(k) : system.rhs(k);
    const std::vector<double> normal = cglsRoute ? linalg::transposeMultiply(g.matrix, rhs) : rhs;
    double norm = 0;
    for (double v : normal) norm += v * v;
    g.rhsNorm[std::size_t(k)] = std::sqrt(norm);
    g.rhs[std::size_t(k)] = rhs;
    rhs.resize(g.permutation->userSize(), 0.0);
    g.b[std::size_t(k)].upload(g.permutation->toInternal(rhs));
    g.lockedValues[std::size_t(k)] = system.lockedValues(k);
    g.locked[std::size_t(k)].upload(g.lockedValues[std::size_t(k)]);
  }
}

void SystemSolver::updateRightHandSides(const linalg::LinearSystem& system) {
  if (system.unknowns() != m_unknowns || system.rowCount() != m_rows || system.systems() != m_systems ||
      system.scalars() != m_scalars || system.mode() != m_mode)
    throw std::invalid_argument("SystemSolver(\"" + m_name + "\")::updateRightHandSides: system \"" + system.name() +
                                "\" has another shape than the one this solver was built from");
  uploadRightHandSides(system);
  for (int k = 0; k < m_systems; ++k) expand(k);
}

void SystemSolver::resetToInitialGuess(const linalg::LinearSystem& system) {
  if (system.unknowns() != m_unknowns || system.systems() != m_systems)
    throw std::invalid_argument("SystemSolver(\"" + m_name + "\")::resetToInitialGuess: system \"" + system.name() +
                                "\" has another shape than the one this solver was built from");
  Gpu& g = *m_gpu;
  for (int k = 0; k < m_systems; ++k) {
    std::vector<double> x0 = system.initialGuess(k);
    x0.resize(g.permutation->userSize(), 0.0);
    g.x[std::size_t(k)].upload(g.permutation->toInternal(x0));
    g.refined[std::size_t(k)].clear();
    expand(k);
  }
}

void SystemSolver::expand(int system) {
  Gpu& g = *m_gpu;
  stream::Vector& out = g.values[std::size_t(system)];
  stream::Pass("linalg/expand_unknowns")
      .label("system expand")
      .input("u_index", g.index)
      .input("u_source", g.x[std::size_t(system)])
      .input("u_locked", g.locked[std::size_t(system)])
      .uniform("u_width", out.layout().width())
      .uniform("u_n", int(m_scalars))
      .output(out)
      .run();
}

SolverStatus SystemSolver::runCg(const stream::Vector& b, stream::Vector& x, float tolerance) {
  CgOptions o = m_options.cg;
  o.tolerance = tolerance;
  // Defect correction in double follows: it, not a restart in float, removes the drift.
  o.restartOnDrift = o.restartOnDrift && m_options.refinementSteps == 0;
  return cg(*m_gpu->op, b, x, o, m_gpu->preconditioner.get());
}

SolverStatus SystemSolver::runCgls(const stream::Vector& b, stream::Vector& x, float tolerance) {
  CglsOptions o = m_options.cg;
  o.tolerance = tolerance;
  return cgls(*m_gpu->op, *m_gpu->opTransposed, b, x, o, m_gpu->preconditioner.get());
}

SolverStatus SystemSolver::runSolver(const stream::Vector& b, stream::Vector& x, float tolerance) {
  return m_gpu->segmentTransposed ? runCgls(b, x, tolerance) : runCg(b, x, tolerance);
}

double SystemSolver::doubleResidual(int system, const std::vector<double>& x, std::vector<double>& correctionRhs) const {
  const Gpu& g = *m_gpu;
  const std::vector<double>& rhs = g.rhs[std::size_t(system)];
  std::vector<double> product(g.matrix.rows);
  linalg::multiplyVector(g.matrix, x, product);  // on threads for large matrices
  correctionRhs.resize(rhs.size());
  for (std::size_t i = 0; i < rhs.size(); ++i) correctionRhs[i] = rhs[i] - product[i];
  const std::vector<double> normal = g.segmentTransposed ? linalg::transposeMultiply(g.matrix, correctionRhs) : correctionRhs;
  double norm = 0;
  for (double v : normal) norm += v * v;
  const double reference = g.rhsNorm[std::size_t(system)];
  return reference > 0 ? std::sqrt(norm) / reference : std::sqrt(norm);
}

void SystemSolver::refine(int system, SolverStatus& status) {
  Gpu& g = *m_gpu;
  stream::Vector& x = g.x[std::size_t(system)];
  const auto toUnknowns = [&](const stream::Vector& internal) {
    const std::vector<float> f = internal.download();
    std::vector<double> user = g.permutation->toUser(std::vector<double>(f.begin(), f.end()));
    user.resize(m_unknowns);
    return user;
  };
  std::vector<double> xd = toUnknowns(x), correction;
  double relres = doubleResidual(system, xd, correction);
  const double tol = m_options.cg.tolerance;
  int rounds = 0;
  // A float solve that stopped far from the tolerance (the cap) is not worth correcting.
  // CGLS's correction would need b - A x in float, whose rounding (relative to the large
  // least-squares residual) swamps the part A^T sees: its result is only checked.
  const bool worthIt = !g.segmentTransposed && (status.converged() || relres <= 1e3 * std::max(tol, double(kFloatReach)));
  // Rounds go on while each gains at least 2x: where the float-rounded matrix itself limits
  // the corrections (condition number times float's rounding near 1) they gain a constant
  // factor each, and a round that gains less ends the refinement.
  bool stalled = false;
  std::string correctionFailure;  // why a correction solve failed, if one did
  while (worthIt && relres > tol && std::isfinite(relres) && rounds < m_options.refinementSteps) {
    // Each round asks for the reduction still missing (at least 1e-3: float's reach).
    const float inner = float(std::clamp(0.5 * tol / relres, 1e-3, 0.5));
    correction.resize(g.permutation->userSize(), 0.0);
    g.correctionB.upload(g.permutation->toInternal(correction));
    g.correctionX.setZero();
    const SolverStatus c = runSolver(g.correctionB, g.correctionX, inner);
    status.iterations += c.iterations;
    status.milliseconds += c.milliseconds;
    if (c.outcome == Outcome::NonFinite || c.outcome == Outcome::Breakdown) {
      correctionFailure = c.message;
      break;
    }
    ++rounds;
    const std::vector<double> e = toUnknowns(g.correctionX);
    for (std::size_t i = 0; i < m_unknowns; ++i) xd[i] += e[i];
    const double before = relres;
    relres = doubleResidual(system, xd, correction);
    if (relres > before) {  // the correction made things worse: undone
      for (std::size_t i = 0; i < m_unknowns; ++i) xd[i] -= e[i];
      relres = doubleResidual(system, xd, correction);
    }
    // A round asked for a reduction of `inner`; one that gains less than 2x (or than half of
    // what a modest request asked) ends the refinement.
    if (relres > tol && !(relres < std::max(0.5, 2.0 * double(inner)) * before)) {
      stalled = true;
      break;
    }
  }
  if (rounds > 0) {
    g.refined[std::size_t(system)] = xd;
    xd.resize(g.permutation->userSize(), 0.0);
    x.upload(g.permutation->toInternal(xd));
  }
  status.relativeResidual = relres;
  status.residualHistory.push_back(relres);
  status.checkedAt.push_back(status.iterations);
  const std::string verdict = std::string("; in double: ") +
                              (g.segmentTransposed ? "||A^T (b - A x)||/||A^T b|| = " : "||f - N x||/||f|| = ") +
                              formatNumber(relres) +
                              (rounds > 0 ? " after " + std::to_string(rounds) + " round" + (rounds > 1 ? "s" : "") +
                                                " of defect correction"
                                          : "");
  status.message += verdict;
  // The checked-only CGLS result gets cgls()'s allowance for drift (2x, as cgls() accepts
  // its true residual).
  if (relres <= (g.segmentTransposed ? 2.0 * tol : tol)) {
    status.outcome = Outcome::Converged;
  } else if (status.outcome == Outcome::Converged) {
    status.outcome = Outcome::MaxIterations;
    status.message += " > " + formatNumber(tol) +
                      (g.segmentTransposed ? " (CGLS reaches float's accuracy only: use the normal equations route or a looser tolerance)"
                                           : stalled ? " (defect correction stalled: the last round gained less than 2x; the "
                                                       "matrix rounded to float limits it, loosen the tolerance)"
                                           : !correctionFailure.empty()
                                               ? " (the next correction's float solve failed: " + correctionFailure +
                                                     "; the matrix rounded to float limits it, loosen the tolerance)"
                                               : " (raise refinementSteps or the tolerance)");
  }
}

SolverStatus SystemSolver::solve(int system) {
  requireSystem("solve", system);
  m_gpu->refined[std::size_t(system)].clear();
  // With defect correction (CG) the float solve stops early and the rounds in double go
  // on; CGLS's result is only checked, so it asks for what float reaches.
  const bool refined = m_options.refinementSteps > 0;
  const float first = !refined ? m_options.cg.tolerance
                      : std::max(m_options.cg.tolerance, m_gpu->segmentTransposed ? kFloatReach : kFirstSolveReach);
  SolverStatus status = runSolver(m_gpu->b[std::size_t(system)], m_gpu->x[std::size_t(system)], first);
  if (refined && status.outcome != Outcome::NonFinite && status.outcome != Outcome::Breakdown) refine(system, status);
  expand(system);
  m_status[std::size_t(system)] = status;
  return status;
}

SolverStatus SystemSolver::solveAll() {
  SolverStatus worst;
  for (int k = 0; k < m_systems; ++k) {
    SolverStatus s = solve(k);
    if (k == 0 || (!s.converged() && worst.converged()) || (s.converged() == worst.converged() && s.iterations > worst.iterations))
      worst = s;
  }
  return worst;
}

const stream::Vector& SystemSolver::values(int system) const {
  requireSystem("values", system);
  return m_gpu->values[std::size_t(system)];
}

std::vector<double> SystemSolver::downloadValues(int system) const {
  const std::vector<float> v = values(system).download();
  std::vector<double> all(v.begin(), v.end());
  const Gpu& g = *m_gpu;
  const std::vector<double>& refined = g.refined[std::size_t(system)];
  const std::vector<double>& locked = g.lockedValues[std::size_t(system)];
  std::vector<std::uint8_t> isUnknown(m_scalars, 0);
  for (std::size_t u = 0; u < m_unknowns; ++u) {
    const std::size_t s = std::size_t(g.scalarOfUnknown[u]);
    isUnknown[s] = 1;
    if (!refined.empty()) all[s] = refined[u];
  }
  for (std::size_t s = 0; s < m_scalars; ++s)
    if (!isUnknown[s]) all[s] = locked[s];  // exact, not their float copies
  return all;
}

void SystemSolver::setTolerance(float tolerance, int maxIterations) {
  requireIterationOptions("SystemSolver(\"" + m_name + "\")", tolerance, maxIterations, *m_options.cg.checkEvery);
  m_options.cg.tolerance = tolerance;
  m_options.cg.maxIterations = maxIterations;
}

const SolverStatus& SystemSolver::lastStatus(int system) const {
  requireSystem("lastStatus", system);
  return m_status[std::size_t(system)];
}

const linalg::LinearOperator& SystemSolver::matrixOperator() const { return *m_gpu->op; }

}  // namespace systems
}  // namespace texstream::solvers
