// Tests src/geometry/Lscm.* and MeshBoundary.*: a planar mesh with holes maps to a
// similarity of itself (no angle distortion); on the built-in patch with holes, noisy or
// not, the GPU map equals Eigen's double-precision solve of the same rows within 1e-4 of
// the UV box (normal equations refined in double; CGLS within float's reach), with no
// flipped triangle, on both backends;
// moving a pin moves the map by a similarity; closed meshes, several pieces, inconsistent
// orientation, degenerate triangles and bad pins are refused with a message.
#include <catch2/catch.hpp>

#include "support/Gl.h"

#include <texstream/geometry/Lscm.h>
#include <texstream/solvers/systems/SystemSolver.h>
#include <texstream/geometry/MeshBoundary.h>
#include <texstream/geometry/MeshIo.h>
#include <texstream/geometry/ProceduralMeshes.h>

#include <Eigen/Sparse>
#include <Eigen/SparseCholesky>

#include <complex>
#include <map>
#include <sstream>

using namespace texstream;
using Catch::Matchers::Contains;
using geometry::Lscm;
using geometry::LscmOptions;
using geometry::Mesh;

namespace {

/// The patch flattened onto its (x, -z) plane: planar, five boundary loops.
Mesh planarPatch(int resolution) {
  Mesh m = geometry::patchMesh(resolution);
  for (std::size_t v = 0; v < m.vertexCount(); ++v) m.positions[3 * v + 1] = 0.0;
  m.name = "planar patch";
  return m;
}

/// max over vertices of |uv - (alpha z + beta)| for the best complex alpha, beta (least
/// squares), relative to the UV box diagonal; z = x - i z3 (the patch's counter-clockwise plane).
double similarityResidual(const Mesh& m, const std::vector<double>& uv) {
  using C = std::complex<double>;
  const std::size_t n = m.vertexCount();
  C zMean = 0, wMean = 0;
  std::vector<C> z(n), w(n);
  for (std::size_t v = 0; v < n; ++v) {
    z[v] = C(m.positions[3 * v], -m.positions[3 * v + 2]);
    w[v] = C(uv[2 * v], uv[2 * v + 1]);
    zMean += z[v] / double(n);
    wMean += w[v] / double(n);
  }
  C num = 0;
  double den = 0;
  for (std::size_t v = 0; v < n; ++v) {
    num += std::conj(z[v] - zMean) * (w[v] - wMean);
    den += std::norm(z[v] - zMean);
  }
  const C alpha = num / den;
  double worst = 0, lo[2] = {1e300, 1e300}, hi[2] = {-1e300, -1e300};
  for (std::size_t v = 0; v < n; ++v) {
    worst = std::max(worst, std::abs(w[v] - (alpha * (z[v] - zMean) + wMean)));
    lo[0] = std::min(lo[0], w[v].real());
    lo[1] = std::min(lo[1], w[v].imag());
    hi[0] = std::max(hi[0], w[v].real());
    hi[1] = std::max(hi[1], w[v].imag());
  }
  return worst / std::hypot(hi[0] - lo[0], hi[1] - lo[1]);
}

/// Eigen's Cholesky solve of the LSCM system's normal equations, every (u, v).
std::vector<double> eigenUv(const linalg::LinearSystem& s) {
  const linalg::Csr N = s.matrix();
  std::vector<Eigen::Triplet<double>> triplets;
  for (std::size_t r = 0; r < N.rows; ++r)
    for (std::int64_t k = N.rowPtr[r]; k < N.rowPtr[r + 1]; ++k)
      triplets.emplace_back(Eigen::Index(r), N.colIdx[std::size_t(k)], N.values[std::size_t(k)]);
  Eigen::SparseMatrix<double> A(Eigen::Index(N.rows), Eigen::Index(N.cols));
  A.setFromTriplets(triplets.begin(), triplets.end());
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt(A);
  REQUIRE(ldlt.info() == Eigen::Success);
  const std::vector<double> f = s.rhs(0);
  const Eigen::VectorXd x = ldlt.solve(Eigen::Map<const Eigen::VectorXd>(f.data(), Eigen::Index(f.size())));
  return s.expand(std::vector<double>(x.data(), x.data() + x.size()), 0);
}

double maxDifferenceOverBox(const std::vector<double>& got, const std::vector<double>& ref) {
  double d = 0, lo[2] = {1e300, 1e300}, hi[2] = {-1e300, -1e300};
  for (std::size_t i = 0; i < got.size(); ++i) {
    d = std::max(d, std::abs(got[i] - ref[i]));
    lo[i % 2] = std::min(lo[i % 2], ref[i]);
    hi[i % 2] = std::max(hi[i % 2], ref[i]);
  }
  return d / std::max(hi[0] - lo[0], hi[1] - lo[1]);
}

}  // namespace

