// Lévy, Petitjean, Ray & Maillot 2002, §3: the conformality condition per triangle in its
// own frame, two pins, least squares (solved here as in the CNC, Buatois et al. 2008).
#include <texstream/geometry/Lscm.h>

#include <texstream/geometry/MeshBoundary.h>
#include <texstream/geometry/MeshDefects.h>
#include <texstream/linalg/RowBlocks.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

namespace texstream::geometry {

namespace {

struct Vec3 {
  double x, y, z;
};
Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
double dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
Vec3 cross(Vec3 a, Vec3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
double length(Vec3 a) { return std::sqrt(dot(a, a)); }

Vec3 position(const Mesh& m, std::int32_t v) {
  const double* p = &m.positions[3 * std::size_t(v)];
  return {p[0], p[1], p[2]};
}

/// The three corner angles of a triangle from its edge vectors (atan2: accurate near 0 and pi).
std::array<double, 3> cornerAngles3(Vec3 a, Vec3 b, Vec3 c) {
  auto angle = [](Vec3 u, Vec3 v) { return std::atan2(length(cross(u, v)), dot(u, v)); };
  return {angle(b - a, c - a), angle(c - b, a - b), angle(a - c, b - c)};
}

std::array<double, 3> cornerAngles2(const double* a, const double* b, const double* c) {
  auto angle = [](double ux, double uy, double vx, double vy) {
    return std::atan2(std::abs(ux * vy - uy * vx), ux * vx + uy * vy);
  };
  return {angle(b[0] - a[0], b[1] - a[1], c[0] - a[0], c[1] - a[1]),
          angle(c[0] - b[0], c[1] - b[1], a[0] - b[0], a[1] - b[1]),
          angle(a[0] - c[0], a[1] - c[1], b[0] - c[0], b[1] - c[1])};
}

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

/// A zero-area triangle for LSCM: twice its area at most this ratio of its squared edge
/// lengths (its frame, and the row weight 1 / (2 area), are undefined).
constexpr double kZeroAreaRatio = 1e-12;

/// The mesh's noted defects as the likely cause of a solver failure.
std::string topologyFirst(const std::vector<std::string>& notes) {
  std::string out = "the mesh's topology is the likely cause: ";
  for (std::size_t i = 0; i < notes.size(); ++i) out += (i ? "; " : "") + notes[i];
  return out;
}

/// Every vertex projected onto the mesh's mean plane (the area-weighted sum of the
/// triangles' normals, oriented by their vertex order so the projection keeps the map's
/// orientation), as (x, y) relative to p0 with p1 on the x axis; empty when the mean plane
/// is undefined or p1 - p0 is normal to it.
std::vector<double> meanPlaneCoordinates(const Mesh& mesh, Vec3 p0, Vec3 p1) {
  Vec3 normal{0, 0, 0};
  for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
    const std::int32_t* tri = &mesh.triangles[3 * t];
    const Vec3 a3 = position(mesh, tri[0]);
    const Vec3 n = cross(position(mesh, tri[1]) - a3, position(mesh, tri[2]) - a3);
    normal = {normal.x + n.x, normal.y + n.y, normal.z + n.z};
  }
  const double nl = length(normal);
  if (!(nl > 0)) return {};
  normal = {normal.x / nl, normal.y / nl, normal.z / nl};
  Vec3 e1 = p1 - p0;
  const double along = dot(e1, normal);
  e1 = {e1.x - along * normal.x, e1.y - along * normal.y, e1.z - along * normal.z};
  const double l1 = length(e1);
  if (!(l1 > 1e-9 * length(p1 - p0))) return {};
  e1 = {e1.x / l1, e1.y / l1, e1.z / l1};
  const Vec3 e2 = cross(normal, e1);
  std::vector<double> planar(2 * mesh.vertexCount());
  for (std::size_t v = 0; v < mesh.vertexCount(); ++v) {
    const Vec3 d = position(mesh, std::int32_t(v)) - p0;
    planar[2 * v] = dot(d, e1);
    planar[2 * v + 1] = dot(d, e2);
  }
  return planar;
}

}  // namespace

LscmQuality measureParameterization(const Mesh& mesh, std::span<const double> uv) {
  if (uv.size() != 2 * mesh.vertexCount())
    throw std::invalid_argument("measureParameterization: mesh " + quoted(mesh.name) + " has " +
                                std::to_string(mesh.vertexCount()) + " vertices, " + std::to_string(uv.size()) +
                                " texture coordinates given (2 per vertex)");
  LscmQuality q;
  const std::size_t T = mesh.triangleCount();
  std::vector<double> area3(T), areaUv(T);
  double total3 = 0, totalUv = 0, angleSum = 0;
  for (std::size_t t = 0; t < T; ++t) {
    const std::int32_t* tri = &mesh.triangles[3 * t];
    const Vec3 a = position(mesh, tri[0]), b = position(mesh, tri[1]), c = position(mesh, tri[2]);
    const double* ua = &uv[2 * std::size_t(tri[0])];
    const double* ub = &uv[2 * std::size_t(tri[1])];
    const double* uc = &uv[2 * std::size_t(tri[2])];
    area3[t] = 0.5 * length(cross(b - a, c - a));
    areaUv[t] = 0.5 * ((ub[0] - ua[0]) * (uc[1] - ua[1]) - (ub[1] - ua[1]) * (uc[0] - ua[0]));
    if (!(areaUv[t] > 0)) ++q.flippedTriangles;
    total3 += area3[t];
    totalUv += std::abs(areaUv[t]);
    const std::array<double, 3> angle3 = cornerAngles3(a, b, c), angleUv = cornerAngles2(ua, ub, uc);
    for (int k = 0; k < 3; ++k) {
      const double d = std::abs(angleUv[std::size_t(k)] - angle3[std::size_t(k)]) * 180.0 / std::numbers::pi;
      angleSum += d;
      q.angleDistortionMax = std::max(q.angleDistortionMax, d);
    }
  }
  q.angleDistortionMean = T > 0 ? angleSum / double(3 * T) : 0.0;
  for (std::size_t t = 0; t < T; ++t) {
    const double share3 = area3[t] / total3, shareUv = std::abs(areaUv[t]) / totalUv;
    const double d = shareUv > 0 && share3 > 0 ? std::abs(std::log(shareUv / share3)) : std::numeric_limits<double>::infinity();
    q.areaDistortionMax = std::max(q.areaDistortionMax, d);
    if (std::isfinite(d)) q.areaDistortionMean += share3 * d;
  }
  q.uvBounds = {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(),
                -std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  for (std::size_t v = 0; v < mesh.vertexCount(); ++v) {
    q.uvBounds[0] = std::min(q.uvBounds[0], uv[2 * v]);
    q.uvBounds[1] = std::min(q.uvBounds[1], uv[2 * v + 1]);
    q.uvBounds[2] = std::max(q.uvBounds[2], uv[2 * v]);
    q.uvBounds[3] = std::max(q.uvBounds[3], uv[2 * v + 1]);
  }
  return q;
}

std::array<std::int32_t, 2> farthestBoundaryPair(const Mesh& mesh, const TriangleTopology& topology) {
  std::vector<std::int32_t> boundary;
  for (std::size_t v = 0; v < topology.vertexCount(); ++v)
    if (topology.isBoundary(v)) boundary.push_back(std::int32_t(v));
  if (boundary.empty())
    throw MeshError(mesh.name, 0, "the mesh is closed (no boundary edge), so it has no boundary vertices to pin");
  auto farthestFrom = [&](std::int32_t from) {
    const Vec3 p = position(mesh, from);
    std::int32_t best = from;
    double bestDistance = -1;
    for (std::int32_t v : boundary) {
      const double d = dot(position(mesh, v) - p, position(mesh, v) - p);
      if (d > bestDistance) {
        bestDistance = d;
        best = v;
      }
    }
    return best;
  };
  const std::int32_t a = farthestFrom(boundary.front());
  const std::int32_t b = farthestFrom(a);
  return {std::min(a, b), std::max(a, b)};
}

Lscm::Lscm(const Mesh& mesh, LscmOptions options, std::string name) : m_name(std::move(name)), m_mesh(mesh) {
  const auto t0 = std::chrono::steady_clock::now();
  // The rows below index the vertices: the mesh is checked before they start, and what
  // LSCM cannot map is refused by name before the solver could fail on it.
  // A non-manifold vertex whose fans are joined elsewhere (a hole touching the boundary
  // there) maps as any vertex; one where edge-connected pieces meet lets them turn about it.
  const MeshDefects defects = findMeshDefects(m_mesh, kZeroAreaRatio).withPieceJointsOnly();
  for (const auto& [kind, why] : {std::pair{MeshDefectKind::NonManifoldVertex,
                                            "LSCM cannot map them (the fans meet only there: each could turn about "
                                            "the vertex freely)"},
                                  std::pair{MeshDefectKind::DuplicateTriangle, "LSCM needs each triangle once"},
                                  std::pair{MeshDefectKind::ZeroAreaTriangle,
                                            "LSCM's conformality rows need triangles with an area"}}) {
    if (defects.count(kind) == 0) continue;
    std::int32_t triangle = -1;
    if (kind == MeshDefectKind::DuplicateTriangle) triangle = defects.duplicateTriangles.front().second;
    if (kind == MeshDefectKind::ZeroAreaTriangle) triangle = defects.zeroAreaTriangles.front();
    const long long line =
        triangle >= 0 && std::size_t(triangle) < m_mesh.triangleLines.size() ? m_mesh.triangleLines[std::size_t(triangle)] : 0;
    throw MeshError(m_mesh.name, line, defects.describe(kind, why));
  }
  if (defects.count(MeshDefectKind::IsolatedVertex) > 0)
    m_notes.push_back(defects.describe(MeshDefectKind::IsolatedVertex, "locked at (0, 0)"));
  if (defects.count(MeshDefectKind::CoincidentVertices) > 0)
    m_notes.push_back(defects.describe(MeshDefectKind::CoincidentVertices, "mapped apart"));
  const std::size_t V = m_mesh.vertexCount(), T = m_mesh.triangleCount();
  linalg::SystemBuilder builder(V, linalg::SystemMode::LeastSquares, m_name, 2);
  builder.reserve(2 * T, 10 * T);
  MeshComponents components;
  Vec3 p0, p1;
  // The conformality rows need only the triangles: they are added on a second thread while
  // the topology is checked and the pins chosen (linalg/RowBlocks.h; an error of the checks
  // is reported before one of the rows, as when they ran in order).
  auto checkTopologyAndPins = [&] {
    const TriangleTopology topology(m_mesh);
    if (topology.boundaryEdgeCount() == 0)
      throw MeshError(m_mesh.name, 0,
                      "the mesh is closed (no boundary edge): LSCM maps a surface with a boundary to the plane; cut it "
                      "open along a seam first (a closed surface has no conformal map to a planar region without one)");
    if (topology.inconsistentEdges() > 0)
      throw MeshError(m_mesh.name, 0,
                      std::to_string(topology.inconsistentEdges()) +
                          " edges join triangles of opposite orientation: LSCM needs the triangles consistently "
                          "oriented (reorient the mesh so that neighbours list their shared edge in opposite directions)");
    components = connectedComponents(m_mesh);
    if (components.count > 1) {
      std::size_t witness = 0;
      while (components.ofVertex[witness] != 1) ++witness;
      throw MeshError(m_mesh.name, 0,
                      "the mesh has " + std::to_string(components.count) + " connected pieces (vertex " +
                          std::to_string(witness) +
                          " is in the second): LSCM maps one piece with two pins; split the mesh and map each piece");
    }
    m_boundaryLoops = boundaryLoops(topology).size();

    if (options.pins) {
      m_pins = *options.pins;
      for (std::int32_t p : m_pins) {
        if (p < 0 || std::size_t(p) >= V)
          throw std::invalid_argument("Lscm(" + quoted(m_name) + "): pin vertex " + std::to_string(p) +
                                      " does not exist (the mesh has " + std::to_string(V) + " vertices)");
        if (components.ofVertex[std::size_t(p)] < 0)
          throw std::invalid_argument("Lscm(" + quoted(m_name) + "): pin vertex " + std::to_string(p) +
                                      " belongs to no triangle");
      }
      if (m_pins[0] == m_pins[1])
        throw std::invalid_argument("Lscm(" + quoted(m_name) + "): both pins are vertex " + std::to_string(m_pins[0]) +
                                    "; pin two different vertices, far apart");
    } else {
      m_pins = farthestBoundaryPair(m_mesh, topology);
    }
    p0 = position(m_mesh, m_pins[0]);
    p1 = position(m_mesh, m_pins[1]);
    const std::vector<double> bounds = m_mesh.bounds();
    const double diagonal = std::hypot(bounds[3] - bounds[0], bounds[4] - bounds[1], bounds[5] - bounds[2]);
    if (!(length(p1 - p0) > 1e-12 * diagonal))
      throw std::invalid_argument("Lscm(" + quoted(m_name) + "): pins " + std::to_string(m_pins[0]) + " and " +
                                  std::to_string(m_pins[1]) +
                                  " are at the same position; pin two vertices far apart (e.g. on opposite sides of the "
                                  "boundary)");
    m_pinUv = options.pinUv.value_or(std::array<double, 4>{0.0, 0.0, length(p1 - p0), 0.0});
    for (double x : m_pinUv)
      if (!std::isfinite(x)) throw std::invalid_argument("Lscm(" + quoted(m_name) + "): a pin's (u, v) is not finite");
    if (m_pinUv[0] == m_pinUv[2] && m_pinUv[1] == m_pinUv[3])
      throw std::invalid_argument("Lscm(" + quoted(m_name) +
                                  "): both pins at the same (u, v) collapse the map to a point; give them distinct (u, v)");
  };
  auto addConformalityRows = [&] {
    for (std::size_t t = 0; t < T; ++t) {
      const std::int32_t* tri = &m_mesh.triangles[3 * t];
      const Vec3 a3 = position(m_mesh, tri[0]), e1 = position(m_mesh, tri[1]) - a3, e2 = position(m_mesh, tri[2]) - a3;
      // The triangle's frame: x along e1, y in the plane, towards p2.
      const double a = length(e1);
      const Vec3 normal = cross(e1, e2);
      const double twiceArea = length(normal);
      if (!(twiceArea > 1e-12 * a * length(e2)))
        throw MeshError(m_mesh.name, t < m_mesh.triangleLines.size() ? m_mesh.triangleLines[t] : 0,
                        "triangle " + std::to_string(t) + " (vertices " + std::to_string(tri[0]) + ", " +
                            std::to_string(tri[1]) + ", " + std::to_string(tri[2]) +
                            ") has no area: LSCM's conformality rows need non-degenerate triangles; remove it or merge "
                            "its vertices");
      const double c = dot(e2, e1) / a;
      const double d = twiceArea / a;
      const double weight = 1.0 / twiceArea;
      const std::size_t v0 = std::size_t(tri[0]), v1 = std::size_t(tri[1]), v2 = std::size_t(tri[2]);
      builder.beginRow();  // real part
      builder.coefficient(v0, 0, c - a);
      builder.coefficient(v0, 1, -d);
      builder.coefficient(v1, 0, -c);
      builder.coefficient(v1, 1, d);
      builder.coefficient(v2, 0, a);
      builder.endRow(0.0, weight);
      builder.beginRow();  // imaginary part
      builder.coefficient(v0, 0, d);
      builder.coefficient(v0, 1, c - a);
      builder.coefficient(v1, 0, -d);
      builder.coefficient(v1, 1, -c);
      builder.coefficient(v2, 1, a);
      builder.endRow(0.0, weight);
    }
  };
  linalg::concurrently(checkTopologyAndPins, addConformalityRows);
  builder.lock(std::size_t(m_pins[0]), std::array<double, 2>{m_pinUv[0], m_pinUv[1]});
  builder.lock(std::size_t(m_pins[1]), std::array<double, 2>{m_pinUv[2], m_pinUv[3]});
  for (std::size_t v = 0; v < V; ++v)
    if (components.ofVertex[v] < 0) builder.lock(v, std::array<double, 2>{0.0, 0.0});

  // The mesh projected onto its mean plane, relative to pin 0 with pin 1 on the x axis.
  const std::vector<double> planar = meanPlaneCoordinates(m_mesh, p0, p1);
  if (options.projectInitialGuess && !planar.empty()) {
    // The similarity taking z(pin 0) = 0 to uv0 and z(pin 1) = (l1, 0) to uv1 is
    // uv = uv0 + (uv1 - uv0) z / l1 (complex product).
    const double l1 = planar[2 * std::size_t(m_pins[1])];
    const double su = (m_pinUv[2] - m_pinUv[0]) / l1, sv = (m_pinUv[3] - m_pinUv[1]) / l1;
    for (std::size_t v = 0; v < V; ++v) {
      if (builder.isLocked(v)) continue;
      const double zx = planar[2 * v], zy = planar[2 * v + 1];
      builder.setValue(v, std::array<double, 2>{m_pinUv[0] + su * zx - sv * zy, m_pinUv[1] + su * zy + sv * zx});
    }
  }
  solvers::SystemSolverOptions solverOptions = options.solver;
  if (options.similarityNearNullSpace && solverOptions.nearNullSpace.empty() && !planar.empty()) {
    // What the conformal energy leaves (nearly) free: translations, and the plane's
    // rotation and scaling, (u, v) = (-y, x) and (x, y) (AggregationHierarchy.h).
    std::vector<std::vector<double>> B(4, std::vector<double>(2 * V, 0.0));
    for (std::size_t v = 0; v < V; ++v) {
      const double x = planar[2 * v], y = planar[2 * v + 1];
      B[0][2 * v] = 1.0;
      B[1][2 * v + 1] = 1.0;
      B[2][2 * v] = x;
      B[2][2 * v + 1] = y;
      B[3][2 * v] = -y;
      B[3][2 * v + 1] = x;
    }
    solverOptions.nearNullSpace = std::move(B);
  }
  m_system = builder.build();
  m_buildMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  try {
    m_solver = std::make_unique<solvers::SystemSolver>(m_system, solverOptions);
  } catch (const std::exception& e) {
    // A set-up that fails (a singular coarse matrix) on a mesh with defects is the mesh's
    // problem first.
    if (m_notes.empty()) throw;
    throw MeshError(m_mesh.name, 0, topologyFirst(m_notes) + " (the solver's set-up failed: " + e.what() + ")");
  }
}

Lscm::~Lscm() = default;

solvers::SolverStatus Lscm::solve() {
  solvers::SolverStatus status = m_solver->solve(0);
  if (!status.converged() && !m_notes.empty()) status.message = topologyFirst(m_notes) + "; the solve: " + status.message;
  return status;
}

void Lscm::setPinUv(int pin, double u, double v) {
  if (pin != 0 && pin != 1)
    throw std::invalid_argument("Lscm(" + quoted(m_name) + ")::setPinUv: pin " + std::to_string(pin) + " (0 or 1)");
  if (!std::isfinite(u) || !std::isfinite(v))
    throw std::invalid_argument("Lscm(" + quoted(m_name) + ")::setPinUv: (u, v) of pin " + std::to_string(pin) +
                                " is not finite");
  std::array<double, 4> next = m_pinUv;
  next[std::size_t(2 * pin)] = u;
  next[std::size_t(2 * pin + 1)] = v;
  if (next[0] == next[2] && next[1] == next[3])
    throw std::invalid_argument("Lscm(" + quoted(m_name) + ")::setPinUv: both pins at (" + std::to_string(u) + ", " +
                                std::to_string(v) + ") collapse the map to a point");
  m_pinUv = next;
  m_system.setLockedValues(std::size_t(m_pins[std::size_t(pin)]), std::array<double, 2>{u, v});
  m_solver->updateRightHandSides(m_system);
}

const stream::Vector& Lscm::uv() const { return m_solver->values(0); }

std::vector<double> Lscm::downloadUv() const { return m_solver->downloadValues(0); }

LscmQuality Lscm::quality() const { return measureParameterization(m_mesh, downloadUv()); }

}  // namespace texstream::geometry
