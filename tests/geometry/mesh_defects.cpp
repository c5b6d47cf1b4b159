// Tests src/geometry/MeshDefects.*: each defect found and named with its vertex or triangle
// and what to do (split, remove, weld); LSCM, DSI and the curvature flow refuse what they
// cannot solve before their solver sees it (the bow-tie of issue 35: a non-manifold vertex
// and an unused one, which LSCM's multigrid met as a singular coarsest matrix), note what
// they run with, and say what they do with it.
#include <catch2/catch.hpp>

#include "support/Gl.h"

#include <texstream/geometry/CurvatureFlow.h>
#include <texstream/geometry/Dsi.h>
#include <texstream/geometry/Lscm.h>
#include <texstream/geometry/MeshDefects.h>
#include <texstream/geometry/MeshIo.h>
#include <texstream/geometry/ProceduralMeshes.h>

#include <algorithm>
#include <map>
#include <string>

using namespace texstream;
using namespace texstream::geometry;
using Catch::Matchers::Contains;

namespace {

/// Two triangles that share only vertex 0, and vertex 5 that no triangle uses.
Mesh bowTie() {
  return parseMesh("v 0 0 0\nv 1 0 0\nv 1 1 0\nv -1 0 0\nv -1 -1 0\nv 5 5 5\nf 1 2 3\nf 1 4 5\n", MeshFormat::Obj,
                   "bowtie.obj");
}

bool anyContains(const std::vector<std::string>& lines, const std::string& part) {
  return std::any_of(lines.begin(), lines.end(), [&](const std::string& l) { return l.find(part) != std::string::npos; });
}

}  // namespace

TEST_CASE("MeshDefects: each kind found, named with its vertex or triangle and the remedy", "[geometry]") {
  const Mesh bow = bowTie();
  const MeshDefects d = findMeshDefects(bow, 1e-12);
  REQUIRE(d.nonManifoldVertices.size() == 1);
  CHECK(d.nonManifoldVertices[0].vertex == 0);
  CHECK(d.nonManifoldVertices[0].fans == 2);
  CHECK(d.isolatedVertices == std::vector<std::int32_t>{5});
  CHECK(d.zeroAreaTriangles.empty());
  CHECK(d.duplicateTriangles.empty());
  CHECK(d.coincidentVertices.empty());
  CHECK(d.describe(MeshDefectKind::NonManifoldVertex, "X") ==
        "vertex 0 (2 fans) is non-manifold (fans of triangles that meet only at the vertex, a bow-tie): X; split it into "
        "one vertex per fan");
  CHECK(d.describe(MeshDefectKind::IsolatedVertex) == "vertex 5 belongs to no triangle; remove it");
  CHECK(d.describe(MeshDefectKind::ZeroAreaTriangle).empty());

  // A fan around a vertex whose triangles join along edges is one fan, not a bow-tie; three
  // fans meeting at one vertex are counted.
  CHECK(findMeshDefects(builtinMesh("patch", 300, 0.0), 1e-12).empty());
  const Mesh three = parseMesh("v 0 0 0\nv 1 0 0\nv 1 1 0\nv -1 0 0\nv -1 -1 0\nv 0 2 1\nv 0 3 1\n"
                               "f 1 2 3\nf 1 4 5\nf 1 6 7\n",
                               MeshFormat::Obj, "three.obj");
  REQUIRE(findMeshDefects(three, 1e-12).nonManifoldVertices.size() == 1);
  CHECK(findMeshDefects(three, 1e-12).nonManifoldVertices[0].fans == 3);

  // A repeat in another vertex order, a collinear triangle, two vertices at one point.
  const Mesh messy = parseMesh("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 2 0 0\nv 1 0 0\nv 0 -1 0\n"
                               "f 1 2 3\nf 3 1 2\nf 1 2 4\nf 1 6 5\n",
                               MeshFormat::Obj, "messy.obj");
  const MeshDefects m = findMeshDefects(messy, 1e-12);
  REQUIRE(m.duplicateTriangles.size() == 1);
  CHECK(m.duplicateTriangles[0].first == 0);
  CHECK(m.duplicateTriangles[0].second == 1);
  CHECK(m.describe(MeshDefectKind::DuplicateTriangle) ==
        "triangle 1 (line 8) repeats triangle 0 (line 7) (the same three vertices); remove the repeat");
  CHECK(m.zeroAreaTriangles == std::vector<std::int32_t>{2});
  CHECK(m.describe(MeshDefectKind::ZeroAreaTriangle) ==
        "triangle 2 (line 9) [vertices 0, 1, 3] has zero area; remove it, or weld its vertices where they coincide");
  REQUIRE(m.coincidentVertices.size() == 1);
  CHECK(m.coincidentVertices[0].first == 1);
  CHECK(m.coincidentVertices[0].second == 4);
  CHECK(m.describe(MeshDefectKind::CoincidentVertices) ==
        "vertices 1 and 4 are at the same position; weld them where they are one point (an unwelded seam)");

  // Many of a kind: five named, the rest counted.
  Mesh loose = builtinMesh("patch", 100, 0.0);
  for (int k = 0; k < 8; ++k) loose.positions.insert(loose.positions.end(), {9.0, 9.0, double(k)});
  const MeshDefects l = findMeshDefects(loose, 1e-12);
  CHECK(l.isolatedVertices.size() == 8);
  CHECK_THAT(l.describe(MeshDefectKind::IsolatedVertex), Contains(" and 3 more belong to no triangle; remove them"));
}

