// Tests src/geometry/Dsi.*: a DSI step on the GPU equals Eigen's double-precision solve of
// the same rows (x, y and z) on a noisy patch with its boundary held and on a closed noisy
// cube held only by its data rows, on both backends; the roughness falls step after step;
// held vertices stay exactly where they were; bad options are refused with a message.
#include <catch2/catch.hpp>

#include "support/Gl.h"

#include <texstream/geometry/Dsi.h>
#include <texstream/geometry/ProceduralMeshes.h>

#include <Eigen/Sparse>
#include <Eigen/SparseCholesky>

using namespace texstream;
using Catch::Matchers::Contains;
using geometry::DsiOptions;
using geometry::DsiSmoother;
using geometry::Mesh;

namespace {

/// Eigen's Cholesky solve of system k of a DSI system's normal equations: every vertex's coordinate k.
std::vector<double> eigenCoordinate(const linalg::LinearSystem& s, int k) {
  const linalg::Csr N = s.matrix();
  std::vector<Eigen::Triplet<double>> triplets;
  for (std::size_t r = 0; r < N.rows; ++r)
    for (std::int64_t e = N.rowPtr[r]; e < N.rowPtr[r + 1]; ++e)
      triplets.emplace_back(Eigen::Index(r), N.colIdx[std::size_t(e)], N.values[std::size_t(e)]);
  Eigen::SparseMatrix<double> A(Eigen::Index(N.rows), Eigen::Index(N.cols));
  A.setFromTriplets(triplets.begin(), triplets.end());
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt(A);
  REQUIRE(ldlt.info() == Eigen::Success);
  const std::vector<double> f = s.rhs(k);
  const Eigen::VectorXd x = ldlt.solve(Eigen::Map<const Eigen::VectorXd>(f.data(), Eigen::Index(f.size())));
  return s.expand(std::vector<double>(x.data(), x.data() + x.size()), k);
}

double maxDifferenceOverSize(const Mesh& mesh, const std::vector<double>& got, const linalg::LinearSystem& s) {
  const std::vector<double> b = mesh.bounds();
  const double size = std::max({b[3] - b[0], b[4] - b[1], b[5] - b[2]});
  double d = 0;
  for (int k = 0; k < 3; ++k) {
    const std::vector<double> ref = eigenCoordinate(s, k);
    for (std::size_t v = 0; v < mesh.vertexCount(); ++v) d = std::max(d, std::abs(got[3 * v + std::size_t(k)] - ref[v]));
  }
  return d / size;
}

}  // namespace

TEST_CASE("DSI: a step on the GPU equals Eigen's solve of the same rows, and the roughness falls", "[gl][geometry]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  Mesh patch = geometry::patchMesh(16, 5);
  geometry::addNormalNoise(patch, 0.3, 2);
  Mesh cube = geometry::cubeMesh(6);
  geometry::addNormalNoise(cube, 0.3, 4);
  for (const Mesh& mesh : {patch, cube}) {
    INFO(mesh.name << ", " << mesh.vertexCount() << " vertices");
    DsiOptions o;
    o.dataWeight = 0.2;
    DsiSmoother dsi(mesh, o);
    // With data rows the system is well conditioned: Auto is Jacobi-PCG there.
    REQUIRE(dsi.solver().preconditioner() == solvers::SystemPreconditioner::Jacobi);
    std::vector<double> current = mesh.positions;
    double roughness = dsi.roughness(current);
    for (int step = 0; step < 3; ++step) {
      const solvers::SolverStatus s = dsi.step(current);
      INFO("step " << step << ": " << s.message);
      REQUIRE(s.converged());
      REQUIRE(maxDifferenceOverSize(mesh, dsi.positions(), dsi.system()) < 1e-5);
      const double next = dsi.roughness(dsi.positions());
      REQUIRE(next < (step == 0 ? 0.5 : 1.0) * roughness);  // the noise goes first
      roughness = next;
      current = dsi.positions();
    }
    if (mesh.name == patch.name) {
      REQUIRE(dsi.heldVertexCount() > 0);
      const geometry::TriangleTopology topo(mesh);
      for (std::size_t v = 0; v < mesh.vertexCount(); ++v)
        if (topo.isBoundary(v))
          for (int c = 0; c < 3; ++c) REQUIRE(current[3 * v + std::size_t(c)] == mesh.positions[3 * v + std::size_t(c)]);
    } else {
      REQUIRE(dsi.heldVertexCount() == 0);
    }
  }
}

TEST_CASE("DSI: held vertices and bad options", "[gl][geometry]") {
  test::context();
  const Mesh patch = geometry::patchMesh(8);
  DsiOptions o;
  o.dataWeight = -1;
  REQUIRE_THROWS_WITH(DsiSmoother(patch, o), Contains("dataWeight -1") && Contains("must be finite and >= 0"));
  o.dataWeight = 0;
  REQUIRE_THROWS_WITH(DsiSmoother(geometry::icosphereMesh(2), o),
                      Contains("no data rows (dataWeight 0) and no held vertex (the mesh is closed)"));
  o.heldVertices = {int(patch.vertexCount())};
  REQUIRE_THROWS_WITH(DsiSmoother(patch, o), Contains("held vertex " + std::to_string(patch.vertexCount()) + " does not exist"));
  // Without data rows and with the boundary held, DSI is the discrete harmonic-like
  // interpolation of the boundary: one step, a chosen interior vertex stays put too.
  o.heldVertices = {40};
  DsiSmoother dsi(patch, o);
  REQUIRE(dsi.solver().preconditioner() == solvers::SystemPreconditioner::Multigrid);  // no data rows
  REQUIRE(dsi.step(patch.positions).converged());
  for (int c = 0; c < 3; ++c) REQUIRE(dsi.positions()[3 * 40 + std::size_t(c)] == patch.positions[3 * 40 + std::size_t(c)]);
  REQUIRE(dsi.roughness(dsi.positions()) < dsi.roughness(patch.positions));
  REQUIRE_THROWS_WITH(dsi.step(std::vector<double>(5)), Contains("5 coordinates given"));
}
