// Fans at a vertex: the corners of the triangles around it, joined where two share an edge
// from that vertex (a union-find over corners, the edges bucketed by vertex as
// TriangleTopology buckets them); a manifold vertex has one fan, a bow-tie two or more.
// Duplicates: the sorted index triples of the triangles at their smallest vertex.
// Coincident vertices: a sort by the exact position.
#include <texstream/geometry/MeshDefects.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

namespace texstream::geometry {

namespace {

/// Defects named one by one in a message; the rest are counted.
constexpr std::size_t kNamed = 5;

std::int32_t findRoot(std::vector<std::int32_t>& parent, std::int32_t i) {
  while (parent[std::size_t(i)] != i) {
    parent[std::size_t(i)] = parent[std::size_t(parent[std::size_t(i)])];
    i = parent[std::size_t(i)];
  }
  return i;
}

/// "a", "a and b", "a, b and c", "a, b, c, d, e and 7 more".
std::string listed(const std::vector<std::string>& names, std::size_t total) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const bool last = i + 1 == names.size() && total == names.size();
    out += i == 0 ? "" : last ? " and " : ", ";
    out += names[i];
  }
  if (total > names.size()) out += " and " + std::to_string(total - names.size()) + " more";
  return out;
}

}  // namespace

std::size_t MeshDefects::count(MeshDefectKind kind) const {
  switch (kind) {
    case MeshDefectKind::NonManifoldVertex: return nonManifoldVertices.size();
    case MeshDefectKind::IsolatedVertex: return isolatedVertices.size();
    case MeshDefectKind::ZeroAreaTriangle: return zeroAreaTriangles.size();
    case MeshDefectKind::DuplicateTriangle: return duplicateTriangles.size();
    case MeshDefectKind::CoincidentVertices: return coincidentVertices.size();
  }
  return 0;
}

bool MeshDefects::empty() const {
  return nonManifoldVertices.empty() && isolatedVertices.empty() && zeroAreaTriangles.empty() &&
         duplicateTriangles.empty() && coincidentVertices.empty();
}

MeshDefects MeshDefects::withPieceJointsOnly() const {
  MeshDefects d = *this;
  std::erase_if(d.nonManifoldVertices, [](const Fans& f) { return !f.joinsPieces; });
  return d;
}

std::string MeshDefects::describe(MeshDefectKind kind, const std::string& consequence) const {
  const std::size_t total = count(kind);
  if (total == 0) return {};
  const std::size_t shown = std::min(total, kNamed);
  const bool one = total == 1;
  auto triangle = [&](std::int32_t t) {
    std::string s = "triangle " + std::to_string(t);
    if (mesh && std::size_t(t) < mesh->triangleLines.size()) s += " (line " + std::to_string(mesh->triangleLines[std::size_t(t)]) + ")";
    return s;
  };
  const std::string then = consequence.empty() ? "" : ": " + consequence;
  std::vector<std::string> names;
  switch (kind) {
    case MeshDefectKind::NonManifoldVertex:
      for (std::size_t i = 0; i < shown; ++i)
        names.push_back(std::to_string(nonManifoldVertices[i].vertex) + " (" + std::to_string(nonManifoldVertices[i].fans) +
                        " fans)");
      return (one ? "vertex " : "vertices ") + listed(names, total) + (one ? " is" : " are") +
             " non-manifold (fans of triangles that meet only at the vertex, a bow-tie)" + then +
             "; split " + (one ? "it" : "each") + " into one vertex per fan";
    case MeshDefectKind::IsolatedVertex:
      for (std::size_t i = 0; i < shown; ++i) names.push_back(std::to_string(isolatedVertices[i]));
      return (one ? "vertex " : "vertices ") + listed(names, total) + (one ? " belongs" : " belong") +
             " to no triangle" + then + "; remove " + (one ? "it" : "them");
    case MeshDefectKind::ZeroAreaTriangle:
      for (std::size_t i = 0; i < shown; ++i) {
        const std::int32_t t = zeroAreaTriangles[i];
        std::string s = triangle(t);
        if (mesh) {
          const std::int32_t* v = &mesh->triangles[3 * std::size_t(t)];
          s += " [vertices " + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " + std::to_string(v[2]) + "]";
        }
        names.push_back(s);
      }
      return listed(names, total) + (one ? " has" : " have") + " zero area" + then + "; remove " +
             (one ? "it" : "them") + ", or weld " + (one ? "its" : "their") + " vertices where they coincide";
    case MeshDefectKind::DuplicateTriangle:
      for (std::size_t i = 0; i < shown; ++i)
        names.push_back(triangle(duplicateTriangles[i].second) + " repeats " + triangle(duplicateTriangles[i].first));
      return listed(names, total) + " (the same three vertices)" + then + "; remove the " + (one ? "repeat" : "repeats");
    case MeshDefectKind::CoincidentVertices:
      for (std::size_t i = 0; i < shown; ++i)
        names.push_back("vertices " + std::to_string(coincidentVertices[i].first) + " and " +
                        std::to_string(coincidentVertices[i].second));
      return listed(names, total) + " are at the same position" + then + "; weld " + (one ? "them" : "each pair") +
             " where they are one point (an unwelded seam)";
  }
  return {};
}