TEST_CASE("LSCM, DSI and the flow refuse what they cannot solve before the solver sees it", "[geometry]") {
  // Issue 35's bow-tie: named, not a multigrid failure. No GL context is needed to refuse.
  REQUIRE_THROWS_WITH(Lscm(bowTie()), Contains("bowtie.obj: vertex 0 (2 fans) is non-manifold") &&
                                          Contains("LSCM cannot map them") && Contains("split it into one vertex per fan"));

  const Mesh repeated = parseMesh("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3\nf 2 4 3\nf 3 2 4\n", MeshFormat::Obj,
                                  "repeated.obj");
  REQUIRE_THROWS_WITH(Lscm(repeated), Contains("repeated.obj:7: triangle 2 (line 7) repeats triangle 1 (line 6)") &&
                                          Contains("remove the repeat"));
  REQUIRE_THROWS_WITH(DsiSmoother(repeated), Contains("triangle 2 (line 7) repeats triangle 1") &&
                                                 Contains("DSI needs each triangle once"));
  REQUIRE_THROWS_WITH(CurvatureFlow(repeated), Contains("triangle 2 (line 7) repeats triangle 1") &&
                                                   Contains("the curvature flow needs each triangle once"));

  const Mesh flat = parseMesh("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 2 2 0\nf 1 2 3\nf 1 3 4\n", MeshFormat::Obj, "flat.obj");
  REQUIRE_THROWS_WITH(Lscm(flat), Contains("flat.obj:6: triangle 1 (line 6) [vertices 0, 2, 3] has zero area") &&
                                      Contains("remove it, or weld"));

  // DSI without data rows: a piece with no held vertex is free (a singular system), named
  // as the mesh's problem.
  Mesh pieces = builtinMesh("patch", 100, 0.0);
  const Mesh sphere = icosphereMesh(1);
  const std::int32_t offset = std::int32_t(pieces.vertexCount());
  pieces.positions.insert(pieces.positions.end(), sphere.positions.begin(), sphere.positions.end());
  for (std::int32_t v : sphere.triangles) pieces.triangles.push_back(v + offset);
  DsiOptions o;
  o.dataWeight = 0;
  REQUIRE_THROWS_WITH(DsiSmoother(pieces, o), Contains("the connected piece with vertex " + std::to_string(offset)) &&
                                                  Contains("has no held vertex") && Contains("hold a vertex in it"));
}

TEST_CASE("LSCM and the flow run with isolated and coincident vertices and say what they did", "[gl][geometry]") {
  test::context();
  // The patch with a triangle hung on a boundary edge whose apex sits on a vertex of the
  // patch (two vertices at one point, as an unwelded seam has), and an unused vertex.
  Mesh m = builtinMesh("patch", 200, 0.0);
  m.name = "seam";
  const std::size_t n = m.vertexCount();
  std::map<std::pair<std::int32_t, std::int32_t>, int> edges;
  for (std::size_t t = 0; t < m.triangleCount(); ++t)
    for (std::size_t k = 0; k < 3; ++k) {
      const std::int32_t a = m.triangles[3 * t + k], b = m.triangles[3 * t + (k + 1) % 3];
      ++edges[{std::min(a, b), std::max(a, b)}];
    }
  std::size_t slot = 0;
  while (edges[{std::min(m.triangles[slot], m.triangles[slot / 3 * 3 + (slot + 1) % 3]),
                std::max(m.triangles[slot], m.triangles[slot / 3 * 3 + (slot + 1) % 3])}] != 1)
    ++slot;
  const std::int32_t a = m.triangles[slot], b = m.triangles[slot / 3 * 3 + (slot + 1) % 3];
  std::int32_t onto = std::int32_t(n / 2);
  while (onto == a || onto == b) ++onto;
  for (std::size_t c = 0; c < 3; ++c) m.positions.push_back(m.positions[3 * std::size_t(onto) + c]);
  m.triangles.insert(m.triangles.end(), {b, a, std::int32_t(n)});
  m.positions.insert(m.positions.end(), {7.0, 7.0, 7.0});
  const MeshDefects d = findMeshDefects(m, 1e-12);
  REQUIRE(d.isolatedVertices == std::vector<std::int32_t>{std::int32_t(n + 1)});
  REQUIRE(d.coincidentVertices.size() == 1);
  REQUIRE(d.zeroAreaTriangles.empty());

  Lscm lscm(m);
  REQUIRE(lscm.notes().size() == 2);
  CHECK(anyContains(lscm.notes(), "vertex " + std::to_string(n + 1) + " belongs to no triangle: locked at (0, 0)"));
  CHECK(anyContains(lscm.notes(), "are at the same position: mapped apart"));
  CHECK(lscm.solve().converged());

  CurvatureFlowOptions fo;
  fo.fixBoundary = false;
  CurvatureFlow flow(m, fo, "seam");
  CHECK(anyContains(flow.notes(), "belongs to no triangle: held in place"));
  CHECK(anyContains(flow.notes(), "not joined: each moves with its own triangles, so a crack may open"));
  REQUIRE(flow.step(1e-4).converged());
  const std::vector<double> x = flow.downloadPositions();
  for (std::size_t c = 0; c < 3; ++c) CHECK(x[3 * (n + 1) + c] == 7.0);  // the isolated vertex stays

  // A bow-tie moves as one point under the flow, which says so.
  CurvatureFlow bow(bowTie(), fo, "bowtie");
  CHECK((anyContains(bow.notes(), "vertex 0 (2 fans) is non-manifold") && anyContains(bow.notes(), "each moves as one point")));
  REQUIRE(bow.step(1e-3).converged());
  for (double v : bow.downloadPositions()) CHECK(std::isfinite(v));
}
