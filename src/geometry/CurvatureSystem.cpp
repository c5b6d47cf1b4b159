// Desbrun et al. 1999 / Bolz et al. 2003, §3: the curvature-flow system in double precision,
// entry by entry in the same order as the GPU kernels (shaders/geometry/).
#include <texstream/geometry/CurvatureSystem.h>

#include <cmath>
#include <stdexcept>
#include <string>

namespace texstream::geometry {

namespace {

struct Corner {
  double crossLength;  ///< |(a - b) x (c - b)|
  double dot;          ///< (a - b) . (c - b)
  bool degenerate;
};

Corner corner(const double* a, const double* b, const double* c) {
  const double u[3] = {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
  const double v[3] = {c[0] - b[0], c[1] - b[1], c[2] - b[2]};
  const double w[3] = {a[0] - c[0], a[1] - c[1], a[2] - c[2]};
  const double x = u[1] * v[2] - u[2] * v[1], y = u[2] * v[0] - u[0] * v[2], z = u[0] * v[1] - u[1] * v[0];
  const double len = std::sqrt(x * x + y * y + z * z);
  const double scale = u[0] * u[0] + u[1] * u[1] + u[2] * u[2] + v[0] * v[0] + v[1] * v[1] + v[2] * v[2] +
                       w[0] * w[0] + w[1] * w[1] + w[2] * w[2];
  return {len, u[0] * v[0] + u[1] * v[1] + u[2] * v[2], !(len > kDegenerateEpsilon * scale)};
}

}  // namespace

bool isDegenerateTriangle(const double* a, const double* b, const double* c) { return corner(a, b, c).degenerate; }

double cotangentAt(const double* a, const double* b, const double* c) {
  const Corner k = corner(a, b, c);
  return k.degenerate ? 0.0 : k.dot / k.crossLength;
}

std::size_t countDegenerateTriangles(const Mesh& mesh, const std::vector<double>& positions) {
  const std::vector<double>& x = positions.empty() ? mesh.positions : positions;
  std::size_t count = 0;
  for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
    const double* a = &x[3 * std::size_t(mesh.triangles[3 * t])];
    const double* b = &x[3 * std::size_t(mesh.triangles[3 * t + 1])];
    const double* c = &x[3 * std::size_t(mesh.triangles[3 * t + 2])];
    if (isDegenerateTriangle(a, b, c)) ++count;
  }
  return count;
}

CurvatureSystem buildCurvatureSystem(const Mesh& mesh, const TriangleTopology& topology, double lambdaDt,
                                     bool fixBoundary, const std::vector<double>& positions,
                                     const std::vector<double>& stiffnessPositions) {
  if (!(lambdaDt >= 0.0) || !std::isfinite(lambdaDt))
    throw std::invalid_argument("buildCurvatureSystem(\"" + mesh.name + "\"): lambdaDt = " + std::to_string(lambdaDt) +
                                "; the step needs a finite lambdaDt >= 0");
  const std::size_t n = mesh.vertexCount();
  if (topology.vertexCount() != n)
    throw std::invalid_argument("buildCurvatureSystem(\"" + mesh.name + "\"): the topology has " +
                                std::to_string(topology.vertexCount()) + " vertices, the mesh " + std::to_string(n));
  const std::vector<double>& x = positions.empty() ? mesh.positions : positions;
  if (x.size() != 3 * n)
    throw std::invalid_argument("buildCurvatureSystem(\"" + mesh.name + "\"): " + std::to_string(x.size()) +
                                " position values for " + std::to_string(n) + " vertices");
  const std::vector<double>& xs = stiffnessPositions.empty() ? x : stiffnessPositions;
  if (xs.size() != 3 * n)
    throw std::invalid_argument("buildCurvatureSystem(\"" + mesh.name + "\"): " + std::to_string(xs.size()) +
                                " stiffness position values for " + std::to_string(n) + " vertices");
  const bool separateStiffness = &xs != &x;
  const linalg::Csr& P = topology.pattern();
  auto at = [&](std::int32_t v) { return &x[3 * std::size_t(v)]; };
  auto stiffnessAt = [&](std::int32_t v) { return &xs[3 * std::size_t(v)]; };

  CurvatureSystem s;
  s.A.rows = s.A.cols = n;
  s.A.rowPtr.assign(n + 1, 0);
  s.A.colIdx.reserve(P.nonZeros() + n);
  s.A.values.reserve(P.nonZeros() + n);
  s.rhs.assign(3 * n, 0.0);
  s.vertexArea.assign(n, 0.0);
  s.mass.assign(n, 1.0);
  s.held.assign(n, 0);
  auto isFixed = [&](std::size_t v) { return fixBoundary && topology.isBoundary(v); };
  for (std::size_t i = 0; i < n; ++i) {
    const bool fixed = isFixed(i);
    double moved[3] = {0.0, 0.0, 0.0};  // -Σ a_ij x_j over held columns j
    const std::size_t diagonalAt = s.A.values.size();
    s.A.colIdx.push_back(std::int32_t(i));
    s.A.values.push_back(0.0);
    double area = 0.0, offDiagonal = 0.0;
    int usable = 0;
    const double* xi = at(std::int32_t(i));
    for (std::int64_t e = P.rowPtr[i]; e < P.rowPtr[i + 1]; ++e) {
      const std::int32_t j = P.colIdx[std::size_t(e)];
      const double* xj = at(j);
      // The pair in a fixed order (smaller index first), as the GPU kernel takes it, so
      // that a_ij and a_ji are computed from identical operations.
      const double* lo = std::int32_t(i) < j ? xi : xj;
      const double* hi = std::int32_t(i) < j ? xj : xi;
      double w = 0.0;
      const double* loS = std::int32_t(i) < j ? stiffnessAt(std::int32_t(i)) : stiffnessAt(j);
      const double* hiS = std::int32_t(i) < j ? stiffnessAt(j) : stiffnessAt(std::int32_t(i));
      for (const std::int32_t k : {topology.next(std::size_t(e)), topology.prev(std::size_t(e))}) {
        if (k < 0) continue;
        const Corner c = corner(loS, stiffnessAt(k), hiS);
        // Half of the triangle's area: each triangle is seen from two edges.
        area += 0.25 * (separateStiffness ? corner(lo, at(k), hi).crossLength : c.crossLength);
        if (!c.degenerate) {
          w += c.dot / c.crossLength;
          ++usable;
        }
      }
      const double a = fixed ? 0.0 : -lambdaDt * w;
      // Symmetric elimination of a held column: a_ij x_j moves to b_i, 0 in the matrix,
      // a_ij still in a_ii (the boundary vertex enters the coefficients).
      const bool eliminated = isFixed(std::size_t(j));
      s.A.colIdx.push_back(j);
      s.A.values.push_back(eliminated ? 0.0 : a);
      offDiagonal += a;
      if (eliminated) {
        for (int c = 0; c < 3; ++c) moved[c] -= a * xj[c];
      }
    }
    s.vertexArea[i] = area;
    const bool held = fixed || usable == 0;
    s.held[i] = held ? 1 : 0;
    if (held) {
      for (std::size_t k = diagonalAt + 1; k < s.A.values.size(); ++k) s.A.values[k] = 0.0;
    }
    const double mass = usable == 0 ? 1.0 : 4.0 * area;
    s.mass[i] = mass;
    s.A.values[diagonalAt] = held ? mass : mass - offDiagonal;
    for (int c = 0; c < 3; ++c) s.rhs[3 * i + std::size_t(c)] = mass * xi[c] + (held ? 0.0 : moved[c]);
    s.A.rowPtr[i + 1] = std::int64_t(s.A.values.size());
  }
  s.degenerateTriangles = countDegenerateTriangles(mesh, x);
  return s;
}

}  // namespace texstream::geometry
