// Smoothed aggregation (Vaněk, Mandel & Brezina 1996): strength of coupling, the three
// aggregation passes, the smoothed prolongator and the Galerkin product, all on the CPU in
// double precision.
#include <texstream/solvers/multigrid/AggregationHierarchy.h>

#include <texstream/linalg/BlockCsr.h>
#include <texstream/linalg/LargeArrays.h>
#include <texstream/linalg/RowBlocks.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <stdexcept>

namespace texstream::solvers {
inline namespace multigrid {

namespace {

/// The node graph of A: per node pair (i, j) the Frobenius norm of block A_ij, CSR over
/// nodes, diagonal blocks separate.
struct NodeGraph {
  std::size_t nodes = 0;
  std::vector<std::int64_t> rowPtr;
  std::vector<std::int32_t> neighbours;
  std::vector<double> norms;
  std::vector<double> diagonalNorms;
};

NodeGraph nodeGraph(const linalg::BlockCsr& A) {
  NodeGraph g;
  g.nodes = A.rows;
  g.rowPtr.assign(g.nodes + 1, 0);
  g.diagonalNorms.assign(g.nodes, 0.0);
  const int blockValues = A.blockValues();
  auto norm = [&](std::int64_t k) {
    double sum = 0.0;
    for (const double* v = A.values.data() + std::size_t(k) * std::size_t(blockValues), *end = v + blockValues; v < end; ++v)
      sum += *v * *v;
    return std::sqrt(sum);
  };
  // Two passes over blocks of nodes (linalg/RowBlocks.h): the neighbour counts (blocks of
  // norm 0 are no coupling), then the neighbours written in place.
  const unsigned threads = linalg::workThreads(double(A.values.size()));
  linalg::forWeightedRowBlocks(A.rowPtr, threads, [&](unsigned, std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i) {
      std::int64_t count = 0;
      for (std::int64_t k = A.rowPtr[i]; k < A.rowPtr[i + 1]; ++k) {
        const double n = norm(k);
        if (std::size_t(A.colIdx[std::size_t(k)]) == i) g.diagonalNorms[i] = n;
        else if (n > 0.0) ++count;
      }
      g.rowPtr[i + 1] = count;
    }
  });
  for (std::size_t i = 0; i < g.nodes; ++i) g.rowPtr[i + 1] += g.rowPtr[i];
  g.neighbours.resize(std::size_t(g.rowPtr[g.nodes]));
  g.norms.resize(std::size_t(g.rowPtr[g.nodes]));
  linalg::forWeightedRowBlocks(A.rowPtr, threads, [&](unsigned, std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i) {
      std::size_t at = std::size_t(g.rowPtr[i]);
      for (std::int64_t k = A.rowPtr[i]; k < A.rowPtr[i + 1]; ++k) {
        const std::int32_t j = A.colIdx[std::size_t(k)];
        const double n = std::size_t(j) == i ? 0.0 : norm(k);
        if (n > 0.0) {
          g.neighbours[at] = j;
          g.norms[at++] = n;
        }
      }
    }
  });
  return g;
}

/// Per node its aggregate (Vaněk et al. §3's three passes over the strong couplings);
/// returns the aggregate count.
std::size_t aggregate(const NodeGraph& g, double theta, std::vector<std::int32_t>& aggregateOf) {
  const std::size_t n = g.nodes;
  // Strong neighbours of each node (symmetric for a symmetric A).
  std::vector<std::int64_t> strongPtr(n + 1, 0);
  std::vector<std::int32_t> strong;
  strong.reserve(g.neighbours.size());
  for (std::size_t i = 0; i < n; ++i) {
    for (std::int64_t k = g.rowPtr[i]; k < g.rowPtr[i + 1]; ++k) {
      const std::size_t j = std::size_t(g.neighbours[std::size_t(k)]);
      if (g.norms[std::size_t(k)] >= theta * std::sqrt(g.diagonalNorms[i] * g.diagonalNorms[j]))
        strong.push_back(std::int32_t(j));
    }
    strongPtr[i + 1] = std::int64_t(strong.size());
  }
  aggregateOf.assign(n, -1);
  std::int32_t count = 0;
  // Pass 1: a node whose strong neighbourhood is entirely free founds an aggregate.
  for (std::size_t i = 0; i < n; ++i) {
    if (aggregateOf[i] >= 0 || strongPtr[i] == strongPtr[i + 1]) continue;
    bool free = true;
    for (std::int64_t k = strongPtr[i]; k < strongPtr[i + 1] && free; ++k)
      free = aggregateOf[std::size_t(strong[std::size_t(k)])] < 0;
    if (!free) continue;
    aggregateOf[i] = count;
    for (std::int64_t k = strongPtr[i]; k < strongPtr[i + 1]; ++k) aggregateOf[std::size_t(strong[std::size_t(k)])] = count;
    ++count;
  }
  // Pass 2: a node left over joins the aggregate of a strong neighbour placed in pass 1
  // (the strongest coupled one).
  std::vector<std::int32_t> afterPass1 = aggregateOf;
  for (std::size_t i = 0; i < n; ++i) {
    if (afterPass1[i] >= 0) continue;
    double best = -1.0;
    for (std::int64_t k = g.rowPtr[i]; k < g.rowPtr[i + 1]; ++k) {
      const std::size_t j = std::size_t(g.neighbours[std::size_t(k)]);
      if (afterPass1[j] < 0 || g.norms[std::size_t(k)] <= best) continue;
      const bool isStrong = std::find(strong.begin() + strongPtr[i], strong.begin() + strongPtr[i + 1],
                                      std::int32_t(j)) != strong.begin() + strongPtr[i + 1];
      if (!isStrong) continue;
      best = g.norms[std::size_t(k)];
      aggregateOf[i] = afterPass1[j];
    }
  }
  // Pass 3: what remains groups with its free strong neighbours; an isolated node is an
  // aggregate of its own.
  for (std::size_t i = 0; i < n; ++i) {
    if (aggregateOf[i] >= 0) continue;
    aggregateOf[i] = count;
    for (std::int64_t k = strongPtr[i]; k < strongPtr[i + 1]; ++k) {
      const std::size_t j = std::size_t(strong[std::size_t(k)]);
      if (aggregateOf[j] < 0) aggregateOf[j] = count;
    }
    ++count;
  }
  return std::size_t(count);
}

/// P0 and the next level's near-null space: per aggregate, the rows of B on its nodes
/// factored Q R by modified Gram-Schmidt (a column that depends on the earlier ones is
/// dropped: zero in Q and in R). Q's columns are the aggregate's k columns of P0, R's
/// rows its k rows of the coarse B. P0 is one b x k block per node, in its aggregate's
/// block column (a dropped column's values 0).
linalg::BlockCsr tentativeProlongator(const std::vector<std::int32_t>& aggregateOf, std::size_t aggregates, int b,
                                 const std::vector<std::vector<double>>& B, std::vector<std::vector<double>>& coarseB) {
  const std::size_t k = B.size(), rows = aggregateOf.size() * std::size_t(b);
  // The rows of each aggregate, ascending (a counting sort of the rows by aggregate).
  std::vector<std::int64_t> aggregateStart(aggregates + 1, 0);
  for (std::int32_t a : aggregateOf) aggregateStart[std::size_t(a) + 1] += b;
  for (std::size_t a = 0; a < aggregates; ++a) aggregateStart[a + 1] += aggregateStart[a];
  std::vector<std::size_t> rowsByAggregate(rows);
  {
    std::vector<std::int64_t> next(aggregateStart.begin(), aggregateStart.end() - 1);
    for (std::size_t node = 0; node < aggregateOf.size(); ++node)
      for (int c = 0; c < b; ++c)
        rowsByAggregate[std::size_t(next[std::size_t(aggregateOf[node])]++)] = node * std::size_t(b) + std::size_t(c);
  }
  coarseB.assign(k, std::vector<double>(aggregates * k, 0.0));
  // Q's entry (row, j) at row * k + j: node n's b x k block, row-major, is at n b k.
  linalg::BlockCsr P0;
  P0.blockRows = b;
  P0.blockCols = int(k);
  P0.rows = aggregateOf.size();
  P0.cols = aggregates;
  linalg::assignLarge(P0.values, rows * k, 0.0);
  auto& q = P0.values;
  // Aggregates are independent (each writes its own rows of Q and its own coarse rows): on
  // threads, blocks of equal row counts.
  linalg::forWeightedRowBlocks(aggregateStart, linalg::workThreads(double(rows * k * k)),
                               [&](unsigned, std::size_t firstAggregate, std::size_t lastAggregate) {
    std::vector<std::vector<double>> local(k);
    for (std::size_t a = firstAggregate; a < lastAggregate; ++a) {
      const std::size_t* members = rowsByAggregate.data() + aggregateStart[a];
      const std::size_t size = std::size_t(aggregateStart[a + 1] - aggregateStart[a]);
      for (std::size_t j = 0; j < k; ++j) {
        std::vector<double>& v = local[j];
        v.resize(size);
        double before = 0.0;
        for (std::size_t m = 0; m < size; ++m) {
          v[m] = B[j][members[m]];
          before += v[m] * v[m];
        }
        for (std::size_t i = 0; i < j; ++i) {
          double r = 0.0;
          for (std::size_t m = 0; m < size; ++m) r += local[i][m] * v[m];
          for (std::size_t m = 0; m < size; ++m) v[m] -= r * local[i][m];
          coarseB[j][a * k + i] = r;
        }
        double norm = 0.0;
        for (double x : v) norm += x * x;
        norm = std::sqrt(norm);
        if (!(norm > 1e-10 * std::sqrt(before)) || norm == 0.0) {
          std::fill(v.begin(), v.end(), 0.0);  // dependent on the earlier columns: dropped
          continue;
        }
        for (double& x : v) x /= norm;
        coarseB[j][a * k + j] = norm;
        for (std::size_t m = 0; m < size; ++m) q[members[m] * k + j] = v[m];
      }
    }
  });
  P0.rowPtr.resize(P0.rows + 1);
  for (std::size_t node = 0; node <= P0.rows; ++node) P0.rowPtr[node] = std::int64_t(node);
  P0.colIdx.assign(aggregateOf.begin(), aggregateOf.end());
  return P0;
}

/// P0 - diag(scale) S block row by block row (both with ascending block columns, scale one
/// value per scalar row): the merged rows' lengths, then the rows written in place, on
/// threads.
linalg::BlockCsr subtractScaled(const linalg::BlockCsr& P0, const std::vector<double>& scale, const linalg::BlockCsr& S) {
  const std::size_t R = std::size_t(S.blockRows), C = std::size_t(S.blockCols), RC = R * C;
  linalg::BlockCsr P;
  P.blockRows = S.blockRows;
  P.blockCols = S.blockCols;
  P.rows = P0.rows;
  P.cols = P0.cols;
  P.rowPtr.assign(P.rows + 1, 0);
  // Block row r's merge: emit(column, from P0 or null, from S or null) per block column of
  // either row, ascending.
  auto merge = [&](std::size_t r, auto&& emit) {
    std::int64_t i = P0.rowPtr[r], j = S.rowPtr[r];
    while (i < P0.rowPtr[r + 1] || j < S.rowPtr[r + 1]) {
      const std::int32_t ci = i < P0.rowPtr[r + 1] ? P0.colIdx[std::size_t(i)] : INT32_MAX;
      const std::int32_t cj = j < S.rowPtr[r + 1] ? S.colIdx[std::size_t(j)] : INT32_MAX;
      const double* p = ci <= cj ? P0.values.data() + std::size_t(i++) * RC : nullptr;
      const double* s = cj <= ci ? S.values.data() + std::size_t(j++) * RC : nullptr;
      emit(std::min(ci, cj), p, s);
    }
  };
  const unsigned threads = linalg::workThreads(double(P0.values.size() + S.values.size()));
  linalg::forWeightedRowBlocks(S.rowPtr, threads, [&](unsigned, std::size_t first, std::size_t last) {
    for (std::size_t r = first; r < last; ++r) {
      std::int64_t count = 0;
      merge(r, [&](std::int32_t, const double*, const double*) { ++count; });
      P.rowPtr[r + 1] = count;
    }
  });
  for (std::size_t r = 0; r < P.rows; ++r) P.rowPtr[r + 1] += P.rowPtr[r];
  linalg::resizeLarge(P.colIdx, std::size_t(P.rowPtr[P.rows]));
  linalg::resizeLarge(P.values, P.colIdx.size() * RC);
  linalg::forWeightedRowBlocks(S.rowPtr, threads, [&](unsigned, std::size_t first, std::size_t last) {
    for (std::size_t r = first; r < last; ++r) {
      std::size_t at = std::size_t(P.rowPtr[r]);
      merge(r, [&](std::int32_t column, const double* p, const double* s) {
        P.colIdx[at] = column;
        double* out = P.values.data() + at++ * RC;
        for (std::size_t e = 0; e < RC; ++e)
          out[e] = (p ? p[e] : 0.0) - (s ? scale[r * R + e / C] * s[e] : 0.0);
      });
    }
  });
  return P;
}

/// A with 1 for every diagonal entry that is exactly 0: the coarse unknowns of dropped P0
/// columns, whose rows and columns the Galerkin product leaves 0 (no transfer reaches them,
/// and the smoother keeps them 0). Every other coarse diagonal is p^T A p > 0.
void unitDiagonalWhereZero(linalg::BlockCsr& A) {
  const std::size_t n = std::size_t(A.blockRows), RC = n * n;
  linalg::forWeightedRowBlocks(A.rowPtr, linalg::workThreads(double(A.blocks())), [&](unsigned, std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i) {
      const auto begin = A.colIdx.begin() + A.rowPtr[i], end = A.colIdx.begin() + A.rowPtr[i + 1];
      const auto at = std::lower_bound(begin, end, std::int32_t(i));
      if (at == end || *at != std::int32_t(i)) continue;
      double* block = A.values.data() + std::size_t(at - A.colIdx.begin()) * RC;
      for (std::size_t c = 0; c < n; ++c)
        if (block[c * n + c] == 0.0) block[c * n + c] = 1.0;
    }
  });
}

}  // namespace

