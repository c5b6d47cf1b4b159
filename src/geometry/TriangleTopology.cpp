// Edges from half-edges: each triangle (a, b, c) contributes a->b (opposite c), b->c
// (opposite a), c->a (opposite b); half-edges are bucketed by their smaller vertex
// (counting sort, linear in the mesh) and sorted by the larger one inside each bucket, so
// the half-edges of one edge end up adjacent and the rows come out with ascending columns.
#include <texstream/geometry/TriangleTopology.h>

#include <algorithm>
#include <string>

namespace texstream::geometry {

namespace {

struct HalfEdge {
  std::int32_t hi;    ///< the larger vertex of the edge (the bucket is the smaller)
  std::int32_t from;  ///< the edge runs from -> other end in its triangle's order
  std::int32_t opposite;
  std::int32_t triangle;
};

struct Edge {
  std::int32_t lo, hi;
  std::int32_t loNext, loPrev;  ///< next/prev of entry (lo, hi); entry (hi, lo) swaps them
};

}  // namespace

TriangleTopology::TriangleTopology(const Mesh& mesh) {
  mesh.validate();
  const std::size_t n = mesh.vertexCount(), T = mesh.triangleCount();
  m_vertexCount = n;
  m_triangleCount = T;

  // Bucket the 3T half-edges by their smaller vertex.
  std::vector<std::int64_t> start(n + 1, 0);
  for (std::size_t t = 0; t < T; ++t) {
    for (int k = 0; k < 3; ++k) {
      const std::int32_t a = mesh.triangles[3 * t + std::size_t(k)], b = mesh.triangles[3 * t + std::size_t((k + 1) % 3)];
      ++start[std::size_t(std::min(a, b)) + 1];
    }
  }
  for (std::size_t v = 0; v < n; ++v) start[v + 1] += start[v];
  std::vector<HalfEdge> half(3 * T);
  {
    std::vector<std::int64_t> fill(start.begin(), start.end() - 1);
    for (std::size_t t = 0; t < T; ++t) {
      for (int k = 0; k < 3; ++k) {
        const std::int32_t a = mesh.triangles[3 * t + std::size_t(k)];
        const std::int32_t b = mesh.triangles[3 * t + std::size_t((k + 1) % 3)];
        const std::int32_t c = mesh.triangles[3 * t + std::size_t((k + 2) % 3)];
        half[std::size_t(fill[std::size_t(std::min(a, b))]++)] = {std::max(a, b), a, c, std::int32_t(t)};
      }
    }
  }

  std::vector<Edge> edges;
  edges.reserve(3 * T / 2 + 16);
  std::vector<std::int64_t> degree(n, 0);
  m_boundary.assign(n, 0);
  for (std::size_t lo = 0; lo < n; ++lo) {
    const auto first = half.begin() + start[lo], last = half.begin() + start[lo + 1];
    std::sort(first, last, [](const HalfEdge& x, const HalfEdge& y) {
      return x.hi != y.hi ? x.hi < y.hi : x.triangle < y.triangle;
    });
    for (auto it = first; it != last;) {
      auto end = it;
      while (end != last && end->hi == it->hi) ++end;
      const std::ptrdiff_t count = end - it;
      if (count > 2) {
        std::string others;
        for (auto o = it; o != end; ++o) {
          if (o == it + 2) continue;
          others += (others.empty() ? "" : ", ") + mesh.triangleSource(std::size_t(o->triangle));
        }
        const std::size_t t = std::size_t((it + 2)->triangle);
        throw MeshError(mesh.name, t < mesh.triangleLines.size() ? mesh.triangleLines[t] : 0,
                        "edge between vertices " + std::to_string(lo) + " and " + std::to_string(it->hi) +
                            " (0-based) belongs to " + std::to_string(count) +
                            " triangles (non-manifold edge; a mesh edge may have at most two): triangle " +
                            std::to_string(t) + ", and " + others);
      }
      Edge e{std::int32_t(lo), it->hi, -1, -1};
      // Entry (lo, hi): next is the triangle that runs lo -> hi, prev the one running hi -> lo.
      for (auto h = it; h != end; ++h) {
        const bool forward = h->from == std::int32_t(lo);
        std::int32_t& preferred = forward ? e.loNext : e.loPrev;
        std::int32_t& other = forward ? e.loPrev : e.loNext;
        if (preferred < 0) {
          preferred = h->opposite;
        } else {
          other = h->opposite;
          ++m_inconsistentEdges;
        }
      }
      if (count == 1) {
        ++m_boundaryEdges;
        m_boundary[lo] = m_boundary[std::size_t(e.hi)] = 1;
      }
      ++degree[lo];
      ++degree[std::size_t(e.hi)];
      edges.push_back(e);
      it = end;
    }
  }
  m_edges = edges.size();
  half.clear();
  half.shrink_to_fit();

  // Rows in order: edges come by ascending lo, then ascending hi, so filling row by row in
  // this order leaves every row's columns ascending.
  m_pattern.rows = m_pattern.cols = n;
  m_pattern.rowPtr.assign(n + 1, 0);
  for (std::size_t v = 0; v < n; ++v) {
    m_pattern.rowPtr[v + 1] = m_pattern.rowPtr[v] + degree[v];
    m_maxValence = std::max(m_maxValence, int(degree[v]));
  }
  const std::size_t nnz = std::size_t(m_pattern.rowPtr[n]);
  m_pattern.colIdx.resize(nnz);
  m_pattern.values.assign(nnz, 1.0);
  m_next.resize(nnz);
  m_prev.resize(nnz);
  m_entryRow.resize(nnz);
  std::vector<std::int64_t> fill(m_pattern.rowPtr.begin(), m_pattern.rowPtr.end() - 1);
  // Two sweeps keep the columns ascending: first the entries (hi, lo) with lo < hi (row hi
  // gets its smaller neighbours, by ascending lo), then (lo, hi) (larger neighbours).
  for (const Edge& e : edges) {
    const std::size_t at = std::size_t(fill[std::size_t(e.hi)]++);
    m_pattern.colIdx[at] = e.lo;
    m_next[at] = e.loPrev;  // the triangle running hi -> lo is entry (lo, hi)'s prev
    m_prev[at] = e.loNext;
    m_entryRow[at] = e.hi;
  }
  for (const Edge& e : edges) {
    const std::size_t at = std::size_t(fill[std::size_t(e.lo)]++);
    m_pattern.colIdx[at] = e.hi;
    m_next[at] = e.loNext;
    m_prev[at] = e.loPrev;
    m_entryRow[at] = e.lo;
  }
  for (std::size_t v = 0; v < n; ++v) {
    if (m_boundary[v]) ++m_boundaryVertices;
    if (degree[v] == 0) ++m_isolatedVertices;
  }
}

}  // namespace texstream::geometry
