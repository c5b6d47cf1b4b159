#pragma once
// texstream::geometry::DsiSmoother: mesh smoothing by Discrete Smooth Interpolation
// (Mallet 1992), the smoothing the Concurrent Number Cruncher demonstrates (Buatois et al.
// 2008, §1 and §3, Table 3), built with SystemBuilder and solved on the GPU.
//
// DSI minimises the roughness of a function on the mesh's vertices, the sum over vertices
// a of |x_a - mean of x_b over a's neighbours|^2 (Mallet's roughness with the uniform
// "harmonic" weights v_a(a) = 1, v_a(b) = -1 / |N(a)|), here of the positions x, y and z
// (three right-hand sides sharing one matrix, OpenNL's NL_NB_SYSTEMS), with
//  - hard constraints: held vertices (the boundary when fixed, chosen vertices) locked at
//    their positions, moved to the right-hand side;
//  - soft data rows: x_a = target_a with weight dataWeight for every free vertex, pulling
//    each vertex towards its position before the step (Mallet's "fuzzy" data).
// One step solves this least-squares problem with the targets at the current positions;
// repeated steps smooth progressively (a small dataWeight smooths more per step).
//
//   DsiSmoother dsi(mesh);
//   dsi.step(mesh.positions);               // the solution: dsi.positions()
//
// Refused (std::invalid_argument naming the mesh): dataWeight < 0 or not finite, and a
// system without data rows or held vertices (roughness alone is minimised by any
// constant). Mesh problems are MeshError, checked before the solver sees the mesh
// (MeshDefects.h, TriangleTopology): duplicate triangles (remove the repeats), and without
// data rows a connected piece with no held vertex (its position is free: the system is
// singular there; hold a vertex in it), naming a vertex of the piece. What DSI smooths
// anyway is noted (notes()), with what it does: a non-manifold vertex joins its fans'
// neighbourhoods (split it to smooth them apart), an isolated vertex is held (remove it),
// a zero-area triangle is smoothed as any other (uniform weights use no areas), and
// coincident vertices are smoothed apart, so a crack may open (weld them).
#include <texstream/geometry/Mesh.h>
#include <texstream/geometry/TriangleTopology.h>
#include <texstream/linalg/SystemBuilder.h>
#include <texstream/solvers/systems/SystemSolver.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace texstream::geometry {

struct DsiOptions {
  /// Hold boundary vertices in place.
  bool fixBoundary = true;
  /// Further vertices held in place (0-based; std::invalid_argument when out of range).
  std::vector<std::int32_t> heldVertices;
  /// Weight of the soft data rows against the roughness rows (weight 1); 0: none.
  double dataWeight = 0.1;
  /// The solve. Its preconditioner Auto means Jacobi where there are data rows
  /// (dataWeight > 0: the system is well conditioned and Jacobi is faster than multigrid
  /// with its set-up), and the solver's own choice (multigrid) without them.
  solvers::SystemSolverOptions solver;
};

class DsiSmoother {
 public:
  /// Builds the DSI rows for `mesh` and uploads the system (a current GL context is needed).
  explicit DsiSmoother(const Mesh& mesh, DsiOptions options = {}, std::string name = "dsi");
  ~DsiSmoother();
  DsiSmoother(const DsiSmoother&) = delete;
  DsiSmoother& operator=(const DsiSmoother&) = delete;

  /// One DSI solve with the data targets (and held vertices) at `current` (3 per vertex,
  /// mesh order, finite), warm-started from them. Returns the status of the slowest of
  /// the x, y and z solves.
  solvers::SolverStatus step(std::span<const double> current);
  /// The last step's positions (3 per vertex, mesh order; the mesh's before any step).
  const std::vector<double>& positions() const { return m_positions; }
  /// Mallet's roughness of `positions` (3 per vertex): the sum over the roughness rows of
  /// |x_a - mean of its neighbours|^2, x, y and z together.
  double roughness(std::span<const double> positions) const;

  std::size_t heldVertexCount() const { return m_held; }
  /// What the mesh has that DSI smooths anyway, one line each with what it does and what to
  /// do about it; empty for a clean mesh.
  const std::vector<std::string>& notes() const { return m_notes; }
  const DsiOptions& options() const { return m_options; }
  /// The least-squares system (x, y and z are systems 0, 1 and 2).
  const linalg::LinearSystem& system() const { return m_system; }
  const solvers::SystemSolver& solver() const { return *m_solver; }

 private:
  std::string m_name;
  DsiOptions m_options;
  std::size_t m_vertices = 0, m_held = 0;
  linalg::Csr m_neighbours;                     ///< the mesh's vertex adjacency
  std::vector<std::int32_t> m_roughnessVertices;  ///< the vertex of each roughness row
  std::vector<std::int32_t> m_dataRowOf;  ///< row of each free vertex's data row, -1 if none
  std::vector<double> m_positions;
  std::vector<std::string> m_notes;
  linalg::LinearSystem m_system;
  std::unique_ptr<solvers::SystemSolver> m_solver;
};

}  // namespace texstream::geometry