double estimateJacobiSpectralRadius(const linalg::Csr& A, int steps) {
  A.validate("estimateJacobiSpectralRadius");
  const std::vector<double> d = A.diagonal();
  std::vector<double> x(A.rows), y(A.rows);
  std::uint32_t state = 12345u;
  for (double& v : x) {
    state = state * 1664525u + 1013904223u;
    v = 0.5 + double(state >> 8) / double(1u << 24);
  }
  // Each step on row blocks (threads where there are several): y = D^-1 A x with the block's
  // share of x . A x, x . D x and y . y, summed in block order; then x = y / |y|.
  const unsigned threads = linalg::workThreads(double(A.nonZeros()));
  struct Sums {
    double xAx = 0.0, xDx = 0.0, yy = 0.0;
  };
  std::vector<Sums> sums(threads);
  double rho = 0.0;
  for (int s = 0; s < steps; ++s) {
    linalg::forWeightedRowBlocks(A.rowPtr, threads, [&](unsigned t, std::size_t first, std::size_t last) {
      Sums part;
      for (std::size_t i = first; i < last; ++i) {
        double ax = 0.0;
        for (std::int64_t k = A.rowPtr[i]; k < A.rowPtr[i + 1]; ++k)
          ax += A.values[std::size_t(k)] * x[std::size_t(A.colIdx[std::size_t(k)])];
        // Rayleigh quotient of D^-1 A in the D inner product: (x . A x) / (x . D x).
        part.xAx += x[i] * ax;
        part.xDx += x[i] * d[i] * x[i];
        y[i] = ax / d[i];
        part.yy += y[i] * y[i];
      }
      sums[t] = part;
    });
    Sums total;
    for (const Sums& part : sums) {
      total.xAx += part.xAx;
      total.xDx += part.xDx;
      total.yy += part.yy;
    }
    if (total.xDx > 0.0) rho = std::max(rho, total.xAx / total.xDx);
    if (!(total.yy > 0.0)) break;
    const double scale = 1.0 / std::sqrt(total.yy);
    linalg::forRowBlocks(A.rows, threads, [&](unsigned, std::size_t first, std::size_t last) {
      for (std::size_t i = first; i < last; ++i) x[i] = y[i] * scale;
    });
  }
  return rho > 0.0 ? 1.05 * rho : 1.0;
}

