// Tests src/geometry/ProceduralMeshes.*: sizes follow the documented formulas, meshes are
// closed (or open, for the patch) and outward oriented, noise is reproducible and moves
// vertices by the requested amount along the normals, and sizes up to millions work.
#include <catch2/catch.hpp>

#include <texstream/geometry/ProceduralMeshes.h>
#include <texstream/geometry/TriangleTopology.h>

#include <cmath>

using namespace texstream::geometry;

TEST_CASE("Built-in meshes have the documented sizes and shapes", "[geometry]") {
  const Mesh cube = cubeMesh(7);
  REQUIRE(cube.vertexCount() == 6 * 49 + 2);
  REQUIRE(cube.triangleCount() == 12 * 49);
  REQUIRE(cube.area() == Approx(24.0).epsilon(1e-12));
  REQUIRE(cube.volume() == Approx(8.0).epsilon(1e-12));  // positive: outward

  const Mesh sphere = icosphereMesh(6, 2.0);
  REQUIRE(sphere.vertexCount() == 10 * 36 + 2);
  REQUIRE(sphere.triangleCount() == 20 * 36);
  for (std::size_t v = 0; v < sphere.vertexCount(); ++v) {
    const double* p = &sphere.positions[3 * v];
    REQUIRE(std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]) == Approx(2.0).epsilon(1e-12));
  }
  REQUIRE(sphere.volume() > 0.95 * 4.0 / 3.0 * M_PI * 8.0);

  const Mesh torus = torusMesh(24, 10);
  REQUIRE(torus.vertexCount() == 240);
  REQUIRE(torus.volume() > 0);
  // The inscribed 24 x 10 polyhedron holds about sinc(2 pi / 24) sinc(2 pi / 10) of the volume.
  REQUIRE(torus.volume() == Approx(2.0 * M_PI * M_PI * 1.0 * 0.35 * 0.35).epsilon(0.1));

  const Mesh patch = patchMesh(30);
  const TriangleTopology topo(patch);
  REQUIRE(topo.boundaryVertexCount() > 0);
  // The outer outline and four holes: the boundary edges form at least five loops, so
  // V - E + F = 2 - 2g - b = 1 - holes <= -3.
  const long long chi = (long long)patch.vertexCount() - (long long)topo.edgeCount() + (long long)patch.triangleCount();
  REQUIRE(chi <= -3);
}

TEST_CASE("builtinMesh hits the requested size and rejects bad requests", "[geometry]") {
  for (const std::string& name : builtinMeshNames()) {
    const Mesh m = builtinMesh(name, 5000, 0.0);
    INFO(name << ": " << m.vertexCount());
    REQUIRE(m.vertexCount() > 4000);
    REQUIRE(m.vertexCount() < 6000);
    REQUIRE(m.name == "builtin:" + name);
  }
  REQUIRE_THROWS_WITH(builtinMesh("bunny", 100, 0.0), Catch::Contains("known: cube, icosphere, torus, patch"));
  REQUIRE_THROWS_AS(builtinMesh("cube", 100, -1.0), std::invalid_argument);
  REQUIRE_THROWS_AS(builtinMesh("cube", 20'000'000, 0.0), std::invalid_argument);
}

TEST_CASE("Noise is reproducible and moves vertices along their normals", "[geometry]") {
  const Mesh clean = icosphereMesh(10);
  const Mesh a = builtinMesh("icosphere", clean.vertexCount(), 0.2, 5);
  const Mesh b = builtinMesh("icosphere", clean.vertexCount(), 0.2, 5);
  const Mesh c = builtinMesh("icosphere", clean.vertexCount(), 0.2, 6);
  REQUIRE(a.positions == b.positions);
  REQUIRE(a.positions != c.positions);
  const double h = meanEdgeLength(clean);
  double sumSq = 0, tangential = 0;
  for (std::size_t v = 0; v < clean.vertexCount(); ++v) {
    const double* p = &clean.positions[3 * v];
    const double* q = &a.positions[3 * v];
    const double r = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]);
    sumSq += (r - 1.0) * (r - 1.0);
    // On a sphere the normal is radial: the direction stays (noise is along the normal).
    tangential = std::max(tangential, std::abs(q[0] / r - p[0]) + std::abs(q[1] / r - p[1]) + std::abs(q[2] / r - p[2]));
  }
  const double rms = std::sqrt(sumSq / double(clean.vertexCount()));
  REQUIRE(rms == Approx(0.2 * h).epsilon(0.1));
  REQUIRE(tangential < 1e-2 * h);
}

TEST_CASE("A million-vertex cube builds quickly", "[geometry]") {
  const Mesh big = builtinMesh("cube", 1'000'000, 0.1);
  REQUIRE(big.vertexCount() > 950'000);
  REQUIRE(big.vertexCount() < 1'050'000);
  const TriangleTopology topo(big);
  REQUIRE(topo.boundaryEdgeCount() == 0);
  REQUIRE(topo.maxValence() <= 7);
}
