// Smoothed aggregation (Vaněk, Mandel & Brezina 1996): strength of coupling, the three
// aggregation passes, the smoothed prolongator and the Galerkin product, all on the CPU in
// double precision.
#include <texstream/solvers/AggregationHierarchy.h>

#include <texstream/linalg/CsrProducts.h>
#include <texstream/linalg/LargeArrays.h>
#include <texstream/linalg/RowBlocks.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <stdexcept>

namespace texstream::solvers {

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

NodeGraph nodeGraph(const linalg::Csr& A, int b) {
  NodeGraph g;
  g.nodes = A.rows / std::size_t(b);
  g.rowPtr.assign(g.nodes + 1, 0);
  g.diagonalNorms.assign(g.nodes, 0.0);
  // Node i's first entry in A: the blocks' weights for the threads (linalg/RowBlocks.h).
  std::vector<std::int64_t> nodeEntries(g.nodes + 1);
  for (std::size_t i = 0; i <= g.nodes; ++i) nodeEntries[i] = A.rowPtr[i * std::size_t(b)];
  const unsigned threads = linalg::workThreads(double(A.nonZeros()));
  // Two passes over node blocks: the neighbour counts, then the neighbours written in
  // place. visit(i, emit) calls emit(j, norm) for node i's neighbours, ascending, and
  // returns the diagonal block's norm. The node's b rows have ascending columns, so their
  // node indices are b ascending runs, merged here (each sum row by row, in entry order).
  using Cursors = std::vector<std::int64_t>;
  auto visit = [&](std::size_t i, Cursors& at, auto&& emit) {
    const auto rows = A.rowPtr.begin() + std::ptrdiff_t(i * std::size_t(b));
    at.assign(rows, rows + b);
    double diagonal = 0.0;
    for (;;) {
      std::int32_t j = INT32_MAX;
      for (int c = 0; c < b; ++c)
        if (at[std::size_t(c)] < A.rowPtr[i * std::size_t(b) + std::size_t(c) + 1])
          j = std::min(j, A.colIdx[std::size_t(at[std::size_t(c)])] / b);
      if (j == INT32_MAX) break;
      double sum = 0.0;
      for (int c = 0; c < b; ++c) {
        const std::int64_t end = A.rowPtr[i * std::size_t(b) + std::size_t(c) + 1];
        std::int64_t& k = at[std::size_t(c)];
        for (; k < end && A.colIdx[std::size_t(k)] / b == j; ++k)
          sum += A.values[std::size_t(k)] * A.values[std::size_t(k)];
      }
      const double norm = std::sqrt(sum);
      if (std::size_t(j) == i) diagonal = norm;
      else if (norm > 0.0) emit(j, norm);
    }
    return diagonal;
  };
  linalg::forWeightedRowBlocks(nodeEntries, threads, [&](unsigned, std::size_t first, std::size_t last) {
    Cursors cursors;
    for (std::size_t i = first; i < last; ++i) {
      std::int64_t count = 0;
      g.diagonalNorms[i] = visit(i, cursors, [&](std::int32_t, double) { ++count; });
      g.rowPtr[i + 1] = count;
    }
  });
  for (std::size_t i = 0; i < g.nodes; ++i) g.rowPtr[i + 1] += g.rowPtr[i];
  g.neighbours.resize(std::size_t(g.rowPtr[g.nodes]));
  g.norms.resize(std::size_t(g.rowPtr[g.nodes]));
  linalg::forWeightedRowBlocks(nodeEntries, threads, [&](unsigned, std::size_t first, std::size_t last) {
    Cursors cursors;
    for (std::size_t i = first; i < last; ++i) {
      std::size_t at = std::size_t(g.rowPtr[i]);
      visit(i, cursors, [&](std::int32_t j, double norm) {
        g.neighbours[at] = j;
        g.norms[at++] = norm;
      });
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
/// rows its k rows of the coarse B. Each fine row lies in one aggregate, so P0's rows are
/// written directly: row r holds the aggregate's kept columns a k + j, j ascending.
linalg::Csr tentativeProlongator(const std::vector<std::int32_t>& aggregateOf, std::size_t aggregates, int b,
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
  std::vector<double> q(rows * k, 0.0);    // Q's entry (row, j) at row * k + j
  std::vector<char> kept(aggregates * k, 0);  // whether column a k + j survived
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
        kept[a * k + j] = 1;
        for (std::size_t m = 0; m < size; ++m) q[members[m] * k + j] = v[m];
      }
    }
  });
  linalg::Csr P0;
  P0.rows = rows;
  P0.cols = aggregates * k;
  P0.rowPtr.assign(rows + 1, 0);
  for (std::size_t r = 0; r < rows; ++r) {
    const std::size_t a = std::size_t(aggregateOf[r / std::size_t(b)]);
    std::int64_t count = 0;
    for (std::size_t j = 0; j < k; ++j) count += kept[a * k + j];
    P0.rowPtr[r + 1] = P0.rowPtr[r] + count;
  }
  linalg::resizeLarge(P0.colIdx, std::size_t(P0.rowPtr[rows]));
  linalg::resizeLarge(P0.values, std::size_t(P0.rowPtr[rows]));
  linalg::forRowBlocks(rows, linalg::workThreads(double(rows * k)), [&](unsigned, std::size_t first, std::size_t last) {
    for (std::size_t r = first; r < last; ++r) {
      const std::size_t a = std::size_t(aggregateOf[r / std::size_t(b)]);
      std::size_t slot = std::size_t(P0.rowPtr[r]);
      for (std::size_t j = 0; j < k; ++j) {
        if (!kept[a * k + j]) continue;
        P0.colIdx[slot] = std::int32_t(a * k + j);
        P0.values[slot++] = q[r * k + j];
      }
    }
  });
  return P0;
}

/// P0 - diag(scale) S row by row (both with ascending columns): the merged rows' lengths,
/// then the rows written in place, on threads.
linalg::Csr subtractScaled(const linalg::Csr& P0, const std::vector<double>& scale, const linalg::Csr& S) {
  linalg::Csr P;
  P.rows = P0.rows;
  P.cols = P0.cols;
  P.rowPtr.assign(P.rows + 1, 0);
  // Row r's merge: emit(column, value) per column of either row, ascending.
  auto merge = [&](std::size_t r, auto&& emit) {
    std::int64_t i = P0.rowPtr[r], j = S.rowPtr[r];
    while (i < P0.rowPtr[r + 1] || j < S.rowPtr[r + 1]) {
      const std::int32_t ci = i < P0.rowPtr[r + 1] ? P0.colIdx[std::size_t(i)] : INT32_MAX;
      const std::int32_t cj = j < S.rowPtr[r + 1] ? S.colIdx[std::size_t(j)] : INT32_MAX;
      double v = 0.0;
      if (ci <= cj) v += P0.values[std::size_t(i++)];
      if (cj <= ci) v -= scale[r] * S.values[std::size_t(j++)];
      emit(std::min(ci, cj), v);
    }
  };
  const unsigned threads = linalg::workThreads(double(P0.nonZeros() + S.nonZeros()));
  linalg::forWeightedRowBlocks(S.rowPtr, threads, [&](unsigned, std::size_t first, std::size_t last) {
    for (std::size_t r = first; r < last; ++r) {
      std::int64_t count = 0;
      merge(r, [&](std::int32_t, double) { ++count; });
      P.rowPtr[r + 1] = count;
    }
  });
  for (std::size_t r = 0; r < P.rows; ++r) P.rowPtr[r + 1] += P.rowPtr[r];
  linalg::resizeLarge(P.colIdx, std::size_t(P.rowPtr[P.rows]));
  linalg::resizeLarge(P.values, std::size_t(P.rowPtr[P.rows]));
  linalg::forWeightedRowBlocks(S.rowPtr, threads, [&](unsigned, std::size_t first, std::size_t last) {
    for (std::size_t r = first; r < last; ++r) {
      std::size_t at = std::size_t(P.rowPtr[r]);
      merge(r, [&](std::int32_t column, double v) {
        P.colIdx[at] = column;
        P.values[at++] = v;
      });
    }
  });
  return P;
}

/// A with 1 on the diagonal of every empty row (coarse unknowns whose P0 column was
/// dropped: no product reaches them, and the smoother keeps them 0).
linalg::Csr withIdentityOnEmptyRows(linalg::Csr A) {
  bool any = false;
  for (std::size_t i = 0; i < A.rows && !any; ++i) any = A.rowPtr[i] == A.rowPtr[i + 1];
  if (!any) return A;
  linalg::Csr out;
  out.rows = A.rows;
  out.cols = A.cols;
  out.rowPtr.assign(A.rows + 1, 0);
  for (std::size_t i = 0; i < A.rows; ++i) {
    if (A.rowPtr[i] == A.rowPtr[i + 1]) {
      out.colIdx.push_back(std::int32_t(i));
      out.values.push_back(1.0);
    }
    for (std::int64_t k = A.rowPtr[i]; k < A.rowPtr[i + 1]; ++k) {
      out.colIdx.push_back(A.colIdx[std::size_t(k)]);
      out.values.push_back(A.values[std::size_t(k)]);
    }
    out.rowPtr[i + 1] = std::int64_t(out.colIdx.size());
  }
  return out;
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
  // Level 0 borrows the caller's matrix (an owner-less alias): no copy. Each level's
  // spectral radius is estimated at its coarsening step, the last level's after the loop.
  levels.push_back({std::shared_ptr<const linalg::Csr>(std::shared_ptr<const linalg::Csr>(), &A), {}, 0.0, 0, {}});
  int nodeSize = b;  // unknowns per node: b on the finest level, k below
  while (int(levels.size()) < options.maxLevels && levels.back().A->rows > options.coarsestSize) {
    AggregationLevel& fine = levels.back();
    const linalg::Csr& Af = *fine.A;
    const std::size_t k = B.size();
    // rho(D^-1 A) is needed from the prolongator's smoothing on and the aggregation does
    // not need it: the power iteration runs on a second thread meanwhile (RowBlocks.h).
    std::vector<std::int32_t> aggregateOf;
    std::size_t aggregates = 0;
    linalg::concurrently(
        [&] {
          timed(spent.aggregationMs,
                [&] { aggregates = aggregate(nodeGraph(Af, nodeSize), options.strengthThreshold, aggregateOf); });
        },
        [&] {
          timed(spent.spectralRadiusMs,
                [&] { fine.spectralRadius = estimateJacobiSpectralRadius(Af, options.powerIterations); });
        });
    if (aggregates * k * 4 > Af.rows * 3) break;  // less than a quarter fewer: stop
    if (settled) settled(levels.data(), levels.size() - 1, false);
    std::vector<std::vector<double>> coarseB;
    linalg::Csr P0, P;
    timed(spent.prolongatorMs, [&] {
      P0 = tentativeProlongator(aggregateOf, aggregates, nodeSize, B, coarseB);
      // P = P0 - omega D^-1 A P0.
      std::vector<double> scale = Af.diagonal();
      const double omega = 4.0 / (3.0 * fine.spectralRadius);
      for (double& v : scale) v = omega / v;
      P = subtractScaled(P0, scale, linalg::multiply(Af, P0));
    });
    linalg::Csr coarse;
    timed(spent.galerkinMs,
          [&] { coarse = withIdentityOnEmptyRows(linalg::multiply(linalg::transpose(P), linalg::multiply(Af, P))); });
    fine.meanAggregate = double(aggregateOf.size()) / double(aggregates);
    fine.P = std::move(P);
    fine.P0 = std::move(P0);
    if (levels.size() == levels.capacity()) throw std::logic_error(where + ": more levels than the 3/4 shrink allows");
    levels.push_back({std::make_shared<const linalg::Csr>(std::move(coarse)), {}, 0.0, 0, {}});
    B = std::move(coarseB);
    nodeSize = int(k);
  }
  AggregationLevel& last = levels.back();
  if (last.spectralRadius == 0.0)  // estimates are positive: this one is still to come
    timed(spent.spectralRadiusMs,
          [&] { last.spectralRadius = estimateJacobiSpectralRadius(*last.A, options.powerIterations); });
  if (timings) *timings = spent;
  if (settled) settled(levels.data(), levels.size() - 1, true);
  return levels;
}

}  // namespace texstream::solvers
