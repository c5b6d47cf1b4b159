// Mallet 1992 (DSI), as Buatois et al. 2008 solve it: roughness rows per vertex, held
// vertices locked, soft data rows; x, y and z as three right-hand sides of one matrix.
#include <texstream/geometry/Dsi.h>

#include <texstream/geometry/MeshBoundary.h>
#include <texstream/geometry/MeshDefects.h>

#include <cmath>
#include <stdexcept>

namespace texstream::geometry {

namespace {
std::string quoted(const std::string& s) { return "\"" + s + "\""; }

/// A zero-area triangle, for the notes: twice its area at most this ratio of its squared
/// edge lengths.
constexpr double kZeroAreaRatio = 1e-12;
}  // namespace

DsiSmoother::DsiSmoother(const Mesh& mesh, DsiOptions options, std::string name)
    : m_name(std::move(name)), m_options(std::move(options)), m_vertices(mesh.vertexCount()), m_positions(mesh.positions) {
  const std::string where = "DsiSmoother(" + quoted(m_name) + ", mesh " + quoted(mesh.name) + ")";
  if (!(m_options.dataWeight >= 0) || !std::isfinite(m_options.dataWeight))
    throw std::invalid_argument(where + ": dataWeight " + std::to_string(m_options.dataWeight) +
                                " (must be finite and >= 0)");
  const MeshDefects defects = findMeshDefects(mesh, kZeroAreaRatio);
  if (defects.count(MeshDefectKind::DuplicateTriangle) > 0) {
    const std::size_t t = std::size_t(defects.duplicateTriangles.front().second);
    throw MeshError(mesh.name, t < mesh.triangleLines.size() ? mesh.triangleLines[t] : 0,
                    defects.describe(MeshDefectKind::DuplicateTriangle, "DSI needs each triangle once"));
  }
  for (const auto& [kind, what] :
       {std::pair{MeshDefectKind::NonManifoldVertex, "DSI smooths each as one neighbourhood, the fans joined there"},
        std::pair{MeshDefectKind::IsolatedVertex, "held in place"},
        std::pair{MeshDefectKind::ZeroAreaTriangle, "smoothed as any other (DSI's uniform weights use no areas)"},
        std::pair{MeshDefectKind::CoincidentVertices, "smoothed apart, so a crack may open between them"}}) {
    if (defects.count(kind) > 0) m_notes.push_back(defects.describe(kind, what));
  }
  const TriangleTopology topology(mesh);
  m_neighbours = topology.pattern();
  const linalg::Csr& pattern = m_neighbours;
  std::vector<std::uint8_t> held(m_vertices, 0);
  for (std::size_t v = 0; v < m_vertices; ++v)
    held[v] = (m_options.fixBoundary && topology.isBoundary(v)) || topology.isIsolated(v);
  for (std::int32_t v : m_options.heldVertices) {
    if (v < 0 || std::size_t(v) >= m_vertices)
      throw std::invalid_argument(where + ": held vertex " + std::to_string(v) + " does not exist (the mesh has " +
                                  std::to_string(m_vertices) + " vertices)");
    held[std::size_t(v)] = 1;
  }
  for (std::uint8_t h : held) m_held += h;
  const bool usedHeld = [&] {
    for (std::size_t v = 0; v < m_vertices; ++v)
      if (held[v] && !topology.isIsolated(v)) return true;
    return false;
  }();
  if (m_options.dataWeight == 0 && !usedHeld)
    throw std::invalid_argument(where + ": no data rows (dataWeight 0) and no held vertex" +
                                (m_options.fixBoundary && topology.boundaryVertexCount() == 0 ? " (the mesh is closed)"
                                                                                              : "") +
                                ": the roughness alone is minimised by any constant; give a data weight or hold vertices");
  if (m_held == m_vertices) throw std::invalid_argument(where + ": every vertex is held: there is nothing to smooth");
  if (m_options.dataWeight == 0) {
    // Without data rows a piece with no held vertex may sit anywhere: the least-squares
    // system is singular there, and the solver would fail on it.
    const MeshComponents pieces = connectedComponents(mesh);
    std::vector<std::uint8_t> anchored(pieces.count, 0);
    for (std::size_t v = 0; v < m_vertices; ++v)
      if (held[v] && pieces.ofVertex[v] >= 0) anchored[std::size_t(pieces.ofVertex[v])] = 1;
    for (std::size_t v = 0; v < m_vertices; ++v) {
      if (pieces.ofVertex[v] < 0 || anchored[std::size_t(pieces.ofVertex[v])]) continue;
      throw MeshError(mesh.name, 0,
                      "the connected piece with vertex " + std::to_string(v) + " (one of " +
                          std::to_string(pieces.count) +
                          " pieces) has no held vertex, and without data rows (dataWeight 0) DSI's roughness leaves "
                          "its position free (a singular system); hold a vertex in it, give a data weight, or "
                          "remove the piece");
    }
  }

  linalg::SystemBuilder builder(m_vertices, linalg::SystemMode::LeastSquares, m_name, 1, 3);
  for (std::size_t v = 0; v < m_vertices; ++v) {
    const double* p = &mesh.positions[3 * v];
    if (held[v]) builder.lock(v, std::span<const double>(p, 3));
    else builder.setValue(v, std::span<const double>(p, 3));
  }
  const double zero[3] = {0.0, 0.0, 0.0};
  // Roughness rows: every vertex with neighbours whose stencil has a free vertex.
  for (std::size_t a = 0; a < m_vertices; ++a) {
    const std::int64_t first = pattern.rowPtr[a], last = pattern.rowPtr[a + 1];
    if (first == last) continue;
    bool anyFree = !held[a];
    for (std::int64_t e = first; e < last && !anyFree; ++e) anyFree = !held[std::size_t(pattern.colIdx[std::size_t(e)])];
    if (!anyFree) continue;
    builder.beginRow();
    builder.coefficient(a, 1.0);
    const double w = -1.0 / double(last - first);
    for (std::int64_t e = first; e < last; ++e) builder.coefficient(std::size_t(pattern.colIdx[std::size_t(e)]), w);
    builder.endRow(zero);
    m_roughnessVertices.push_back(std::int32_t(a));
  }
  m_dataRowOf.assign(m_vertices, -1);
  if (m_options.dataWeight > 0) {
    for (std::size_t a = 0; a < m_vertices; ++a) {
      if (held[a]) continue;
      m_dataRowOf[a] = std::int32_t(builder.rowCount());
      builder.beginRow();
      builder.coefficient(a, 1.0);
      builder.endRow(std::span<const double>(&mesh.positions[3 * a], 3), m_options.dataWeight);
    }
  }
  m_system = builder.build();
  solvers::SystemSolverOptions solverOptions = m_options.solver;
  if (solverOptions.preconditioner == solvers::SystemPreconditioner::Auto && m_options.dataWeight > 0) {
    // The data rows put dataWeight^2 on every free vertex's diagonal: Jacobi-PCG needs a
    // few dozen iterations at every size and is faster than multigrid with its set-up
    // (docs/performance.md, "Least squares at the CNC's Table 3 sizes").
    solverOptions.preconditioner = solvers::SystemPreconditioner::Jacobi;
  }
  m_solver = std::make_unique<solvers::SystemSolver>(m_system, solverOptions);
}

DsiSmoother::~DsiSmoother() = default;

solvers::SolverStatus DsiSmoother::step(std::span<const double> current) {
  if (current.size() != 3 * m_vertices)
    throw std::invalid_argument("DsiSmoother(" + quoted(m_name) + ")::step: " + std::to_string(current.size()) +
                                " coordinates given, the mesh has " + std::to_string(m_vertices) + " vertices (3 each)");
  for (std::size_t i = 0; i < current.size(); ++i)
    if (!std::isfinite(current[i]))
      throw std::invalid_argument("DsiSmoother(" + quoted(m_name) + ")::step: vertex " + std::to_string(i / 3) +
                                  " coordinate " + std::to_string(i % 3) + " is not finite");
  const std::vector<std::int32_t>& unknownOf = m_system.unknownOfScalar();
  for (int k = 0; k < 3; ++k) {
    std::vector<double> guess(m_system.unknowns());
    for (std::size_t v = 0; v < m_vertices; ++v)
      if (unknownOf[v] >= 0) guess[std::size_t(unknownOf[v])] = current[3 * v + std::size_t(k)];
    m_system.setInitialGuess(k, guess);
  }
  for (std::size_t v = 0; v < m_vertices; ++v) {
    const std::span<const double> p = current.subspan(3 * v, 3);
    if (unknownOf[v] < 0) m_system.setLockedValues(v, p);
    else if (m_dataRowOf[v] >= 0) m_system.setRowRhs(std::size_t(m_dataRowOf[v]), p);
  }
  m_solver->updateRightHandSides(m_system);
  m_solver->resetToInitialGuess(m_system);
  const solvers::SolverStatus status = m_solver->solveAll();
  for (int k = 0; k < 3; ++k) {
    const std::vector<double> values = m_solver->downloadValues(k);
    for (std::size_t v = 0; v < m_vertices; ++v) m_positions[3 * v + std::size_t(k)] = values[v];
  }
  return status;
}

double DsiSmoother::roughness(std::span<const double> positions) const {
  if (positions.size() != 3 * m_vertices)
    throw std::invalid_argument("DsiSmoother(" + quoted(m_name) + ")::roughness: " + std::to_string(positions.size()) +
                                " coordinates given, the mesh has " + std::to_string(m_vertices) + " vertices (3 each)");
  double sum = 0;
  for (std::int32_t a : m_roughnessVertices) {
    const std::int64_t first = m_neighbours.rowPtr[std::size_t(a)], last = m_neighbours.rowPtr[std::size_t(a) + 1];
    for (int k = 0; k < 3; ++k) {
      double mean = 0;
      for (std::int64_t e = first; e < last; ++e)
        mean += positions[3 * std::size_t(m_neighbours.colIdx[std::size_t(e)]) + std::size_t(k)];
      const double residual = positions[3 * std::size_t(a) + std::size_t(k)] - mean / double(last - first);
      sum += residual * residual;
    }
  }
  return sum;
}

}  // namespace texstream::geometry
