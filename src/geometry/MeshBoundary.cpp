#include <texstream/geometry/MeshBoundary.h>

#include <numeric>

namespace texstream::geometry {

std::vector<std::vector<std::int32_t>> boundaryLoops(const TriangleTopology& topology) {
  const linalg::Csr& pattern = topology.pattern();
  const std::size_t n = topology.vertexCount();
  // Boundary half-edges i -> j: a triangle runs i -> j and none runs j -> i.
  std::vector<std::int64_t> first(n + 1, 0);
  std::vector<std::int32_t> to;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::int64_t e = pattern.rowPtr[i]; e < pattern.rowPtr[i + 1]; ++e)
      if (topology.next(std::size_t(e)) >= 0 && topology.prev(std::size_t(e)) < 0) to.push_back(pattern.colIdx[std::size_t(e)]);
    first[i + 1] = std::int64_t(to.size());
  }
  std::vector<std::uint8_t> used(to.size(), 0);
  std::vector<std::int64_t> cursor(first.begin(), first.end() - 1);  // next unused half-edge out of each vertex
  auto takeFrom = [&](std::size_t v) -> std::int64_t {
    for (std::int64_t& k = cursor[v]; k < first[v + 1]; ++k)
      if (!used[std::size_t(k)]) return k;
    return -1;
  };
  std::vector<std::vector<std::int32_t>> loops;
  for (std::size_t start = 0; start < n; ++start) {
    for (std::int64_t h = takeFrom(start); h >= 0; h = takeFrom(start)) {
      std::vector<std::int32_t> loop{std::int32_t(start)};
      for (std::int64_t k = h; k >= 0;) {
        used[std::size_t(k)] = 1;
        const std::int32_t v = to[std::size_t(k)];
        if (std::size_t(v) == start) break;
        loop.push_back(v);
        k = takeFrom(std::size_t(v));
      }
      loops.push_back(std::move(loop));
    }
  }
  return loops;
}

MeshComponents connectedComponents(const Mesh& mesh) {
  const std::size_t n = mesh.vertexCount();
  std::vector<std::int32_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](std::int32_t v) {
    while (parent[std::size_t(v)] != v) v = parent[std::size_t(v)] = parent[std::size_t(parent[std::size_t(v)])];
    return v;
  };
  std::vector<std::uint8_t> usedVertex(n, 0);
  for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
    const std::int32_t a = find(mesh.triangles[3 * t]);
    usedVertex[std::size_t(mesh.triangles[3 * t])] = 1;
    for (int k = 1; k < 3; ++k) {
      usedVertex[std::size_t(mesh.triangles[3 * t + std::size_t(k)])] = 1;
      const std::int32_t b = find(mesh.triangles[3 * t + std::size_t(k)]);
      if (a != b) parent[std::size_t(b)] = a;
    }
  }
  MeshComponents c;
  c.ofVertex.assign(n, -1);
  std::vector<std::int32_t> label(n, -1);
  for (std::size_t v = 0; v < n; ++v) {
    if (!usedVertex[v]) continue;
    const std::int32_t root = find(std::int32_t(v));
    if (label[std::size_t(root)] < 0) label[std::size_t(root)] = std::int32_t(c.count++);
    c.ofVertex[v] = label[std::size_t(root)];
  }
  return c;
}

}  // namespace texstream::geometry
