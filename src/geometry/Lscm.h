#pragma once
// texstream::geometry::Lscm: least squares conformal maps (Lévy, Petitjean, Ray & Maillot
// 2002), the parameterization the Concurrent Number Cruncher demonstrates (Buatois et al.
// 2008, §1 and §3, Table 3), solved on the GPU.
//
// Each triangle, in its own orthonormal frame (p0 at the origin, p1 on the x axis, p2 above
// it: z1 = (a, 0), z2 = (c, d)), asks its linear map to the plane to be holomorphic,
// (U1 - U0) z2 = (U2 - U0) z1 with U = u + i v: two real rows (OpenNL's LSCM example),
//   real:      (c - a) u0 - d v0 - c u1 + d v1 + a u2     = 0
//   imaginary: d u0 + (c - a) v0 - d u1 - c v1 + a v2     = 0
// weighted by 1 / (a d) = 1 / (2 area), so the least-squares objective is the conformal
// energy sum_T area_T |df/dz̄|^2 (up to a constant) whatever the triangles' sizes. Every
// vertex is one 2-block variable (u, v), so the normal matrix is BCRS 2x2 (Buatois §2.2.3).
// Two pinned vertices fix the similarity the energy leaves free: chosen automatically as
// the boundary vertices farthest apart (a double sweep over all boundary loops), pinned
// at (0, 0) and (|p1 - p0|, 0) so the map keeps the mesh's scale; or given. CG starts from
// the projection onto the mesh's mean plane, placed on the pins.
//
//   Lscm lscm(mesh);                      // checks, builds the rows, uploads (GL context)
//   lscm.solve();                         // CG on the GPU
//   glBindTexture(GL_TEXTURE_2D, lscm.uv().texture().id());   // (u, v) per vertex
//   writeObj("out.obj", mesh, lscm.downloadUv());
//
// What it refuses (MeshError naming the mesh and what to do), checked before the solver
// sees the mesh (MeshDefects.h): non-manifold vertices where pieces of the mesh that no
// edge joins meet (a bow-tie: each piece could turn about the vertex freely; split it),
// zero-area triangles (remove them) and duplicate
// triangles (remove the repeats), naming each vertex or triangle and its source line; a
// closed mesh (no boundary: it needs a cut), several connected pieces, triangles not
// consistently oriented, non-manifold edges (TriangleTopology); pins out of range,
// repeated or at the same position, or pinned to the same (u, v) (std::invalid_argument).
// What it notes (notes()): vertices no triangle uses, locked at (0, 0) (remove them), and
// coincident vertices, mapped apart (an unwelded seam; weld them where they are one point).
// A solver failure on a mesh with such notes is reported as the mesh's: the notes, then
// the solver's message.
#include <texstream/geometry/Mesh.h>
#include <texstream/geometry/TriangleTopology.h>
#include <texstream/linalg/SystemBuilder.h>
#include <texstream/solvers/systems/SystemSolver.h>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace texstream::geometry {

struct LscmOptions {
  /// The two pinned vertices; unset: the boundary vertices farthest apart.
  std::optional<std::array<std::int32_t, 2>> pins;
  /// Their (u0, v0, u1, v1); unset: (0, 0) and (|p1 - p0|, 0).
  std::optional<std::array<double, 4>> pinUv;
  /// Start CG from the mesh projected onto its mean plane and moved onto the pins (as
  /// OpenNL's LSCM example starts from a projection): the smooth, slowly converging part
  /// of the map is then mostly in place. false: start from (0, 0).
  bool projectInitialGuess = true;
  /// With the multigrid preconditioner: coarsen with the plane's similarities as the
  /// near-null space (translations, rotation, scaling; AggregationHierarchy.h) instead of
  /// the constants alone. On the noisy 103K-unknown patch CG then needs 264 iterations
  /// instead of 464, but the set-up takes about 3x as long (the coarse levels carry 4
  /// unknowns per aggregate): it pays when one mesh is solved many times (pins dragged).
  bool similarityNearNullSpace = false;
  /// Route, matrix format and CG settings (solvers/systems/SystemSolver.h).
  solvers::SystemSolverOptions solver;
};

