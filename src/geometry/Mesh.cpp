#include <texstream/geometry/Mesh.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace texstream::geometry {

namespace {

std::string describeWhere(const std::string& file, long long line) {
  if (line > 0) return file + ":" + std::to_string(line);
  return file;
}

}  // namespace

MeshError::MeshError(std::string file, long long line, const std::string& problem)
    : std::invalid_argument(describeWhere(file, line) + ": " + problem), m_file(std::move(file)), m_line(line) {}

void Mesh::validate() const {
  const std::string who = name.empty() ? std::string("mesh") : name;
  if (positions.size() % 3 != 0)
    throw MeshError(who, 0, "positions hold " + std::to_string(positions.size()) + " values, not a multiple of 3");
  if (triangles.size() % 3 != 0)
    throw MeshError(who, 0, "triangles hold " + std::to_string(triangles.size()) + " indices, not a multiple of 3");
  if (positions.empty()) throw MeshError(who, 0, "no vertices");
  if (triangles.empty()) throw MeshError(who, 0, "no triangles");
  if (!triangleLines.empty() && triangleLines.size() != triangleCount())
    throw MeshError(who, 0, "triangleLines has " + std::to_string(triangleLines.size()) + " entries for " +
                                std::to_string(triangleCount()) + " triangles");
  if (vertexCount() > std::size_t(std::numeric_limits<std::int32_t>::max()))
    throw MeshError(who, 0, std::to_string(vertexCount()) + " vertices do not fit 32-bit indices");
  for (std::size_t v = 0; v < vertexCount(); ++v) {
    for (int c = 0; c < 3; ++c) {
      if (!std::isfinite(positions[3 * v + std::size_t(c)]))
        throw MeshError(who, 0, "vertex " + std::to_string(v) + " has a non-finite coordinate");
    }
  }
  const auto n = std::int64_t(vertexCount());
  for (std::size_t t = 0; t < triangleCount(); ++t) {
    const std::int32_t* f = &triangles[3 * t];
    for (int c = 0; c < 3; ++c) {
      if (f[c] < 0 || f[c] >= n) {
        const long long line = triangleLines.empty() ? 0 : triangleLines[t];
        throw MeshError(who, line,
                        "triangle " + std::to_string(t) + " uses vertex " + std::to_string(f[c]) + ", outside [0, " +
                            std::to_string(n) + ")");
      }
    }
    if (f[0] == f[1] || f[1] == f[2] || f[0] == f[2])
      throw MeshError(who, triangleLines.empty() ? 0 : triangleLines[t],
                      "triangle " + std::to_string(t) + " (" + std::to_string(f[0]) + ", " + std::to_string(f[1]) +
                          ", " + std::to_string(f[2]) + ") repeats a vertex");
  }
}

std::size_t Mesh::addPolygon(std::span<const std::int32_t> vertices, long long line) {
  std::size_t added = 0;
  for (std::size_t k = 1; k + 1 < vertices.size(); ++k) {
    const std::int32_t a = vertices[0], b = vertices[k], c = vertices[k + 1];
    if (a == b || b == c || a == c) {
      ++droppedTriangles;
      continue;
    }
    triangles.insert(triangles.end(), {a, b, c});
    if (line > 0) triangleLines.push_back(line);
    ++added;
  }
  return added;
}

std::string Mesh::triangleSource(std::size_t t) const {
  if (t < triangleLines.size() && triangleLines[t] > 0) return name + ":" + std::to_string(triangleLines[t]);
  return "mesh \"" + name + "\" triangle " + std::to_string(t);
}

namespace {
/// Sum over the triangles of f(a, b, c), the corners' positions (3 doubles each).
template <class F>
double sumOverTriangles(const Mesh& m, F f) {
  double sum = 0;
  for (std::size_t t = 0; t < m.triangleCount(); ++t) {
    sum += f(&m.positions[3 * std::size_t(m.triangles[3 * t])], &m.positions[3 * std::size_t(m.triangles[3 * t + 1])],
             &m.positions[3 * std::size_t(m.triangles[3 * t + 2])]);
  }
  return sum;
}
}  // namespace

double Mesh::area() const {
  return sumOverTriangles(*this, [](const double* a, const double* b, const double* c) {
    const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
    const double v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
    const double x = u[1] * v[2] - u[2] * v[1], y = u[2] * v[0] - u[0] * v[2], z = u[0] * v[1] - u[1] * v[0];
    return 0.5 * std::sqrt(x * x + y * y + z * z);
  });
}

double Mesh::volume() const {
  return sumOverTriangles(*this, [](const double* a, const double* b, const double* c) {
    return (a[0] * (b[1] * c[2] - b[2] * c[1]) + a[1] * (b[2] * c[0] - b[0] * c[2]) +
            a[2] * (b[0] * c[1] - b[1] * c[0])) /
           6.0;
  });
}

std::vector<double> Mesh::bounds() const {
  std::vector<double> b = {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(),
                           std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                           -std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  for (std::size_t v = 0; v < vertexCount(); ++v) {
    for (int c = 0; c < 3; ++c) {
      b[std::size_t(c)] = std::min(b[std::size_t(c)], positions[3 * v + std::size_t(c)]);
      b[std::size_t(c) + 3] = std::max(b[std::size_t(c) + 3], positions[3 * v + std::size_t(c)]);
    }
  }
  return b;
}

}  // namespace texstream::geometry
