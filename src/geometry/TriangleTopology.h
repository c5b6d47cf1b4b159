#pragma once
// texstream::geometry::TriangleTopology: the connectivity the curvature-flow matrix needs
// (Bolz et al. 2003, §3.1.2): one off-diagonal entry a_ij per mesh edge and direction, and
// for each entry the two vertices opposite the edge, which with i and j describe the two
// triangles whose angles give a_ij = -λΔt (cot α_ij + cot β_ij). On the GPU these become the
// I, N and P textures laid out like the matrix's off-diagonal values (C holds j).
//
// Conventions, for entry (i, j):
//  - next(e): the third vertex k of the triangle in which i -> j is an edge in its vertex
//    order (triangle (i, j, k) counter-clockwise); -1 when there is none;
//  - prev(e): the third vertex of the triangle in which j -> i is an edge; -1 when none.
//  On a boundary edge one of them is -1. On an edge whose two triangles disagree in
//  orientation (both list i -> j) the second triangle's vertex goes to prev and the edge is
//  counted in inconsistentEdges(): cotangent weights do not care, normals and volume do.
//
// Checks (MeshError citing the triangles' file lines): an edge shared by more than two
// triangles (non-manifold edge), and the checks of Mesh::validate(). Non-manifold
// vertices (two fans meeting at a vertex) are fine: everything here is per edge.
#include <texstream/geometry/Mesh.h>
#include <texstream/linalg/Csr.h>

#include <cstdint>
#include <vector>

namespace texstream::geometry {

class TriangleTopology {
 public:
  /// Validates `mesh` and builds the connectivity; throws MeshError.
  explicit TriangleTopology(const Mesh& mesh);

  std::size_t vertexCount() const { return m_vertexCount; }
  std::size_t triangleCount() const { return m_triangleCount; }
  std::size_t edgeCount() const { return m_edges; }
  std::size_t boundaryEdgeCount() const { return m_boundaryEdges; }
  std::size_t inconsistentEdges() const { return m_inconsistentEdges; }

  /// n x n pattern of the off-diagonal entries (no diagonal), columns ascending in each
  /// row, all values 1. Entry e of this CSR is what next(e) and prev(e) describe.
  const linalg::Csr& pattern() const { return m_pattern; }
  std::int32_t next(std::size_t e) const { return m_next[e]; }
  std::int32_t prev(std::size_t e) const { return m_prev[e]; }
  const std::vector<std::int32_t>& nextVertices() const { return m_next; }
  const std::vector<std::int32_t>& prevVertices() const { return m_prev; }
  /// Row of each entry (so per-entry data needs no search).
  const std::vector<std::int32_t>& entryRows() const { return m_entryRow; }

  /// Vertices on a boundary edge (an edge with one triangle).
  bool isBoundary(std::size_t v) const { return m_boundary[v] != 0; }
  /// Vertices no triangle uses.
  bool isIsolated(std::size_t v) const { return m_pattern.rowPtr[v] == m_pattern.rowPtr[v + 1]; }
  std::size_t boundaryVertexCount() const { return m_boundaryVertices; }
  std::size_t isolatedVertexCount() const { return m_isolatedVertices; }
  /// Largest number of neighbours of a vertex (the longest matrix row).
  int maxValence() const { return m_maxValence; }

 private:
  std::size_t m_vertexCount = 0, m_triangleCount = 0, m_edges = 0, m_boundaryEdges = 0, m_inconsistentEdges = 0;
  std::size_t m_boundaryVertices = 0, m_isolatedVertices = 0;
  int m_maxValence = 0;
  linalg::Csr m_pattern;
  std::vector<std::int32_t> m_next, m_prev, m_entryRow;
  std::vector<std::uint8_t> m_boundary;
};

}  // namespace texstream::geometry