/// Distortion of a parameterization against the mesh (all in double precision).
struct LscmQuality {
  /// Triangles whose (u, v) image has non-positive signed area (orientation reversed or
  /// collapsed).
  std::size_t flippedTriangles = 0;
  /// |angle in (u, v) - angle on the mesh| over every triangle corner, in degrees.
  double angleDistortionMean = 0, angleDistortionMax = 0;
  /// |ln((area_uv / total_uv) / (area_3d / total_3d))| per triangle: mean weighted by the
  /// mesh area, and max (infinite where a triangle collapsed).
  double areaDistortionMean = 0, areaDistortionMax = 0;
  /// minU, minV, maxU, maxV.
  std::array<double, 4> uvBounds{0, 0, 0, 0};
};

/// Measures `uv` (2 per vertex) on `mesh`; std::invalid_argument for a wrong count.
LscmQuality measureParameterization(const Mesh& mesh, std::span<const double> uv);

/// The two boundary vertices farthest apart (Euclidean, a double sweep from the first
/// boundary vertex). MeshError when the mesh has no boundary.
std::array<std::int32_t, 2> farthestBoundaryPair(const Mesh& mesh, const TriangleTopology& topology);

class Lscm {
 public:
  /// Checks the mesh (see the file comment), builds the LSCM rows and uploads the system
  /// (a current GL context is needed).
  explicit Lscm(const Mesh& mesh, LscmOptions options = {}, std::string name = "lscm");
  ~Lscm();
  Lscm(const Lscm&) = delete;
  Lscm& operator=(const Lscm&) = delete;

  /// Solves on the GPU (warm-started from the last solution).
  solvers::SolverStatus solve();
  /// Moves pin k (0 or 1) to (u, v): only the right-hand side changes; solve() again.
  /// std::invalid_argument for a non-finite value, k outside {0, 1}, or both pins at one (u, v).
  void setPinUv(int pin, double u, double v);

  /// (u, v) of every vertex in the mesh's vertex order, elements 2 v and 2 v + 1, in
  /// Layout::forSize(2 vertices): vertex v in texel v / 2, channels xy or zw. Current
  /// after each solve() (before the first: pins at their (u, v), the rest 0).
  const stream::Vector& uv() const;
  std::vector<double> downloadUv() const;
  /// measureParameterization(mesh, downloadUv()).
  LscmQuality quality() const;

  const std::array<std::int32_t, 2>& pins() const { return m_pins; }
  const std::array<double, 4>& pinUv() const { return m_pinUv; }
  std::size_t boundaryLoopCount() const { return m_boundaryLoops; }
  /// What the mesh has that LSCM maps anyway, one line each with what to do (isolated and
  /// coincident vertices); empty for a clean mesh.
  const std::vector<std::string>& notes() const { return m_notes; }
  const Mesh& mesh() const { return m_mesh; }
  /// The least-squares system (its rows, for CPU references and export).
  const linalg::LinearSystem& system() const { return m_system; }
  const solvers::SystemSolver& solver() const { return *m_solver; }
  solvers::SystemSolver& solver() { return *m_solver; }
  /// Milliseconds spent building the rows (CPU), before SystemSolver's set-up.
  double buildMs() const { return m_buildMs; }

 private:
  std::string m_name;
  Mesh m_mesh;
  std::array<std::int32_t, 2> m_pins{0, 0};
  std::array<double, 4> m_pinUv{0, 0, 0, 0};
  std::size_t m_boundaryLoops = 0;
  std::vector<std::string> m_notes;
  double m_buildMs = 0;
  linalg::LinearSystem m_system;
  std::unique_ptr<solvers::SystemSolver> m_solver;
};

}  // namespace texstream::geometry
