#pragma once
// texstream::geometry::Mesh: a triangle mesh on the CPU, the way in and out of the GPU
// curvature flow (Bolz et al. 2003, §3; Desbrun et al. 1999): vertex positions in double
// precision (a file's coordinates survive a round trip unchanged) and triangles as vertex
// index triples. Vertex order is the file's: every texstream result comes back in it.
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace texstream::geometry {

/// A malformed mesh: the message is "file:line: problem" (or "file: problem" when no line
/// applies, e.g. an empty file; "mesh \"name\": problem" for meshes built in memory).
class MeshError : public std::invalid_argument {
 public:
  MeshError(std::string file, long long line, const std::string& problem);
  const std::string& file() const { return m_file; }
  /// 1-based line (ASCII formats), 0 when no line applies.
  long long line() const { return m_line; }

 private:
  std::string m_file;
  long long m_line = 0;
};

struct Mesh {
  std::string name;  ///< file path or "builtin:cube"; names the mesh in every message

  /// x, y, z of vertex v at 3v, 3v+1, 3v+2.
  std::vector<double> positions;
  /// Vertices a, b, c of triangle t at 3t, 3t+1, 3t+2; counter-clockwise seen from outside
  /// for meshes that have an outside.
  std::vector<std::int32_t> triangles;

  /// 1-based source line of each triangle (empty for meshes not read from an ASCII file);
  /// topology errors found later (a non-manifold edge) cite them.
  std::vector<long long> triangleLines;
  /// What reading changed, one line each ("dropped 3 triangles that repeat a vertex").
  std::vector<std::string> notes;
  /// Triangles addPolygon dropped because they repeat a vertex.
  std::size_t droppedTriangles = 0;

  std::size_t vertexCount() const { return positions.size() / 3; }
  std::size_t triangleCount() const { return triangles.size() / 3; }

  /// Appends a polygon of >= 3 vertices as a fan (v0 v1 v2, v0 v2 v3, ...), each triangle
  /// recorded with `line` (0: none, and then no line is recorded at all); triangles that
  /// repeat a vertex are dropped and counted in droppedTriangles. Indices are not checked
  /// here (validate() does). Returns the number of triangles added.
  std::size_t addPolygon(std::span<const std::int32_t> vertices, long long line = 0);

  /// Checks what every texstream user of a mesh relies on, throwing MeshError at the first
  /// problem: at least one vertex and one triangle; positions a multiple of 3 long and all
  /// finite; indices in [0, vertexCount); no triangle repeating a vertex; triangleLines
  /// empty or one per triangle. (Non-manifold edges are TriangleTopology's check.)
  void validate() const;

  /// "file.obj:12" for triangle t when its line is known, else "mesh \"name\" triangle t".
  std::string triangleSource(std::size_t t) const;

  /// Sum of triangle areas, and the signed volume enclosed (divergence theorem; meaningful
  /// for closed, consistently oriented meshes), in double precision.
  double area() const;
  double volume() const;
  /// Axis-aligned bounds: {minX, minY, minZ, maxX, maxY, maxZ}.
  std::vector<double> bounds() const;
};

}  // namespace texstream::geometry
