// OBJ through tinyobjloader (Debian libtinyobjloader-dev, header-only use).
//
// tinyobjloader parses the statements; it reads a malformed number as 0, skips faces with
// fewer than 3 vertices and reports out-of-range indices only as a warning with the last
// line of the file. So a light scan of the same text first records the line of every
// "v" and "f" statement and checks what tinyobjloader lets through (numbers, NaN, index 0,
// indices outside the vertices), giving "file:line" errors; tinyobjloader's faces are then
// matched to those lines one to one (it keeps them in file order). The coordinates are
// the scan's (std::from_chars, correctly rounded): tinyobjloader's own number parser can
// be one ulp off (0.75 read as 0.7500000000000001), which would break exact round trips.
//
// tinyobjloader never sees the file itself. Its number parsers overflow on hostile input
// (undefined behaviour: "vw 0 1e40 1" casts 1e40 to int, "vt 1e2147483648 0" overflows the
// exponent, atoi on long indices), so it reads a text the scan writes from what it has
// checked: "v x y z" with the scan's coordinates in shortest round-trip form and "f a b c"
// with the scan's vertex indices, one line for each line of the file (every other
// statement, which the mesh ignores anyway, becomes an empty line).
//
// The implementation is compiled here, inside a namespace of ours and in double precision,
// so that it can neither clash with nor depend on Debian's libtinyobjloader.so: texstream
// keeps needing nothing but libc, libstdc++ and the GL/EGL loaders at run time.
#include <texstream/geometry/MeshIo.h>

#include <texstream/text/FloatChars.h>
#include <texstream/text/Format.h>

#if !__has_include(<tiny_obj_loader.h>)
#error "tiny_obj_loader.h not found: install tinyobjloader (Debian: apt install libtinyobjloader-dev)"
#endif

// Everything tiny_obj_loader.h includes, first, so that its own #includes are no-ops
// inside the namespace below.
#include <array>
#include <cassert>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace texstream::geometry::vendored {
#define TINYOBJLOADER_IMPLEMENTATION
#define TINYOBJLOADER_USE_DOUBLE
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#endif
#include <tiny_obj_loader.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
}  // namespace texstream::geometry::vendored

namespace texstream::geometry {

namespace {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

struct ObjScan {
  std::string libraryText;             ///< what tinyobjloader reads (see the top of the file)
  std::vector<double> positions;       ///< x, y, z of each "v"
  std::vector<long long> vertexLines;  ///< line of each "v"
  std::vector<long long> faceLines;    ///< line of each "f"
  long long maxIndex = 0, maxIndexLine = 0;  ///< largest positive index and where
};

/// The scan described at the top of the file; throws MeshError at the first problem.
ObjScan scanObj(std::string_view text, const std::string& file) {
  ObjScan scan;
  std::size_t pos = 0;
  long long lineNo = 0;
  std::vector<std::string_view> tokens;
  scan.libraryText.reserve(text.size() + 16);
  while (pos < text.size()) {
    // "\n", "\r\n" and "\r" end a line, as for tinyobjloader and the OFF and PLY readers.
    std::size_t end = pos;
    while (end < text.size() && text[end] != '\n' && text[end] != '\r') ++end;
    std::string_view line = text.substr(pos, end - pos);
    if (end + 1 < text.size() && text[end] == '\r' && text[end + 1] == '\n') ++end;
    pos = end + 1;
    ++lineNo;
    tokens.clear();
    for (std::size_t i = 0; i < line.size();) {
      while (i < line.size() && isSpace(line[i])) ++i;
      std::size_t j = i;
      while (j < line.size() && !isSpace(line[j])) ++j;
      if (j > i) tokens.push_back(line.substr(i, j - i));
      i = j;
    }
    if (tokens.empty() || tokens[0][0] == '#' || (tokens[0] != "v" && tokens[0] != "f")) {
      scan.libraryText += '\n';
      continue;
    }
    if (tokens[0] == "v") {
      const std::string what = "vertex " + std::to_string(scan.vertexLines.size() + 1);
      if (scan.vertexLines.size() >= std::size_t(std::numeric_limits<std::int32_t>::max()))
        throw MeshError(file, lineNo, what + " is beyond the 32-bit index range");
      if (tokens.size() < 4)
        throw MeshError(file, lineNo, what + " has " + std::to_string(tokens.size() - 1) + " coordinate(s), expected 3");
      for (int c = 1; c <= 3; ++c) {
        std::string_view t = tokens[std::size_t(c)];
        if (!t.empty() && t[0] == '+') t.remove_prefix(1);
        double value = 0;
        const auto [p, ec] = text::fromChars(t.data(), t.data() + t.size(), value);
        if (ec != std::errc() || p != t.data() + t.size())
          throw MeshError(file, lineNo, what + " coordinate " + "xyz"[c - 1] + ": " + text::quotedToken(tokens[std::size_t(c)]) +
                                            " is not a number");
        if (!std::isfinite(value))
          throw MeshError(file, lineNo, what + " coordinate " + "xyz"[c - 1] + " is not finite (" +
                                            text::quotedToken(tokens[std::size_t(c)]) + ")");
        scan.positions.push_back(value);
      }
      scan.vertexLines.push_back(lineNo);
      scan.libraryText += 'v';
      for (std::size_t c = scan.positions.size() - 3; c < scan.positions.size(); ++c) {
        scan.libraryText += ' ';
        text::appendShortestText(scan.libraryText, scan.positions[c]);
      }
      scan.libraryText += '\n';
    } else if (tokens[0] == "f") {
      const std::string what = "face " + std::to_string(scan.faceLines.size() + 1);
      // Only the vertex references go to tinyobjloader: texture coordinates and normals are
      // not read.
      scan.libraryText += 'f';
      if (tokens.size() < 4)
        throw MeshError(file, lineNo, what + " has " + std::to_string(tokens.size() - 1) +
                                          " vertices; a face needs at least 3");
      for (std::size_t c = 1; c < tokens.size(); ++c) {
        std::string_view t = tokens[c].substr(0, tokens[c].find('/'));
        long long index = 0;
        const auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), index);
        if (ec != std::errc() || p != t.data() + t.size() || t.empty())
          throw MeshError(file, lineNo, what + ": " + text::quotedToken(tokens[c]) + " is not a vertex reference");
        if (index == 0) throw MeshError(file, lineNo, what + " uses vertex index 0 (OBJ indices start at 1)");
        const auto defined = (long long)scan.vertexLines.size();
        if (index < 0 && defined + index < 0)
          throw MeshError(file, lineNo, what + " uses relative index " + std::to_string(index) + " but only " +
                                            std::to_string(defined) + " vertices precede it");
        scan.libraryText += ' ';
        scan.libraryText += std::to_string(index);
        if (index > scan.maxIndex) {
          scan.maxIndex = index;
          scan.maxIndexLine = lineNo;
        }
      }
      scan.faceLines.push_back(lineNo);
      scan.libraryText += '\n';
    }
  }
  if (scan.vertexLines.empty()) throw MeshError(file, 0, text.empty() ? "empty file" : "no vertices (no \"v\" lines)");
  if (scan.faceLines.empty()) throw MeshError(file, 0, "no faces (no \"f\" lines)");
  if (scan.maxIndex > (long long)scan.vertexLines.size())
    throw MeshError(file, scan.maxIndexLine, "face uses vertex " + std::to_string(scan.maxIndex) + " but the file has " +
                                                 std::to_string(scan.vertexLines.size()) + " vertices");
  return scan;
}

}  // namespace

