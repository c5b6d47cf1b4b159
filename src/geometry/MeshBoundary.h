#pragma once
// The boundary and the pieces of a triangle mesh, which parameterization needs to know
// about before it maps anything: LSCM (Lscm.h) pins two boundary vertices of a surface
// of one piece that has at least one boundary loop.
#include <texstream/geometry/Mesh.h>
#include <texstream/geometry/TriangleTopology.h>

#include <cstdint>
#include <vector>

namespace texstream::geometry {

/// The boundary loops: each a cycle of vertices along boundary edges (edges of one
/// triangle), in the direction the triangles run along them. A vertex where two loops
/// touch (a pinched boundary) appears in both.
std::vector<std::vector<std::int32_t>> boundaryLoops(const TriangleTopology& topology);

struct MeshComponents {
  std::size_t count = 0;               ///< pieces joined by shared vertices
  std::vector<std::int32_t> ofVertex;  ///< piece of each vertex, -1 for a vertex no triangle uses
};
/// The connected pieces (triangles sharing a vertex are in one piece).
MeshComponents connectedComponents(const Mesh& mesh);

}  // namespace texstream::geometry