MeshDefects findMeshDefects(const Mesh& mesh, double zeroAreaRatio) {
  mesh.validate();
  MeshDefects d;
  d.mesh = &mesh;
  const std::size_t n = mesh.vertexCount(), T = mesh.triangleCount();
  const std::vector<std::int32_t>& tri = mesh.triangles;

  // Isolated vertices.
  std::vector<std::uint8_t> used(n, 0);
  for (std::int32_t v : tri) used[std::size_t(v)] = 1;
  for (std::size_t v = 0; v < n; ++v)
    if (!used[v]) d.isolatedVertices.push_back(std::int32_t(v));

  // Zero-area triangles.
  for (std::size_t t = 0; t < T; ++t) {
    const double* a = &mesh.positions[3 * std::size_t(tri[3 * t])];
    const double* b = &mesh.positions[3 * std::size_t(tri[3 * t + 1])];
    const double* c = &mesh.positions[3 * std::size_t(tri[3 * t + 2])];
    const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    const double w[3] = {c[0] - b[0], c[1] - b[1], c[2] - b[2]};
    const double x = u[1] * v[2] - u[2] * v[1], y = u[2] * v[0] - u[0] * v[2], z = u[0] * v[1] - u[1] * v[0];
    const double twiceArea = std::sqrt(x * x + y * y + z * z);
    const double edges = u[0] * u[0] + u[1] * u[1] + u[2] * u[2] + v[0] * v[0] + v[1] * v[1] + v[2] * v[2] +
                         w[0] * w[0] + w[1] * w[1] + w[2] * w[2];
    if (!(twiceArea > zeroAreaRatio * edges)) d.zeroAreaTriangles.push_back(std::int32_t(t));
  }

  // Each vertex's spokes (corner 3t + k has two: to the triangle's other vertices),
  // bucketed by vertex (counting sort) and sorted by the other end within each bucket.
  struct Spoke {
    std::int32_t other, corner;
  };
  std::vector<std::int64_t> start(n + 1, 0);
  for (std::int32_t v : tri) start[std::size_t(v) + 1] += 2;
  for (std::size_t v = 0; v < n; ++v) start[v + 1] += start[v];
  std::vector<Spoke> spokes(6 * T);
  {
    std::vector<std::int64_t> fill(start.begin(), start.end() - 1);
    for (std::size_t t = 0; t < T; ++t)
      for (std::size_t k = 0; k < 3; ++k) {
        const std::size_t v = std::size_t(tri[3 * t + k]);
        const std::int32_t corner = std::int32_t(3 * t + k);
        spokes[std::size_t(fill[v]++)] = {tri[3 * t + (k + 1) % 3], corner};
        spokes[std::size_t(fill[v]++)] = {tri[3 * t + (k + 2) % 3], corner};
      }
  }
  for (std::size_t v = 0; v < n; ++v)
    std::sort(spokes.begin() + start[v], spokes.begin() + start[v + 1], [](const Spoke& p, const Spoke& q) {
      return p.other != q.other ? p.other < q.other : p.corner < q.corner;
    });

  // Non-manifold vertices: the corners at a vertex joined where they share a spoke; one
  // fan is one set. The triangles joined across the same edges give the edge-connected
  // pieces.
  {
    auto unite = [](std::vector<std::int32_t>& parent, std::int32_t a, std::int32_t b) {
      const std::int32_t p = findRoot(parent, a), q = findRoot(parent, b);
      if (p != q) parent[std::size_t(std::max(p, q))] = std::min(p, q);
    };
    std::vector<std::int32_t> corner(3 * T), piece(T);
    std::iota(corner.begin(), corner.end(), 0);
    std::iota(piece.begin(), piece.end(), 0);
    for (std::size_t v = 0; v < n; ++v)
      for (std::size_t i = std::size_t(start[v]) + 1; i < std::size_t(start[v + 1]); ++i) {
        if (spokes[i].other != spokes[i - 1].other) continue;
        unite(corner, spokes[i].corner, spokes[i - 1].corner);
        unite(piece, spokes[i].corner / 3, spokes[i - 1].corner / 3);
      }
    for (std::size_t t = 0; t < T; ++t)
      if (findRoot(piece, std::int32_t(t)) == std::int32_t(t)) ++d.edgeConnectedPieces;
    std::vector<std::int32_t> fanSeenAt(3 * T, -1), pieceSeenAt(T, -1);
    for (std::size_t v = 0; v < n; ++v) {
      int fans = 0, pieces = 0;
      for (std::size_t i = std::size_t(start[v]); i < std::size_t(start[v + 1]); ++i) {
        const std::int32_t fan = findRoot(corner, spokes[i].corner), p = findRoot(piece, spokes[i].corner / 3);
        if (fanSeenAt[std::size_t(fan)] != std::int32_t(v)) fanSeenAt[std::size_t(fan)] = std::int32_t(v), ++fans;
        if (pieceSeenAt[std::size_t(p)] != std::int32_t(v)) pieceSeenAt[std::size_t(p)] = std::int32_t(v), ++pieces;
      }
      if (fans > 1) d.nonManifoldVertices.push_back({std::int32_t(v), fans, pieces > 1});
    }
  }

  // Duplicate triangles: the same sorted index triple, compared among the triangles at
  // their smallest vertex.
  {
    std::vector<std::array<std::int32_t, 3>> key(T);
    for (std::size_t t = 0; t < T; ++t) {
      key[t] = {tri[3 * t], tri[3 * t + 1], tri[3 * t + 2]};
      std::sort(key[t].begin(), key[t].end());
    }
    std::vector<std::int32_t> group;
    for (std::size_t v = 0; v < n; ++v) {
      group.clear();
      for (std::int64_t i = start[v]; i < start[v + 1]; ++i) {
        const std::int32_t t = spokes[std::size_t(i)].corner / 3;
        if (key[std::size_t(t)][0] == std::int32_t(v)) group.push_back(t);
      }
      std::sort(group.begin(), group.end(), [&](std::int32_t p, std::int32_t q) {
        return key[std::size_t(p)] != key[std::size_t(q)] ? key[std::size_t(p)] < key[std::size_t(q)] : p < q;
      });
      group.erase(std::unique(group.begin(), group.end()), group.end());
      for (std::size_t i = 1, first = 0; i < group.size(); ++i) {
        if (key[std::size_t(group[i])] != key[std::size_t(group[first])]) {
          first = i;
          continue;
        }
        d.duplicateTriangles.push_back({group[first], group[i]});
      }
    }
    std::sort(d.duplicateTriangles.begin(), d.duplicateTriangles.end(),
              [](const MeshDefects::Pair& p, const MeshDefects::Pair& q) { return p.second < q.second; });
  }

  // Coincident vertices among those triangles use: equal positions, exactly.
  {
    std::vector<std::int32_t> order;
    for (std::size_t v = 0; v < n; ++v)
      if (used[v]) order.push_back(std::int32_t(v));
    auto position = [&](std::int32_t v) {
      const double* p = &mesh.positions[3 * std::size_t(v)];
      return std::array<double, 3>{p[0], p[1], p[2]};
    };
    std::sort(order.begin(), order.end(), [&](std::int32_t p, std::int32_t q) {
      const auto a = position(p), b = position(q);
      return a != b ? a < b : p < q;
    });
    for (std::size_t i = 1, first = 0; i < order.size(); ++i) {
      if (position(order[i]) != position(order[first])) {
        first = i;
        continue;
      }
      d.coincidentVertices.push_back({order[first], order[i]});
    }
    std::sort(d.coincidentVertices.begin(), d.coincidentVertices.end(),
              [](const MeshDefects::Pair& p, const MeshDefects::Pair& q) {
                return p.first != q.first ? p.first < q.first : p.second < q.second;
              });
  }
  return d;
}

}  // namespace texstream::geometry
