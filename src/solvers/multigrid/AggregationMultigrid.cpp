// Smoothed-aggregation multigrid (Vaněk, Mandel & Brezina 1996) as a CG preconditioner: the
// hierarchy from the CPU, the V-cycle on the GPU (see AggregationMultigrid.h).
#include <texstream/solvers/multigrid/AggregationMultigrid.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/BcrsMatrix.h>
#include <texstream/linalg/CsrProducts.h>
#include <texstream/linalg/DenseMatrix.h>
#include <texstream/linalg/LargeArrays.h>
#include <texstream/linalg/RowBlocks.h>
#include <texstream/linalg/SegmentMatrix.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/solvers/multigrid/DenseInverse.h>
#include <texstream/stream/Aliasing.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Runtime.h>

#include <glad/gl.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <stdexcept>

namespace texstream::solvers {
inline namespace multigrid {

namespace {

double msSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

/// M with row i moved to element rowPosition[i] of an output of `outputSize` elements and
/// column j to element columnPosition[j]: a product between two levels' internal orders.
linalg::Csr toPositions(const linalg::Csr& M, const std::vector<std::int32_t>& rowPosition, std::size_t outputSize,
                        const std::vector<std::int32_t>& columnPosition, std::size_t inputSize) {
  std::vector<std::int32_t> rowAt(outputSize, -1);
  for (std::size_t i = 0; i < M.rows; ++i) rowAt[std::size_t(rowPosition[i])] = std::int32_t(i);
  linalg::Csr out;
  out.rows = outputSize;
  out.cols = inputSize;
  out.rowPtr.assign(outputSize + 1, 0);
  for (std::size_t p = 0; p < outputSize; ++p) {
    const std::int32_t i = rowAt[p];
    out.rowPtr[p + 1] = out.rowPtr[p] + (i >= 0 ? M.rowPtr[std::size_t(i) + 1] - M.rowPtr[std::size_t(i)] : 0);
  }
  linalg::resizeLarge(out.colIdx, M.nonZeros());
  linalg::resizeLarge(out.values, M.nonZeros());
  // The rows copied on threads (linalg/RowBlocks.h), each to its final place.
  const unsigned threads = linalg::workThreads(double(M.nonZeros()));
  linalg::forRowBlocks(outputSize, threads, [&](unsigned, std::size_t first, std::size_t last) {
    for (std::size_t p = first; p < last; ++p) {
      const std::int32_t i = rowAt[p];
      if (i < 0) continue;
      std::size_t at = std::size_t(out.rowPtr[p]);
      for (std::int64_t k = M.rowPtr[std::size_t(i)]; k < M.rowPtr[std::size_t(i) + 1]; ++k, ++at) {
        out.colIdx[at] = columnPosition[std::size_t(M.colIdx[std::size_t(k)])];
        out.values[at] = M.values[std::size_t(k)];
      }
    }
  });
  return out;
}

linalg::Csr identity(std::size_t n) {
  linalg::Csr I;
  I.rows = I.cols = n;
  I.rowPtr.resize(n + 1);
  I.colIdx.resize(n);
  I.values.assign(n, 1.0);
  for (std::size_t i = 0; i <= n; ++i) I.rowPtr[i] = std::int64_t(i);
  for (std::size_t i = 0; i < n; ++i) I.colIdx[i] = std::int32_t(i);
  return I;
}

}  // namespace

struct AggregationMultigrid::Level {
  std::unique_ptr<linalg::PermutedMatrix> matrix;  // the coarse levels between fine and coarsest
  std::unique_ptr<linalg::LinearOperator> op;     // the level's matrix on its internal order
  std::vector<std::int32_t> position;             // user index -> element of `layout`
  stream::Layout layout;
  stream::Vector inverseDiagonal, b, x, ax, step, aStep;
  float omega = 1.0f;
  bool smoothedProlongator = true;  // P = (I - omega D^-1 A) P0, else P = P0
  // To level l + 1 (P0^T) and from it (P).
  linalg::TransferMatrix tentativeRestriction, prolongation;
};

AggregationMultigrid::AggregationMultigrid(const linalg::Csr& A, const linalg::PermutedMatrix& fine,
                                           AggregationMultigridOptions options, std::string name)
    : m_name(std::move(name)), m_options(std::move(options)) {
  requireValid(A, fine);
  // One thread: each level goes to the GPU as the hierarchy settles it.
  const auto t0 = std::chrono::steady_clock::now();
  buildAggregationHierarchy(A, m_options.hierarchy, m_name, &m_stats.hierarchy,
                            [&](const AggregationLevel* levels, std::size_t l, bool coarsest) {
                              const auto tg = std::chrono::steady_clock::now();
                              addLevel(levels, l, coarsest, fine);
                              m_stats.setupMs -= msSince(tg);
                            });
  m_stats.setupMs += msSince(t0);
}

AggregationMultigrid::AggregationMultigrid(const linalg::Csr& A,
                                           const std::function<const linalg::PermutedMatrix&()>& uploadFine,
                                           AggregationMultigridOptions options, std::string name)
    : m_name(std::move(name)), m_options(std::move(options)) {
  // The hierarchy grows on a second thread (CPU only) and reports each level it settles;
  // this thread uploads the fine matrix meanwhile, then puts the levels on the GPU as they
  // come (GL stays on the calling thread).
  struct Settled {
    const AggregationLevel* levels;
    std::size_t l;
    bool coarsest;
  };
  std::mutex mutex;
  std::condition_variable wake;
  std::deque<Settled> queue;
  bool hierarchyDone = false;
  std::vector<AggregationLevel> hierarchy;  // kept (its levels unmoved) until the GPU has them all
  auto buildHierarchy = [&] {
    // Wakes this thread when the hierarchy ends, whether it ends in an error or not.
    struct Done {
      std::mutex& mutex;
      std::condition_variable& wake;
      bool& done;
      ~Done() {
        const std::lock_guard<std::mutex> lock(mutex);
        done = true;
        wake.notify_one();
      }
    } done{mutex, wake, hierarchyDone};
    const auto t0 = std::chrono::steady_clock::now();
    hierarchy = buildAggregationHierarchy(A, m_options.hierarchy, m_name, &m_stats.hierarchy,
                                          [&](const AggregationLevel* levels, std::size_t l, bool coarsest) {
                                            const std::lock_guard<std::mutex> lock(mutex);
                                            queue.push_back({levels, l, coarsest});
                                            wake.notify_one();
                                          });
    m_stats.setupMs = msSince(t0);
  };
  auto buildGpu = [&] {
    const linalg::PermutedMatrix& fine = uploadFine();
    requireValid(A, fine);
    for (;;) {
      Settled next{};
      {
        std::unique_lock<std::mutex> lock(mutex);
        wake.wait(lock, [&] { return !queue.empty() || hierarchyDone; });
        if (queue.empty()) return;  // the hierarchy ended (in an error if no coarsest level came)
        next = queue.front();
        queue.pop_front();
      }
      addLevel(next.levels, next.l, next.coarsest, fine);
    }
  };
  linalg::concurrently(buildGpu, buildHierarchy);
}

void AggregationMultigrid::requireValid(const linalg::Csr& A, const linalg::PermutedMatrix& fine) const {
  const std::string where = "AggregationMultigrid(\"" + m_name + "\")";
  if (A.rows != fine.rows() || A.cols != fine.cols())
    throw std::invalid_argument(where + ": the CPU matrix is " + std::to_string(A.rows) + "x" + std::to_string(A.cols) +
                                ", the GPU matrix \"" + fine.name() + "\" " + std::to_string(fine.rows()) + "x" +
                                std::to_string(fine.cols()));
  if (m_options.smoothingSweeps < 1)
    throw std::invalid_argument(where + ": smoothingSweeps must be >= 1, got " + std::to_string(m_options.smoothingSweeps));
}

void AggregationMultigrid::addLevel(const AggregationLevel* levels, std::size_t l, bool coarsest,
                                    const linalg::PermutedMatrix& fine) {
  if (l == 0 && coarsest) {
    // Small enough for the direct solve already: a two-level cycle whose coarse level is
    // the matrix itself (P = I), so the fine level keeps the caller's internal order.
    const AggregationLevel& only = levels[0];
    const linalg::Csr I = identity(only.A->rows);
    // P^T = P0^T: no smoothing step in the restriction.
    const AggregationLevel twoLevels[2] = {{only.A, I, only.spectralRadius, 0, I},
                                           {only.A, {}, only.spectralRadius, 0, {}}};
    m_singleLevel = true;
    addLevel(twoLevels, 0, false, fine);
    addLevel(twoLevels, 1, true, fine);
    return;
  }
  const std::string where = "AggregationMultigrid(\"" + m_name + "\")";
  gl::StateGuard guard;
  auto t0 = std::chrono::steady_clock::now();
  const AggregationLevel& h = levels[l];
  auto level = std::make_unique<Level>();
  const std::string tag = m_name + ".level" + std::to_string(l);
  if (l == 0) {
    level->op = std::make_unique<linalg::PermutedMatrix::Internal>(fine);
    level->position = fine.userToInternal();
    level->layout = fine.internalLayout();
  } else if (!coarsest) {
    // The coarse levels' nodes: the near-null space's k vectors (the block size without one).
    const std::size_t k = m_options.hierarchy.nearNullSpace.empty() ? std::size_t(m_options.hierarchy.blockSize)
                                                                    : m_options.hierarchy.nearNullSpace.size();
    if (k == 2 && h.A->rows >= m_options.bcrsCoarseFrom &&
        stream::Runtime::current().backend() == stream::Backend::Compute) {
      linalg::BcrsOptions bo;
      bo.blockSize = 2;
      level->matrix = std::make_unique<linalg::BcrsMatrix>(*h.A, tag, bo);
    } else {
      level->matrix = std::make_unique<linalg::SegmentMatrix>(*h.A, tag);
    }
    level->op = std::make_unique<linalg::PermutedMatrix::Internal>(*level->matrix);
    level->position = level->matrix->userToInternal();
    level->layout = level->matrix->internalLayout();
  } else {
    level->layout = stream::Layout::forSize(h.A->rows);
    level->position.resize(h.A->rows);
    for (std::size_t i = 0; i < h.A->rows; ++i) level->position[i] = std::int32_t(i);
  }
  level->b = stream::Vector(level->layout, tag + ".b");
  level->x = stream::Vector(level->layout, tag + ".x");
  if (!coarsest) {
    level->ax = stream::Vector(level->layout, tag + ".Ax");
    level->step = stream::Vector(level->layout, tag + ".step");
    level->aStep = stream::Vector(level->layout, tag + ".Astep");
    std::vector<float> inverse(level->layout.size(), 0.0f);
    const std::vector<double> d = h.A->diagonal();
    for (std::size_t i = 0; i < h.A->rows; ++i) inverse[std::size_t(level->position[i])] = float(1.0 / d[i]);
    level->inverseDiagonal = stream::Vector(level->layout, tag + ".inverseDiagonal");
    level->inverseDiagonal.upload(inverse);
    level->omega = float(4.0 / (3.0 * h.spectralRadius));
    level->smoothedProlongator = !(l == 0 && m_singleLevel);
  }
  m_storedNonZeros += double(h.A->nonZeros());
  m_stats.unknowns.push_back(h.A->rows);
  m_stats.nonZeros.push_back(h.A->nonZeros());
  m_levels.push_back(std::move(level));
  m_stats.levelsMs += msSince(t0);
  if (l > 0) {
    // The transfers between level l - 1 and this one, in their internal positions.
    t0 = std::chrono::steady_clock::now();
    Level& fineLevel = *m_levels[l - 1];
    const Level& coarse = *m_levels[l];
    const std::string fineTag = m_name + ".level" + std::to_string(l - 1);
    fineLevel.prolongation = linalg::TransferMatrix(
        toPositions(levels[l - 1].P, fineLevel.position, fineLevel.layout.size(), coarse.position, coarse.layout.size()),
        fineLevel.layout, fineTag + ".P");
    fineLevel.tentativeRestriction = linalg::TransferMatrix(
        toPositions(linalg::transpose(levels[l - 1].P0), coarse.position, coarse.layout.size(), fineLevel.position,
                    fineLevel.layout.size()),
        coarse.layout, fineTag + ".P0t");
    m_stats.transfersMs += msSince(t0);
  }
  if (coarsest) {
    // The coarsest level's inverse.
    t0 = std::chrono::steady_clock::now();
    const linalg::Csr& C = *h.A;
    const std::size_t nc = C.rows;
    std::vector<double> dense(nc * nc, 0.0);
    for (std::size_t i = 0; i < nc; ++i)
      for (std::int64_t k = C.rowPtr[i]; k < C.rowPtr[i + 1]; ++k)
        dense[i * nc + std::size_t(C.colIdx[std::size_t(k)])] += C.values[std::size_t(k)];
    std::optional<std::vector<double>> inverse = invertDense(std::move(dense), nc);
    if (!inverse)
      throw gl::Error(where + ": the coarsest matrix (" + std::to_string(nc) +
                      " unknowns) is singular: the matrix is not positive definite");
    m_coarseInverse = std::make_unique<linalg::DenseMatrix>(
        nc, nc, std::vector<float>(inverse->begin(), inverse->end()), m_name + ".coarseInverse");
    m_stats.levels = int(m_levels.size());
    m_stats.operatorComplexity = m_storedNonZeros / double(levels[0].A->nonZeros());
    glFinish();
    m_stats.coarsestMs = msSince(t0);
  }
  m_stats.uploadMs = m_stats.levelsMs + m_stats.transfersMs + m_stats.coarsestMs;
}

AggregationMultigrid::~AggregationMultigrid() = default;

std::string AggregationMultigrid::name() const {
  const std::string nu = std::to_string(m_options.smoothingSweeps);
  return "smoothed aggregation V(" + nu + "," + nu + "), " + std::to_string(m_levels.size()) + " levels";
}

void AggregationMultigrid::apply(const stream::Vector& r, stream::Vector& z) const {
  const Level& fine = *m_levels[0];
  if (!(r.layout() == fine.layout) || !(z.layout() == fine.layout))
    throw gl::Error("AggregationMultigrid(\"" + m_name + "\")::apply: r (\"" + r.name() + "\") and z (\"" + z.name() + "\") must be in the fine matrix's " +
                    "internal layout of " + std::to_string(fine.layout.size()) + " elements");
  gl::StateGuard guard;
  // The cycle reads b after it has written x: an aliased r is copied first.
  Level& level0 = *m_levels[0];
  const stream::Vector* b = &r;
  if (stream::sameVector(r, z)) {
    linalg::copy(r, level0.b);
    b = &level0.b;
  }
  cycle(0, *b, z);
}

void AggregationMultigrid::cycle(std::size_t l, const stream::Vector& b, stream::Vector& x) const {
  Level& level = *m_levels[l];
  if (l + 1 == m_levels.size()) {
    m_coarseInverse->apply(b, x);
    return;
  }
  auto sweep = [&](bool fromZero) {
    stream::Pass pass("solvers/jacobi_sweep");
    pass.label("amg smooth").define("INVERSE_DIAGONAL").input("u_b", b).input("u_diagonal", level.inverseDiagonal)
        .uniform("u_omega", level.omega).uniform("u_n", int(x.size()));
    if (fromZero) {
      pass.define("FROM_ZERO");
    } else {
      level.op->apply(x, level.ax);
      pass.input("u_x", x).input("u_ax", level.ax);
    }
    pass.output(x).run();
  };
  const int nu = m_options.smoothingSweeps;
  sweep(true);
  for (int s = 1; s < nu; ++s) sweep(false);
  Level& coarse = *m_levels[l + 1];
  // b_{l+1} = P^T (b - A x) = P0^T (r - A step) with r = b - A x, step = omega D^-1 r.
  level.op->apply(x, level.ax);
  if (!level.smoothedProlongator) {
    level.tentativeRestriction.applyToDifference(b, level.ax, coarse.b);
  } else {
    stream::Pass("solvers/jacobi_sweep")
      .label("amg restriction step")
      .define("INVERSE_DIAGONAL")
      .define("INCREMENT")
      .input("u_b", b)
      .input("u_ax", level.ax)
      .input("u_diagonal", level.inverseDiagonal)
      .uniform("u_omega", level.omega)
      .uniform("u_n", int(x.size()))
      .output(level.step)
      .run();
    level.op->apply(level.step, level.aStep);
    level.tentativeRestriction.applyToDifference(b, level.ax, level.aStep, coarse.b);
  }
  cycle(l + 1, coarse.b, coarse.x);
  level.prolongation.applyAdd(coarse.x, x, x);
  for (int s = 0; s < nu; ++s) sweep(false);
}

}  // namespace multigrid
}  // namespace texstream::solvers
