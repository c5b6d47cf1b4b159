// The CNC's pipeline (Buatois et al. 2008, §1-2): a system built on the CPU, its matrix
// uploaded once, CG (or CGLS) on the GPU, the result gathered back into the user's
// variable order on the GPU.
#include <texstream/solvers/SystemSolver.h>

#include <texstream/gl/Error.h>
#include <texstream/linalg/BcrsMatrix.h>
#include <texstream/linalg/CsrProducts.h>
#include <texstream/linalg/SegmentMatrix.h>
#include <texstream/solvers/Cgls.h>
#include <texstream/solvers/ConjugateGradient.h>
#include <texstream/solvers/JacobiPreconditioner.h>
#include <texstream/solvers/SolverInputs.h>
#include <texstream/stream/Pass.h>

#include <glad/gl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

namespace texstream::solvers {

namespace {

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
  std::unique_ptr<JacobiPreconditioner> jacobi;
  std::vector<stream::Vector> b, x, values, locked;
  stream::Vector index;  // per scalar: the internal position of its unknown, -1 where locked
};

SystemSolver::SystemSolver(const linalg::LinearSystem& system, SystemSolverOptions options)
    : m_name(system.name()), m_options(std::move(options)), m_mode(system.mode()), m_systems(system.systems()),
      m_unknowns(system.unknowns()), m_rows(system.rowCount()), m_scalars(system.scalars()), m_gpu(std::make_unique<Gpu>()) {
  const std::string where = "SystemSolver(\"" + m_name + "\")";
  requireIterationOptions(where, m_options.tolerance, m_options.maxIterations, m_options.checkEvery);
  const bool cglsRoute = m_mode == linalg::SystemMode::LeastSquares && m_options.route == LeastSquaresRoute::Cgls;
  if (m_mode == linalg::SystemMode::Square && !system.symmetric())
    throw std::invalid_argument(where + ": the square system is not symmetric; CG needs a symmetric positive definite "
                                        "matrix (build it in least-squares mode instead)");
  m_format = m_options.format;
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
    g.segment = std::make_unique<linalg::SegmentMatrix>(N, m_name + ".N");
    g.op = std::make_unique<linalg::SegmentMatrix::Internal>(*g.segment);
    g.permutation = &g.segment->permutation();
  } else {
    linalg::BcrsOptions bo;
    bo.blockSize = m_format == SystemMatrixFormat::Bcrs4 ? 4 : 2;
    g.bcrs = std::make_unique<linalg::BcrsMatrix>(N, m_name + ".N", bo);
    g.op = std::make_unique<linalg::BcrsMatrix::Internal>(*g.bcrs);
    g.permutation = &g.bcrs->permutation();
  }
  if (!cglsRoute) {
    m_setup.matrixRows = N.rows;
    m_setup.matrixNonZeros = N.nonZeros();
  }
  const stream::Layout& internal = g.permutation->internalLayout();
  const std::size_t internalUser = g.permutation->userSize();  // n, or max(m, n) for CGLS
  for (std::size_t u = 0; u < m_unknowns; ++u) unknownPosition[u] = g.permutation->userToInternal()[u];

  if (m_options.jacobi) {
    if (cglsRoute) {
      inverseColumnNorms.resize(internalUser, 0.0);
      stream::Vector d(internal, m_name + ".inverseColumnNorms");
      d.upload(g.permutation->toInternal(inverseColumnNorms));
      g.jacobi = std::make_unique<JacobiPreconditioner>(JacobiPreconditioner::fromInverseDiagonal(std::move(d)));
    } else {
      g.jacobi = std::make_unique<JacobiPreconditioner>(*g.op, internal);
    }
  }

  std::vector<float> index(m_scalars, -1.0f);
  for (std::size_t u = 0; u < m_unknowns; ++u)
    index[std::size_t(system.scalarOfUnknown()[u])] = float(unknownPosition[u]);
  g.index = stream::Vector(m_scalars, m_name + ".index");
  g.index.upload(index);
  for (int k = 0; k < m_systems; ++k) {
    const std::string suffix = m_systems > 1 ? std::to_string(k) : std::string();
    g.b.emplace_back(internal, m_name + ".b" + suffix);
    g.x.emplace_back(internal, m_name + ".x" + suffix);
    g.values.emplace_back(m_scalars, m_name + ".values" + suffix);
    g.locked.emplace_back(m_scalars, m_name + ".locked" + suffix);
  }
  uploadRightHandSides(system);
  resetToInitialGuess(system);
  m_status.resize(std::size_t(m_systems));
  glFinish();
  m_setup.uploadMs = msSince(t0);
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
  for (int k = 0; k < m_systems; ++k) {
    std::vector<double> rhs = cglsRoute ? system.scaledRhs(k) : system.rhs(k);
    rhs.resize(g.permutation->userSize(), 0.0);
    g.b[std::size_t(k)].upload(g.permutation->toInternal(rhs));
    g.locked[std::size_t(k)].upload(system.lockedValues(k));
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

SolverStatus SystemSolver::runCg(int system) {
  CgOptions o;
  o.tolerance = m_options.tolerance;
  o.maxIterations = m_options.maxIterations;
  o.checkEvery = m_options.checkEvery;
  o.onCheck = m_options.onCheck;
  return cg(*m_gpu->op, m_gpu->b[std::size_t(system)], m_gpu->x[std::size_t(system)], o, m_gpu->jacobi.get());
}

SolverStatus SystemSolver::runCgls(int system) {
  CglsOptions o;
  o.tolerance = m_options.tolerance;
  o.maxIterations = m_options.maxIterations;
  o.checkEvery = m_options.checkEvery;
  o.onCheck = m_options.onCheck;
  return cgls(*m_gpu->op, *m_gpu->opTransposed, m_gpu->b[std::size_t(system)], m_gpu->x[std::size_t(system)], o,
              m_gpu->jacobi.get());
}

SolverStatus SystemSolver::solve(int system) {
  requireSystem("solve", system);
  SolverStatus status = m_gpu->segmentTransposed ? runCgls(system) : runCg(system);
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
  return {v.begin(), v.end()};
}

void SystemSolver::setTolerance(float tolerance, int maxIterations) {
  requireIterationOptions("SystemSolver(\"" + m_name + "\")", tolerance, maxIterations, m_options.checkEvery);
  m_options.tolerance = tolerance;
  m_options.maxIterations = maxIterations;
}

const SolverStatus& SystemSolver::lastStatus(int system) const {
  requireSystem("lastStatus", system);
  return m_status[std::size_t(system)];
}

const linalg::LinearOperator& SystemSolver::matrixOperator() const { return *m_gpu->op; }

}  // namespace texstream::solvers
