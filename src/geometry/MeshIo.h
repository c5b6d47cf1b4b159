#pragma once
// Reading and writing triangle meshes: OBJ (parsed by tinyobjloader), OFF, PLY (ASCII,
// binary little- and big-endian) in; OBJ out.
//
// What a reader does with what it finds (documented handling, never a crash):
//  - an empty file, no vertices, no faces, a number that does not parse, a NaN or Inf
//    coordinate, a vertex index outside the file's vertices (OBJ: 0 too), a face with
//    fewer than 3 vertices, a truncated file, a count in a header that the bytes after it
//    cannot hold or that exceeds 2^31 - 1, a second PLY vertex or face element, a directory:
//    MeshError "file:line: problem" (binary PLY: "file: byte N: problem"), before anything
//    is allocated on a header's word;
//  - polygons with more than 3 vertices: fan-triangulated (v0 v1 v2, v0 v2 v3, ...);
//  - triangles that repeat a vertex (also from a fan over a polygon that does): dropped,
//    counted in Mesh::notes;
//  - OBJ normals, texture coordinates, groups, materials, lines and points; PLY and OFF
//    colours and extra properties or elements: ignored;
//  - unreferenced vertices: kept (vertex order is the file's), and held fixed by the flow.
// Non-manifold edges and other topology are checked when a TriangleTopology is built,
// citing the lines recorded in Mesh::triangleLines.
#include <texstream/geometry/Mesh.h>

#include <span>
#include <string>
#include <string_view>

namespace texstream::geometry {

enum class MeshFormat { Obj, Off, Ply };

/// The format named by the path's extension (.obj, .off, .ply, any case); MeshError otherwise.
MeshFormat meshFormatFromPath(const std::string& path);

/// Reads the file; the mesh is named after `path`. Throws MeshError.
Mesh readMesh(const std::string& path);
/// Parses file contents already in memory; `name` stands for the file in messages.
Mesh parseMesh(std::string_view bytes, MeshFormat format, const std::string& name);

/// Writes `mesh` as OBJ: "v x y z" per vertex in mesh order, "f a b c" (1-based) per
/// triangle. Coordinates are written in the shortest form that reads back to the same
/// double, or to the same float when every coordinate is a float (GPU results), so a
/// read-write-read round trip is exact. With `uv` (2 per vertex: u, v), also "vt u v" per
/// vertex and faces "f a/a b/b c/c" (std::invalid_argument for another count). Throws
/// std::runtime_error naming the path.
void writeObj(const std::string& path, const Mesh& mesh, std::span<const double> uv = {});
std::string formatObj(const Mesh& mesh, std::span<const double> uv = {});

}  // namespace texstream::geometry