TEST_CASE("MeshBoundary: loops and pieces of the built-in meshes", "[geometry]") {
  const Mesh patch = geometry::patchMesh(24);
  const geometry::TriangleTopology topo(patch);
  const auto loops = geometry::boundaryLoops(topo);
  REQUIRE(loops.size() == 5);  // the outline and four holes
  std::size_t onLoops = 0;
  for (const auto& loop : loops) {
    REQUIRE(loop.size() >= 3);
    onLoops += loop.size();
  }
  REQUIRE(onLoops == topo.boundaryEdgeCount());  // every boundary edge walked once
  REQUIRE(geometry::connectedComponents(patch).count == 1);
  REQUIRE(geometry::boundaryLoops(geometry::TriangleTopology(geometry::icosphereMesh(2))).empty());
  Mesh two = geometry::icosphereMesh(1);
  const Mesh other = geometry::icosphereMesh(1);
  const auto offset = std::int32_t(two.vertexCount());
  two.positions.insert(two.positions.end(), other.positions.begin(), other.positions.end());
  for (std::int32_t i : other.triangles) two.triangles.push_back(i + offset);
  const geometry::MeshComponents pieces = geometry::connectedComponents(two);
  REQUIRE(pieces.count == 2);
  REQUIRE(pieces.ofVertex.front() == 0);
  REQUIRE(pieces.ofVertex.back() == 1);
}

TEST_CASE("Lscm: a planar mesh with holes maps to a similarity of itself", "[gl][geometry]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const Mesh mesh = planarPatch(20);
  LscmOptions o;
  o.solver.cg.tolerance = 1e-6f;
  Lscm lscm(mesh, o);
  REQUIRE(lscm.boundaryLoopCount() == 5);
  const solvers::SolverStatus s = lscm.solve();
  INFO(s.message);
  REQUIRE(s.converged());
  const std::vector<double> uv = lscm.downloadUv();
  REQUIRE(similarityResidual(mesh, uv) < 1e-4);
  const geometry::LscmQuality q = lscm.quality();
  REQUIRE(q.flippedTriangles == 0);
  REQUIRE(q.angleDistortionMean < 0.01);  // degrees
  REQUIRE(q.angleDistortionMax < 0.1);
  REQUIRE(q.areaDistortionMax < 1e-3);
  // Pins at their (u, v): the first at the origin, the second at its 3D distance on the u axis.
  REQUIRE(uv[2 * std::size_t(lscm.pins()[0])] == 0.0);
  REQUIRE(uv[2 * std::size_t(lscm.pins()[1])] == Approx(lscm.pinUv()[2]).epsilon(1e-6));
}

