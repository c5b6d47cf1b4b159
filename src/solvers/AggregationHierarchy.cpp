// Smoothed aggregation (Vaněk, Mandel & Brezina 1996): strength of coupling, the three
// aggregation passes, the smoothed prolongator and the Galerkin product, all on the CPU in
// double precision.
#include <texstream/solvers/AggregationHierarchy.h>

#include <texstream/linalg/CsrProducts.h>

#include <algorithm>
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
  std::vector<double> accumulator(g.nodes, 0.0);
  std::vector<std::int64_t> marker(g.nodes, -1);
  std::vector<std::int32_t> columns;
  for (std::size_t i = 0; i < g.nodes; ++i) {
    columns.clear();
    for (std::size_t r = i * std::size_t(b); r < (i + 1) * std::size_t(b); ++r) {
      for (std::int64_t k = A.rowPtr[r]; k < A.rowPtr[r + 1]; ++k) {
        const std::int32_t j = A.colIdx[std::size_t(k)] / b;
        const double a = A.values[std::size_t(k)];
        if (marker[std::size_t(j)] != std::int64_t(i)) {
          marker[std::size_t(j)] = std::int64_t(i);
          accumulator[std::size_t(j)] = 0.0;
          columns.push_back(j);
        }
        accumulator[std::size_t(j)] += a * a;
      }
    }
    std::sort(columns.begin(), columns.end());
    for (std::int32_t j : columns) {
      const double norm = std::sqrt(accumulator[std::size_t(j)]);
      if (std::size_t(j) == i) {
        g.diagonalNorms[i] = norm;
      } else if (norm > 0.0) {
        g.neighbours.push_back(j);
        g.norms.push_back(norm);
      }
    }
    g.rowPtr[i + 1] = std::int64_t(g.neighbours.size());
  }
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

/// P0 (rows x aggregates b): one column per aggregate and component, 1 / sqrt(size).
linalg::Csr tentativeProlongator(const std::vector<std::int32_t>& aggregateOf, std::size_t aggregates, int b) {
  std::vector<double> size(aggregates, 0.0);
  for (std::int32_t a : aggregateOf) size[std::size_t(a)] += 1.0;
  linalg::Csr P;
  P.rows = aggregateOf.size() * std::size_t(b);
  P.cols = aggregates * std::size_t(b);
  P.rowPtr.resize(P.rows + 1);
  P.colIdx.resize(P.rows);
  P.values.resize(P.rows);
  for (std::size_t r = 0; r < P.rows; ++r) {
    const std::size_t node = r / std::size_t(b), c = r % std::size_t(b);
    const std::size_t a = std::size_t(aggregateOf[node]);
    P.rowPtr[r] = std::int64_t(r);
    P.colIdx[r] = std::int32_t(a * std::size_t(b) + c);
    P.values[r] = 1.0 / std::sqrt(size[a]);
  }
  P.rowPtr[P.rows] = std::int64_t(P.rows);
  return P;
}

std::vector<double> diagonalOf(const linalg::Csr& A) {
  std::vector<double> d(A.rows, 0.0);
  for (std::size_t i = 0; i < A.rows; ++i)
    for (std::int64_t k = A.rowPtr[i]; k < A.rowPtr[i + 1]; ++k)
      if (std::size_t(A.colIdx[std::size_t(k)]) == i) d[i] += A.values[std::size_t(k)];
  return d;
}

}  // namespace

double estimateJacobiSpectralRadius(const linalg::Csr& A, int steps) {
  const std::vector<double> d = diagonalOf(A);
  std::vector<double> x(A.rows), y;
  std::uint32_t state = 12345u;
  for (double& v : x) {
    state = state * 1664525u + 1013904223u;
    v = 0.5 + double(state >> 8) / double(1u << 24);
  }
  double rho = 0.0;
  for (int s = 0; s < steps; ++s) {
    y = A.multiply(x);
    // Rayleigh quotient of D^-1 A in the D inner product: (x . A x) / (x . D x).
    double xAx = 0.0, xDx = 0.0, yy = 0.0;
    for (std::size_t i = 0; i < A.rows; ++i) {
      xAx += x[i] * y[i];
      xDx += x[i] * d[i] * x[i];
      y[i] /= d[i];
      yy += y[i] * y[i];
    }
    if (xDx > 0.0) rho = std::max(rho, xAx / xDx);
    const double scale = yy > 0.0 ? 1.0 / std::sqrt(yy) : 0.0;
    for (std::size_t i = 0; i < A.rows; ++i) x[i] = y[i] * scale;
    if (scale == 0.0) break;
  }
  return rho > 0.0 ? 1.05 * rho : 1.0;
}

std::vector<AggregationLevel> buildAggregationHierarchy(const linalg::Csr& A, const AggregationOptions& options,
                                                        const std::string& name) {
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
  const std::vector<double> d0 = diagonalOf(A);
  for (std::size_t i = 0; i < A.rows; ++i)
    if (!(d0[i] > 0.0))
      throw std::invalid_argument(where + ": diagonal entry of row " + std::to_string(i) + " is " + std::to_string(d0[i]) +
                                  "; multigrid needs a symmetric positive definite matrix");

  std::vector<AggregationLevel> levels;
  levels.push_back({A, {}, estimateJacobiSpectralRadius(A, options.powerIterations), 0});
  while (int(levels.size()) < options.maxLevels && levels.back().A.rows > options.coarsestSize) {
    AggregationLevel& fine = levels.back();
    std::vector<std::int32_t> aggregateOf;
    const std::size_t aggregates = aggregate(nodeGraph(fine.A, b), options.strengthThreshold, aggregateOf);
    if (aggregates * std::size_t(b) * 4 > fine.A.rows * 3) break;  // less than a quarter fewer: stop
    const linalg::Csr P0 = tentativeProlongator(aggregateOf, aggregates, b);
    // P = P0 - omega D^-1 A P0.
    linalg::Csr P = linalg::multiply(fine.A, P0);
    const std::vector<double> d = diagonalOf(fine.A);
    const double omega = 4.0 / (3.0 * fine.spectralRadius);
    for (std::size_t r = 0; r < P.rows; ++r) {
      for (std::int64_t k = P.rowPtr[r]; k < P.rowPtr[r + 1]; ++k) {
        double& v = P.values[std::size_t(k)];
        v *= -omega / d[r];
        if (std::size_t(P.colIdx[std::size_t(k)]) == std::size_t(P0.colIdx[r])) v += P0.values[r];
      }
    }
    linalg::Csr coarse = linalg::multiply(linalg::transpose(P), linalg::multiply(fine.A, P));
    fine.meanAggregate = double(aggregateOf.size()) / double(aggregates);
    fine.P = std::move(P);
    const double rho = estimateJacobiSpectralRadius(coarse, options.powerIterations);
    levels.push_back({std::move(coarse), {}, rho, 0});
  }
  return levels;
}

}  // namespace texstream::solvers