Mesh parseObj(std::string_view bytes, const std::string& file) {
  const ObjScan scan = scanObj(bytes, file);

  namespace tinyobj = vendored::tinyobj;
  tinyobj::attrib_t attrib;
  std::vector<tinyobj::shape_t> shapes;
  std::vector<tinyobj::material_t> materials;
  std::string warn, err;
  std::istringstream in{scan.libraryText};
  // No material reader: mtllib lines are ignored. No triangulation: faces stay one per
  // "f" line so that they match the scan's lines; we fan them ourselves.
  const bool ok = tinyobj::LoadObj(&attrib, &shapes, &materials, &warn, &err, &in, nullptr, /*triangulate=*/false);
  if (!ok) {
    std::string first = err.substr(0, err.find('\n'));
    throw MeshError(file, 0, "tinyobjloader: " + first);
  }
  const std::size_t nv = attrib.vertices.size() / 3;
  std::size_t faces = 0;
  for (const tinyobj::shape_t& s : shapes) faces += s.mesh.num_face_vertices.size();
  if (nv != scan.vertexLines.size() || faces != scan.faceLines.size())
    throw MeshError(file, 0, "tinyobjloader read " + std::to_string(nv) + " vertices and " + std::to_string(faces) +
                                 " faces where the file has " + std::to_string(scan.vertexLines.size()) + " and " +
                                 std::to_string(scan.faceLines.size()) + " (unsupported OBJ syntax?)");

  Mesh mesh;
  mesh.name = file;
  mesh.positions = scan.positions;
  std::vector<std::int32_t> polygon;
  std::size_t face = 0;
  for (const tinyobj::shape_t& s : shapes) {
    std::size_t offset = 0;
    for (const auto count : s.mesh.num_face_vertices) {
      polygon.clear();
      for (std::size_t c = 0; c < std::size_t(count); ++c) {
        const int v = s.mesh.indices[offset + c].vertex_index;
        if (v < 0 || std::size_t(v) >= nv)
          throw MeshError(file, scan.faceLines[face], "face uses vertex " + std::to_string(v + 1) + ", outside [1, " +
                                                          std::to_string(nv) + "]");
        polygon.push_back(v);
      }
      mesh.addPolygon(polygon, scan.faceLines[face]);
      offset += std::size_t(count);
      ++face;
    }
  }
  if (mesh.droppedTriangles > 0)
    mesh.notes.push_back("dropped " + std::to_string(mesh.droppedTriangles) + " triangle" +
                         (mesh.droppedTriangles == 1 ? "" : "s") + " that repeat a vertex");
  if (mesh.triangles.empty()) throw MeshError(file, 0, "no triangles left after dropping those that repeat a vertex");
  mesh.validate();
  return mesh;
}

}  // namespace texstream::geometry
