#pragma once
// texstream::geometry::MeshDefects: what in a mesh breaks, or quietly changes, what the
// solvers compute on it, found before they run, each named with its vertex or triangle and
// what to do about it:
//  - a non-manifold vertex (a bow-tie: two or more fans of triangles that meet only at
//    that vertex): split it, one copy per fan;
//  - an isolated vertex (no triangle uses it): remove it;
//  - a zero-area triangle (twice its area at most zeroAreaRatio times the sum of its
//    squared edge lengths): remove it, or weld its coincident vertices;
//  - a duplicate triangle (the same three vertices as an earlier one, in any order):
//    remove it;
//  - coincident vertices (two vertices that triangles use, at the same position): weld
//    them where they are one point (an unwelded seam).
// Each user of a mesh decides what it refuses and what it only notes (Lscm.h, Dsi.h,
// CurvatureFlow.h say which), and words the note with what it does with the defect.
//
//   const MeshDefects d = findMeshDefects(mesh, 1e-12);
//   if (!d.nonManifoldVertices.empty()) throw MeshError(mesh.name, 0, d.describe(MeshDefectKind::NonManifoldVertex));
#include <texstream/geometry/Mesh.h>

#include <cstdint>
#include <string>
#include <vector>

namespace texstream::geometry {

enum class MeshDefectKind { NonManifoldVertex, IsolatedVertex, ZeroAreaTriangle, DuplicateTriangle, CoincidentVertices };

struct MeshDefects {
  struct Fans {
    std::int32_t vertex;
    int fans;  ///< fans of triangles meeting at the vertex (>= 2)
    /// Some of its fans belong to triangles that no path across edges joins: the mesh's
    /// edge-connected pieces meet only at vertices such as this one (a true bow-tie); else
    /// the fans are joined elsewhere (a hole touching the boundary at the vertex).
    bool joinsPieces;
  };
  struct Pair {
    std::int32_t first, second;  ///< duplicates: the earlier triangle, then the repeat; coincident: two vertices
  };
  std::vector<Fans> nonManifoldVertices;    ///< ascending vertex
  std::vector<std::int32_t> isolatedVertices;  ///< ascending
  std::vector<std::int32_t> zeroAreaTriangles;  ///< ascending
  std::vector<Pair> duplicateTriangles;     ///< by the repeat, ascending
  std::vector<Pair> coincidentVertices;     ///< each vertex with the lowest one at its position; ascending
  /// Pieces of triangles joined across edges (a piece joined to another only at a vertex
  /// counts apart).
  std::size_t edgeConnectedPieces = 0;

  std::size_t count(MeshDefectKind kind) const;
  bool empty() const;
  /// These defects with only the non-manifold vertices that join pieces (joinsPieces).
  MeshDefects withPieceJointsOnly() const;
  /// One line for the defects of `kind` ("" when there are none): the first few named with
  /// their vertices or triangles (and source lines where the mesh has them), a count of the
  /// rest, and what to do. `consequence`, where given, follows the names: what the caller
  /// does with them ("LSCM cannot map them", "held in place").
  std::string describe(MeshDefectKind kind, const std::string& consequence = "") const;

  const Mesh* mesh = nullptr;  ///< the mesh they were found in (names and source lines)
};

/// Finds the defects of `mesh` (validated first: MeshError for what Mesh::validate refuses).
/// `mesh` must outlive the result (describe() cites its triangles). Linear in the mesh, up to
/// sorts of its triangles and vertices.
MeshDefects findMeshDefects(const Mesh& mesh, double zeroAreaRatio);

}  // namespace texstream::geometry