std::vector<AggregationLevel> buildAggregationHierarchy(const linalg::Csr& A, const AggregationOptions& options,
                                                        const std::string& name, AggregationTimings* timings,
                                                        const AggregationLevelSettled& settled) {
  AggregationTimings spent;
  // Adds the milliseconds work() takes to `into` (phases on two threads at once overlap).
  auto timed = [](double& into, const auto& work) {
    const auto t0 = std::chrono::steady_clock::now();
    work();
    into += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  };
  const std::string where = "buildAggregationHierarchy(\"" + name + "\")";
  A.validate(where);
  const int b = options.blockSize;
  if (b != 1 && b != 2 && b != 4)
    throw std::invalid_argument(where + ": blockSize must be 1, 2 or 4, got " + std::to_string(b));
  if (A.rows != A.cols || A.rows == 0)
    throw std::invalid_argument(where + ": the matrix must be square and non-empty, got " + std::to_string(A.rows) + "x" +
                                std::to_string(A.cols));
  if (A.rows % std::size_t(b) != 0)
    throw std::invalid_argument(where + ": blockSize " + std::to_string(b) + " does not divide the " +
                                std::to_string(A.rows) + " unknowns");
  if (!(options.strengthThreshold >= 0.0 && options.strengthThreshold < 1.0))
    throw std::invalid_argument(where + ": strengthThreshold must be in [0, 1), got " +
                                std::to_string(options.strengthThreshold));
  if (options.coarsestSize < 1 || options.maxLevels < 1 || options.powerIterations < 1)
    throw std::invalid_argument(where + ": coarsestSize, maxLevels and powerIterations must be >= 1");
  const std::vector<double> d0 = A.diagonal();
  for (std::size_t i = 0; i < A.rows; ++i)
    if (!(d0[i] > 0.0))
      throw std::invalid_argument(where + ": diagonal entry of row " + std::to_string(i) + " is " + std::to_string(d0[i]) +
                                  "; multigrid needs a symmetric positive definite matrix");

  // The near-null space: given, or the constants per component.
  std::vector<std::vector<double>> B = options.nearNullSpace;
  if (B.empty()) {
    B.assign(std::size_t(b), std::vector<double>(A.rows, 0.0));
    for (std::size_t r = 0; r < A.rows; ++r) B[r % std::size_t(b)][r] = 1.0;
  }
  if (B.size() > std::size_t(linalg::kMaxBlockSize))
    throw std::invalid_argument(where + ": " + std::to_string(B.size()) + " near-null vectors; at most " +
                                std::to_string(linalg::kMaxBlockSize) + " (the coarse levels' block size)");
  for (std::size_t j = 0; j < B.size(); ++j) {
    if (B[j].size() != A.rows)
      throw std::invalid_argument(where + ": near-null vector " + std::to_string(j) + " has " +
                                  std::to_string(B[j].size()) + " values, the matrix " + std::to_string(A.rows) + " rows");
    for (double v : B[j])
      if (!std::isfinite(v))
        throw std::invalid_argument(where + ": near-null vector " + std::to_string(j) + " holds a non-finite value");
  }

  std::vector<AggregationLevel> levels;
  // The levels never move (see `settled`): each has at most 3/4 of the unknowns of the one
  // before (the loop stops otherwise), which bounds their number.
  const double shrinkSteps = std::ceil(std::log(double(A.rows)) / std::log(4.0 / 3.0));
  levels.reserve(std::min(std::size_t(options.maxLevels), std::size_t(2 + shrinkSteps)));
  // Level 0 borrows the caller's matrix (an owner-less alias): no copy.
  levels.push_back({std::shared_ptr<const linalg::Csr>(std::shared_ptr<const linalg::Csr>(), &A), {}, 0.0, 0, {}});
  // The products run on node blocks (linalg/BlockCsr.h): the level's matrix in blocks of
  // nodeSize x nodeSize unknowns, b on the finest level, k below. Each step leaves the next
  // level's matrix and its own transfers in blocks; the next step puts them into CSR and
  // estimates the new level's spectral radius on a second thread while it aggregates.
  int nodeSize = b;
  linalg::BlockCsr blocks, pendingP, pendingP0;
  for (;;) {
    const std::size_t l = levels.size() - 1;
    AggregationLevel& fine = levels.back();
    const std::size_t k = B.size();
    const std::size_t rows = l == 0 ? A.rows : blocks.rows * std::size_t(nodeSize);
    // This level's matrix into CSR, then its spectral radius; beside them the level above's
    // transfers into CSR (the GPU side needs them only once this level is settled).
    double transfersConversionMs = 0;
    auto finishLevel = [&] {
      auto matrixAndRadius = [&] {
        if (l > 0)
          timed(spent.conversionMs, [&] { fine.A = std::make_shared<const linalg::Csr>(blocks.toCsr()); });
        timed(spent.spectralRadiusMs,
              [&] { fine.spectralRadius = estimateJacobiSpectralRadius(*fine.A, options.powerIterations); });
      };
      if (l == 0) return matrixAndRadius();
      linalg::concurrently(matrixAndRadius, [&] {
        timed(transfersConversionMs, [&] {
          levels[l - 1].P = pendingP.toCsr();
          levels[l - 1].P0 = pendingP0.toCsr(/*dropZeros=*/true);  // one entry a row for the default B
        });
      });
      spent.conversionMs += transfersConversionMs;
    };
    if (int(levels.size()) >= options.maxLevels || rows <= options.coarsestSize) {
      finishLevel();
      break;
    }
    // rho(D^-1 A) is needed from the prolongator's smoothing on and the aggregation does
    // not need it: the two run side by side (RowBlocks.h).
    std::vector<std::int32_t> aggregateOf;
    std::size_t aggregates = 0;
    linalg::concurrently(
        [&] {
          if (l == 0) timed(spent.conversionMs, [&] { blocks = linalg::BlockCsr::fromCsr(A, b, b); });
          timed(spent.aggregationMs,
                [&] { aggregates = aggregate(nodeGraph(blocks), options.strengthThreshold, aggregateOf); });
        },
        finishLevel);
    if (aggregates * k * 4 > rows * 3) break;  // less than a quarter fewer: stop
    if (settled) settled(levels.data(), l, false);
    const linalg::Csr& Af = *fine.A;
    std::vector<std::vector<double>> coarseB;
    linalg::BlockCsr P0, P;
    timed(spent.prolongatorMs, [&] {
      P0 = tentativeProlongator(aggregateOf, aggregates, nodeSize, B, coarseB);
      // P = P0 - omega D^-1 A P0.
      std::vector<double> scale = Af.diagonal();
      const double omega = 4.0 / (3.0 * fine.spectralRadius);
      for (double& v : scale) v = omega / v;
      P = subtractScaled(P0, scale, linalg::multiply(blocks, P0));
    });
    linalg::BlockCsr coarse;
    timed(spent.galerkinMs, [&] {
      coarse = linalg::multiply(linalg::transpose(P), linalg::multiply(blocks, P));
      unitDiagonalWhereZero(coarse);
    });
    fine.meanAggregate = double(aggregateOf.size()) / double(aggregates);
    if (levels.size() == levels.capacity()) throw std::logic_error(where + ": more levels than the 3/4 shrink allows");
    levels.push_back({nullptr, {}, 0.0, 0, {}});  // its CSR matrix comes at the next step
    pendingP = std::move(P);
    pendingP0 = std::move(P0);
    blocks = std::move(coarse);
    B = std::move(coarseB);
    nodeSize = int(k);
  }
  if (timings) *timings = spent;
  if (settled) settled(levels.data(), levels.size() - 1, true);
  return levels;
}

}  // namespace multigrid
}  // namespace texstream::solvers