TEST_CASE("Lscm: the GPU map equals Eigen's solve of the same rows on the patch with holes", "[gl][geometry]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  Mesh noisy = geometry::patchMesh(18, 3);
  geometry::addNormalNoise(noisy, 0.2, 11);
  for (const Mesh& mesh : {geometry::patchMesh(22), noisy}) {
    for (solvers::LeastSquaresRoute route : {solvers::LeastSquaresRoute::NormalEquations, solvers::LeastSquaresRoute::Cgls}) {
      INFO(mesh.name << " (" << mesh.vertexCount() << " vertices), " << solvers::leastSquaresRouteName(route));
      LscmOptions o;
      o.solver.route = route;
      // The normal equations are refined in double; CGLS reaches float's accuracy only.
      const bool cgls = route == solvers::LeastSquaresRoute::Cgls;
      o.solver.cg.tolerance = cgls ? 1e-5f : 1e-6f;
      Lscm lscm(mesh, o);
      const solvers::SolverStatus s = lscm.solve();
      INFO(s.message);
      REQUIRE(s.converged());
      const std::vector<double> reference = eigenUv(lscm.system());
      const double difference = maxDifferenceOverBox(lscm.downloadUv(), reference);
      // LSCM's normal matrix is badly conditioned (about 1e7 here: discrete near-conformal
      // maps beyond the pinned similarity), so the map is only as exact as the residual:
      // refined in double it matches; CGLS in float lands within a percent, its
      // distortion figures within a hundredth of a degree.
      REQUIRE(difference < (cgls ? 2e-2 : 1e-4));
      const geometry::LscmQuality q = lscm.quality(), r = geometry::measureParameterization(mesh, reference);
      REQUIRE(q.flippedTriangles == 0);
      REQUIRE(r.flippedTriangles == 0);
      REQUIRE(q.angleDistortionMean == Approx(r.angleDistortionMean).margin(0.01));
    }
  }
}

TEST_CASE("Lscm: the plane's similarities as multigrid's near-null space give the same map in no more iterations",
          "[gl][geometry]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  Mesh mesh = geometry::patchMesh(40, 3);
  geometry::addNormalNoise(mesh, 0.1, 5);
  int iterations[2] = {0, 0};
  for (const bool similarities : {false, true}) {
    INFO(mesh.name << " (" << mesh.vertexCount() << " vertices), similarities " << similarities);
    LscmOptions o;
    o.solver.preconditioner = solvers::SystemPreconditioner::Multigrid;
    o.similarityNearNullSpace = similarities;
    Lscm lscm(mesh, o);
    const solvers::SolverStatus s = lscm.solve();
    INFO(s.message);
    REQUIRE(s.converged());
    REQUIRE(maxDifferenceOverBox(lscm.downloadUv(), eigenUv(lscm.system())) < 1e-4);
    iterations[similarities] = s.iterations;
  }
  INFO("iterations: constants " << iterations[0] << ", similarities " << iterations[1]);
  CHECK(iterations[1] <= iterations[0]);
}

TEST_CASE("Lscm: moving a pin moves the map by a similarity", "[gl][geometry]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  Mesh mesh = geometry::patchMesh(12);
  LscmOptions o;
  o.pins = std::array<std::int32_t, 2>{0, std::int32_t(mesh.vertexCount() - 1)};
  Lscm lscm(mesh, o);
  REQUIRE(lscm.solve().converged());
  const std::vector<double> before = lscm.downloadUv();
  // Pin 1 from (d, 0) to (0, 2d): rotation by 90 degrees and scaling by 2 about pin 0.
  const double d = lscm.pinUv()[2];
  lscm.setPinUv(1, 0.0, 2 * d);
  REQUIRE(lscm.solve().converged());
  const std::vector<double> after = lscm.downloadUv();
  std::vector<double> expected(before.size());
  for (std::size_t v = 0; v < mesh.vertexCount(); ++v) {
    expected[2 * v] = -2 * before[2 * v + 1];
    expected[2 * v + 1] = 2 * before[2 * v];
  }
  REQUIRE(maxDifferenceOverBox(after, expected) < 1e-4);
  REQUIRE_THROWS_WITH(lscm.setPinUv(1, 0.0, 0.0), Contains("collapse the map to a point"));
  REQUIRE_THROWS_WITH(lscm.setPinUv(2, 0.0, 1.0), Contains("pin 2 (0 or 1)"));
}

