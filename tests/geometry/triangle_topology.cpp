// Tests src/geometry/TriangleTopology.*: the entry pattern is the mesh's edge graph in both
// directions with ascending columns; next/prev are the vertices opposite each edge with the
// documented orientation; boundary, unused and inconsistently oriented edges are counted;
// non-manifold edges are errors citing the file lines of the triangles.
#include <catch2/catch.hpp>

#include <texstream/geometry/MeshIo.h>
#include <texstream/geometry/ProceduralMeshes.h>
#include <texstream/geometry/TriangleTopology.h>

#include <set>
#include <tuple>

using namespace texstream::geometry;

namespace {

/// The triangles as a set of (a, b, c) rotations, to look up directed edges.
bool hasDirectedTriangle(const Mesh& m, std::int32_t a, std::int32_t b, std::int32_t c) {
  for (std::size_t t = 0; t < m.triangleCount(); ++t) {
    const std::int32_t* f = &m.triangles[3 * t];
    for (int r = 0; r < 3; ++r) {
      if (f[r] == a && f[(r + 1) % 3] == b && f[(r + 2) % 3] == c) return true;
    }
  }
  return false;
}

void checkInvariants(const Mesh& m, const TriangleTopology& topo) {
  const auto& P = topo.pattern();
  REQUIRE(P.rows == m.vertexCount());
  P.validate("pattern");
  std::set<std::pair<int, int>> entries;
  for (std::size_t i = 0; i < P.rows; ++i) {
    for (auto e = P.rowPtr[i]; e < P.rowPtr[i + 1]; ++e) {
      const int j = P.colIdx[std::size_t(e)];
      REQUIRE(j != int(i));
      if (e > P.rowPtr[i]) REQUIRE(P.colIdx[std::size_t(e - 1)] < j);
      REQUIRE(topo.entryRows()[std::size_t(e)] == int(i));
      entries.insert({int(i), j});
      const std::int32_t n = topo.next(std::size_t(e)), p = topo.prev(std::size_t(e));
      REQUIRE((n >= 0 || p >= 0));
      if (n >= 0) REQUIRE(hasDirectedTriangle(m, std::int32_t(i), j, n));
      if (p >= 0) REQUIRE(hasDirectedTriangle(m, j, std::int32_t(i), p));
    }
  }
  for (const auto& [i, j] : entries) REQUIRE(entries.count({j, i}) == 1);  // symmetric pattern
  REQUIRE(P.nonZeros() == 2 * topo.edgeCount());
}

}  // namespace

TEST_CASE("TriangleTopology of closed meshes: edges, opposite vertices, Euler characteristic", "[geometry]") {
  for (const Mesh& m : {cubeMesh(3), icosphereMesh(3), torusMesh(9, 5)}) {
    INFO(m.name);
    const TriangleTopology topo(m);
    checkInvariants(m, topo);
    REQUIRE(topo.boundaryEdgeCount() == 0);
    REQUIRE(topo.boundaryVertexCount() == 0);
    REQUIRE(topo.inconsistentEdges() == 0);
    REQUIRE(topo.isolatedVertexCount() == 0);
    const long long chi = (long long)m.vertexCount() - (long long)topo.edgeCount() + (long long)m.triangleCount();
    REQUIRE(chi == (m.name == "builtin:torus" ? 0 : 2));
  }
}

TEST_CASE("TriangleTopology of an open mesh: boundary, unused vertices, orientation", "[geometry]") {
  const Mesh patch = patchMesh(20);
  const TriangleTopology topo(patch);
  checkInvariants(patch, topo);
  REQUIRE(topo.boundaryEdgeCount() > 0);
  REQUIRE(topo.boundaryVertexCount() > 0);
  REQUIRE(topo.inconsistentEdges() == 0);

  // Two triangles sharing edge 0-2, consistently oriented ((0, 1, 2) runs 2 -> 0, (0, 2, 3)
  // runs 0 -> 2), and an unused vertex 4; then the second one flipped.
  Mesh quad;
  quad.name = "quad";
  quad.positions = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 5, 5, 5};
  quad.triangles = {0, 1, 2, 0, 2, 3};
  const TriangleTopology a(quad);
  checkInvariants(quad, a);
  REQUIRE(a.edgeCount() == 5);
  REQUIRE(a.boundaryEdgeCount() == 4);
  REQUIRE(a.isolatedVertexCount() == 1);
  REQUIRE(a.isIsolated(4));
  REQUIRE(a.maxValence() == 3);
  quad.triangles = {0, 1, 2, 0, 3, 2};  // both run 2 -> 0 now
  const TriangleTopology b(quad);
  REQUIRE(b.inconsistentEdges() == 1);
}

TEST_CASE("Non-manifold edges are errors naming the triangles' lines", "[geometry]") {
  const char* obj =
      "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 -1 0\nv 0 0 1\n"
      "f 1 2 3\n"
      "f 2 1 4\n"
      "# a fin on edge 1-2\n"
      "f 1 2 5\n";
  const Mesh m = parseMesh(obj, MeshFormat::Obj, "fin.obj");
  try {
    TriangleTopology topo(m);
    FAIL("no error");
  } catch (const MeshError& e) {
    const std::string what = e.what();
    INFO(what);
    REQUIRE(e.line() == 9);
    REQUIRE(what.rfind("fin.obj:9: edge between vertices 0 and 1", 0) == 0);
    REQUIRE(what.find("non-manifold edge") != std::string::npos);
    REQUIRE(what.find("fin.obj:6") != std::string::npos);
    REQUIRE(what.find("fin.obj:7") != std::string::npos);
  }
}