TEST_CASE("Lscm: refuses meshes and pins it cannot map, naming what to do", "[gl][geometry]") {
  test::context();
  REQUIRE_THROWS_WITH(Lscm(geometry::icosphereMesh(3)), Contains("closed (no boundary edge)") && Contains("cut it open"));

  Mesh two;
  two.name = "two.obj";
  two.positions = {0, 0, 0, 1, 0, 0, 0, 1, 0, 5, 0, 0, 6, 0, 0, 5, 1, 0};
  two.triangles = {0, 1, 2, 3, 4, 5};
  REQUIRE_THROWS_WITH(Lscm(two), Contains("two.obj: the mesh has 2 connected pieces (vertex 3 is in the second)"));

  Mesh fin;  // three triangles on one edge
  fin.name = "fin.obj";
  fin.positions = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1};
  fin.triangles = {0, 1, 2, 1, 0, 3, 0, 1, 4};
  REQUIRE_THROWS_WITH(Lscm(fin), Contains("fin.obj") && Contains("non-manifold edge"));

  Mesh flipped;
  flipped.name = "flipped.obj";
  flipped.positions = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
  flipped.triangles = {0, 1, 2, 0, 3, 2};
  REQUIRE_THROWS_WITH(Lscm(flipped), Contains("1 edges join triangles of opposite orientation"));

  Mesh flat;
  flat.name = "flat.obj";
  flat.positions = {0, 0, 0, 1, 0, 0, 1, 1, 0, 2, 2, 0};
  flat.triangles = {0, 1, 2, 0, 2, 3};
  flat.triangleLines = {7, 8};
  REQUIRE_THROWS_WITH(Lscm(flat), Contains("flat.obj:8: triangle 1 (line 8) [vertices 0, 2, 3] has zero area"));

  const Mesh patch = geometry::patchMesh(8);
  LscmOptions o;
  o.pins = std::array<std::int32_t, 2>{4, 4};
  REQUIRE_THROWS_WITH(Lscm(patch, o), Contains("both pins are vertex 4"));
  o.pins = std::array<std::int32_t, 2>{0, std::int32_t(patch.vertexCount())};
  REQUIRE_THROWS_WITH(Lscm(patch, o), Contains("pin vertex " + std::to_string(patch.vertexCount()) + " does not exist"));
  // Pins at one position: a triangle hung on a boundary edge, its apex a new vertex at
  // vertex `original`'s position (coincident vertices are noted; pinning both is refused).
  Mesh twin = patch;
  std::map<std::pair<std::int32_t, std::int32_t>, int> edgeUses;
  auto edgeAt = [&](std::size_t k) { return std::pair{twin.triangles[k], twin.triangles[k / 3 * 3 + (k + 1) % 3]}; };
  auto key = [](std::pair<std::int32_t, std::int32_t> e) { return std::pair{std::min(e.first, e.second), std::max(e.first, e.second)}; };
  for (std::size_t k = 0; k < twin.triangles.size(); ++k) ++edgeUses[key(edgeAt(k))];
  std::size_t slot = 0;  // a triangle corner starting a boundary edge
  while (edgeUses[key(edgeAt(slot))] != 1) ++slot;
  const auto [ea, eb] = edgeAt(slot);
  std::int32_t original = std::int32_t(patch.vertexCount() / 2);
  while (original == ea || original == eb) ++original;
  const std::int32_t copy = std::int32_t(twin.vertexCount());
  for (std::size_t c = 0; c < 3; ++c) twin.positions.push_back(twin.positions[3 * std::size_t(original) + c]);
  twin.triangles.insert(twin.triangles.end(), {eb, ea, copy});
  o.pins = std::array<std::int32_t, 2>{original, copy};
  REQUIRE_THROWS_WITH(Lscm(twin, o), Contains("pins " + std::to_string(original) + " and " + std::to_string(copy) +
                                              " are at the same position"));
  o.pins.reset();
  o.pinUv = std::array<double, 4>{1, 1, 1, 1};
  REQUIRE_THROWS_WITH(Lscm(patch, o), Contains("both pins at the same (u, v)"));
}

TEST_CASE("OBJ with texture coordinates", "[geometry]") {
  Mesh m;
  m.name = "quad";
  m.positions = {0, 0, 0, 1, 0, 0, 1, 1, 0};
  m.triangles = {0, 1, 2};
  const std::vector<double> uv = {0.0, 0.0, 0.5, 0.0, 0.5, 0.25};
  const std::string text = geometry::formatObj(m, uv);
  REQUIRE_THAT(text, Contains("vt 0.5 0.25\n"));
  REQUIRE_THAT(text, Contains("f 1/1 2/2 3/3\n"));
  REQUIRE_THAT(geometry::formatObj(m), Contains("f 1 2 3\n"));
  REQUIRE_THROWS_WITH(geometry::formatObj(m, std::vector<double>(4)), Contains("3 vertices but 4 texture coordinates"));
}
