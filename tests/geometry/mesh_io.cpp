// Tests src/geometry/MeshIo.* and Mesh.*: OBJ (tinyobjloader), OFF and PLY (ASCII, binary
// little- and big-endian) give the same mesh; OBJ out reads back exactly; every malformed
// file gives a MeshError naming the file and the line (binary PLY: the byte); polygons are
// fanned and triangles repeating a vertex dropped and counted.
#include <catch2/catch.hpp>

#include <texstream/geometry/MeshIo.h>
#include <texstream/geometry/ProceduralMeshes.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>

using namespace texstream::geometry;

namespace {

// A unit square pyramid: 5 vertices, the base a quad (fanned into two triangles).
const char* kObj = R"(# pyramid
o pyramid
v 0 0 0
v 1 0 0
v 1 1 0
v 0 1 0
v 0.5 0.5 0.75
vn 0 0 1
vt 0 0
f 1/1/1 4/1/1 3/1/1 2/1/1
f 1//1 2//1 5//1
f 2 3 5
g side
usemtl none
f -3 -2 -1
f 4 1 5
)";

const char* kOff = R"(OFF
# pyramid
5 5 0
0 0 0
1 0 0
1 1 0
0 1 0
0.5 0.5 0.75
4 0 3 2 1
3 0 1 4
3 1 2 4 255 0 0
3 2 3 4
3 3 0 4
)";

const char* kPlyAscii = R"(ply
format ascii 1.0
comment pyramid
element vertex 5
property float x
property float y
property float z
property uchar red
element face 5
property list uchar int vertex_indices
element extra 1
property list uchar float junk
end_header
0 0 0 1
1 0 0 2
1 1 0 3
0 1 0 4
0.5 0.5 0.75 5
4 0 3 2 1
3 0 1 4
3 1 2 4
3 2 3 4
3 3 0 4
2 1.5 2.5
)";

const double kPositions[] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0.5, 0.5, 0.75};
const std::int32_t kTriangles[] = {0, 3, 2, 0, 2, 1, 0, 1, 4, 1, 2, 4, 2, 3, 4, 3, 0, 4};

void requirePyramid(const Mesh& m) {
  REQUIRE(m.vertexCount() == 5);
  REQUIRE(m.triangleCount() == 6);
  for (std::size_t k = 0; k < 15; ++k) REQUIRE(m.positions[k] == kPositions[k]);
  for (std::size_t k = 0; k < 18; ++k) REQUIRE(m.triangles[k] == kTriangles[k]);
  REQUIRE(m.volume() == Approx(0.25).epsilon(1e-12));  // 1/3 base * height
}

template <class T>
void put(std::string& out, T value, bool big) {
  char b[sizeof(T)];
  std::memcpy(b, &value, sizeof(T));
  if (big != (std::endian::native == std::endian::big)) std::reverse(b, b + sizeof(T));
  out.append(b, sizeof(T));
}

std::string binaryPly(bool big, bool truncate = false, int badIndex = -1) {
  std::string s = std::string("ply\nformat ") + (big ? "binary_big_endian" : "binary_little_endian") +
                  " 1.0\nelement vertex 5\nproperty double x\nproperty float y\nproperty float z\n"
                  "element face 5\nproperty uchar flags\nproperty list uchar int vertex_indices\nend_header\n";
  for (int v = 0; v < 5; ++v) {
    put<double>(s, kPositions[3 * v], big);
    put<float>(s, float(kPositions[3 * v + 1]), big);
    put<float>(s, float(kPositions[3 * v + 2]), big);
  }
  const std::vector<std::vector<int>> faces = {{0, 3, 2, 1}, {0, 1, 4}, {1, 2, 4}, {2, 3, 4}, {3, 0, 4}};
  for (const auto& f : faces) {
    put<std::uint8_t>(s, 7, big);
    put<std::uint8_t>(s, std::uint8_t(f.size()), big);
    for (int i : f) put<std::int32_t>(s, badIndex >= 0 && i == 4 ? badIndex : i, big);
  }
  if (truncate) s.resize(s.size() - 3);
  return s;
}

/// The MeshError message of parsing `text`, or "" when it parses.
std::string errorOf(const std::string& text, MeshFormat format, const std::string& name = "bad") {
  try {
    parseMesh(text, format, name);
  } catch (const MeshError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("OBJ, OFF and PLY read the same mesh", "[geometry]") {
  requirePyramid(parseMesh(kObj, MeshFormat::Obj, "p.obj"));
  requirePyramid(parseMesh(kOff, MeshFormat::Off, "p.off"));
  requirePyramid(parseMesh(kPlyAscii, MeshFormat::Ply, "p.ply"));
  requirePyramid(parseMesh(binaryPly(false), MeshFormat::Ply, "le.ply"));
  requirePyramid(parseMesh(binaryPly(true), MeshFormat::Ply, "be.ply"));
  // CRLF line ends and an OFF whose counts share the header line.
  std::string crlf;
  for (const char* c = kObj; *c; ++c) crlf += *c == '\n' ? std::string("\r\n") : std::string(1, *c);
  requirePyramid(parseMesh(crlf, MeshFormat::Obj, "crlf.obj"));
  std::string off = kOff;
  off.replace(off.find("OFF\n# pyramid\n5 5 0"), 19, "OFF 5 5 0");
  requirePyramid(parseMesh(off, MeshFormat::Off, "p.off"));
}

TEST_CASE("Triangle lines are recorded for ASCII files", "[geometry]") {
  const Mesh m = parseMesh(kObj, MeshFormat::Obj, "p.obj");
  REQUIRE(m.triangleLines == std::vector<long long>{10, 10, 11, 12, 15, 16});
  REQUIRE(m.triangleSource(4) == "p.obj:15");
  const Mesh o = parseMesh(kOff, MeshFormat::Off, "p.off");
  REQUIRE(o.triangleLines == std::vector<long long>{9, 9, 10, 11, 12, 13});
}

TEST_CASE("OBJ written and read back is the same mesh, bit for bit", "[geometry]") {
  Mesh m = builtinMesh("patch", 400, 0.3, 11);  // irrational doubles
  const auto path = std::filesystem::temp_directory_path() / "texstream-roundtrip.obj";
  writeObj(path.string(), m);
  const Mesh back = readMesh(path.string());
  REQUIRE(back.positions == m.positions);
  REQUIRE(back.triangles == m.triangles);
  // Float-valued coordinates (GPU results) are written in float's shortest form.
  for (double& v : m.positions) v = double(float(v));
  const std::string text = formatObj(m);
  REQUIRE(text.size() < formatObj(builtinMesh("patch", 400, 0.3, 11)).size());
  const Mesh f = parseMesh(text, MeshFormat::Obj, "f.obj");
  for (std::size_t k = 0; k < m.positions.size(); ++k) REQUIRE(float(f.positions[k]) == float(m.positions[k]));
  std::filesystem::remove(path);
}

TEST_CASE("Polygons are fanned; triangles repeating a vertex are dropped and counted", "[geometry]") {
  const Mesh m = parseMesh("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\nf 1 1 2\nf 1 2 2 3\n", MeshFormat::Obj, "d.obj");
  REQUIRE(m.triangleCount() == 3);  // the quad (2) + one of 1 2 2 3's two fan triangles
  REQUIRE(m.droppedTriangles == 2);
  REQUIRE(m.notes.size() == 1);
  REQUIRE(m.notes[0].find("dropped 2 triangles") != std::string::npos);
  REQUIRE(errorOf("v 0 0 0\nv 1 0 0\nf 1 1 2\n", MeshFormat::Obj) ==
          "bad: no triangles left after dropping those that repeat a vertex");
}

TEST_CASE("Malformed mesh files give errors with file and line", "[geometry]") {
  struct Case {
    const char* text;
    MeshFormat format;
    const char* expected;  // the start of the message
  };
  const Case cases[] = {
      {"", MeshFormat::Obj, "bad: empty file"},
      {"# nothing\n", MeshFormat::Obj, "bad: no vertices"},
      {"v 0 0 0\nv 1 0 0\nv 0 1 0\n", MeshFormat::Obj, "bad: no faces"},
      {"v 0 0 0\nv 1 nan 0\nv 0 1 0\nf 1 2 3\n", MeshFormat::Obj, "bad:2: vertex 2 coordinate y is not finite"},
      {"v 0 0 0\nv 1 0 0\nv 0 abc 0\nf 1 2 3\n", MeshFormat::Obj, "bad:3: vertex 3 coordinate y: \"abc\" is not a number"},
      {"v 0 0 0\nv 1 0\nf 1 2 3\n", MeshFormat::Obj, "bad:2: vertex 2 has 2 coordinate(s)"},
      {"v 0 0 0\nv 1 0 0\nv 0 1 0\n\nf 1 2 0\n", MeshFormat::Obj, "bad:5: face 1 uses vertex index 0"},
      {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 1 2 9\nf 1 3 2\n", MeshFormat::Obj, "bad:5: face uses vertex 9 but the file has 3"},
      {"v 0 0 0\nv 1 0 0\nf 1 2 -3\n", MeshFormat::Obj, "bad:3: face 1 uses relative index -3"},
      {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2\n", MeshFormat::Obj, "bad:4: face 1 has 2 vertices"},
      {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 x 3\n", MeshFormat::Obj, "bad:4: face 1: \"x\" is not a vertex reference"},
      {"", MeshFormat::Off, "bad: empty file"},
      {"OFF\n", MeshFormat::Off, "bad:1: file ends before the vertex and face counts"},
      {"OFF\n3 1 0\n0 0 0\n1 0 0\n", MeshFormat::Off, "bad:4: file ends after 2 of 3 vertices"},
      {"OFF\n3 1 0\n0 0 0\n1 inf 0\n0 1 0\n3 0 1 2\n", MeshFormat::Off, "bad:4: vertex 1 coordinate y is not finite"},
      {"OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 3\n", MeshFormat::Off, "bad:6: face 0 uses vertex 3, outside [0, 3)"},
      {"OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 -1 2\n", MeshFormat::Off, "bad:6: face 0 uses vertex -1"},
      {"OFF\n3 2 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n", MeshFormat::Off, "bad:6: file ends after 1 of 2 faces"},
      {"OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n4 0 1 2\n", MeshFormat::Off, "bad:6: face 0 declares 4 vertices but lists 3"},
      {"OFF\n0 0 0\n", MeshFormat::Off, "bad:2: no vertices"},
      {"OFF\n99999999 1 0\n0 0 0\n", MeshFormat::Off, "bad:2: counts 99999999 vertices"},
      {"OFF BINARY\n", MeshFormat::Off, "bad:1: binary OFF is not supported"},
      {"", MeshFormat::Ply, "bad: empty file"},
      {"plyx\n", MeshFormat::Ply, "bad:1: not a PLY file"},
      {"ply\nformat ascii 1.0\nelement vertex 1\n", MeshFormat::Ply, "bad:3: file ends inside the header"},
      {"ply\nformat ascii 2.0\n", MeshFormat::Ply, "bad:2: unsupported PLY version"},
      {"ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nelement face 1\n"
       "property list uchar int vertex_indices\nend_header\n",
       MeshFormat::Ply, "bad:3: element vertex lacks one of the properties x, y, z"},
      {"ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
       "element face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 7\n",
       MeshFormat::Ply, "bad:13: face 0 uses vertex 7, outside [0, 3)"},
      {"ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
       "element face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 NaN 0\n0 1 0\n3 0 1 2\n",
       MeshFormat::Ply, "bad:11: element vertex 1 of 3 property y is not finite"},
      {"ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
       "element face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1\n",
       MeshFormat::Ply, "bad:12: file ends inside element vertex 2 of 3"},
      {"ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\n"
       "element face 0\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n",
       MeshFormat::Ply, "bad:9: no faces"},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    const std::string message = errorOf(c.text, c.format);
    INFO(message);
    REQUIRE(message.rfind(c.expected, 0) == 0);
  }
  // Binary PLY: the byte offset instead of a line.
  const std::string truncated = errorOf(binaryPly(false, true), MeshFormat::Ply);
  REQUIRE(truncated.rfind("bad: byte ", 0) == 0);
  REQUIRE(truncated.find("file ends inside element face 4 of 5") != std::string::npos);
  const std::string badIndex = errorOf(binaryPly(true, false, 5), MeshFormat::Ply);
  REQUIRE(badIndex.find("face 1 uses vertex 5, outside [0, 5)") != std::string::npos);
  // MeshError keeps the file and line apart too.
  try {
    parseMesh("v 0 0 0\nv 1 nan 0\nv 0 1 0\nf 1 2 3\n", MeshFormat::Obj, "where.obj");
    FAIL("no error");
  } catch (const MeshError& e) {
    REQUIRE(e.file() == "where.obj");
    REQUIRE(e.line() == 2);
  }
}

TEST_CASE("readMesh: missing files, unknown extensions, empty files", "[geometry]") {
  REQUIRE_THROWS_WITH(readMesh("/nonexistent/mesh.obj"), Catch::StartsWith("/nonexistent/mesh.obj: cannot open"));
  REQUIRE_THROWS_WITH(readMesh("mesh.stl"), Catch::Contains("unknown mesh format \".stl\""));
  REQUIRE_THROWS_WITH(readMesh("mesh"), Catch::Contains("(no extension)"));
  const auto path = std::filesystem::temp_directory_path() / "texstream-empty.PLY";
  std::ofstream(path).close();
  REQUIRE_THROWS_WITH(readMesh(path.string()), path.string() + ": empty file");
  std::filesystem::remove(path);
}

TEST_CASE("Mesh::validate rejects what the flow cannot take", "[geometry]") {
  Mesh m;
  m.name = "m";
  REQUIRE_THROWS_WITH(m.validate(), "m: no vertices");
  m.positions = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  REQUIRE_THROWS_WITH(m.validate(), "m: no triangles");
  m.triangles = {0, 1, 3};
  REQUIRE_THROWS_WITH(m.validate(), Catch::Contains("uses vertex 3, outside [0, 3)"));
  m.triangles = {0, 1, 1};
  REQUIRE_THROWS_WITH(m.validate(), Catch::Contains("repeats a vertex"));
  m.triangles = {0, 1, 2};
  m.positions[4] = std::nan("");
  REQUIRE_THROWS_WITH(m.validate(), "m: vertex 1 has a non-finite coordinate");
  m.positions[4] = 0;
  REQUIRE_NOTHROW(m.validate());
}

namespace {

/// Seconds parsing `text` takes, and its MeshError message ("" when it parses).
std::pair<double, std::string> timedErrorOf(const std::string& text, MeshFormat format) {
  const auto start = std::chrono::steady_clock::now();
  const std::string message = errorOf(text, format);
  return {std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), message};
}

const char* kTriangleVertices = "element vertex 3\nproperty float x\nproperty float y\nproperty float z\n";
const char* kTriangleFaces = "element face 1\nproperty list uchar int vertex_indices\n";
const char* kTriangleData = "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";

}  // namespace

TEST_CASE("PLY headers are held against the bytes present and the index range, fast", "[geometry][mesh_io]") {
  SECTION("elements without properties hold no data: never read, and counted within int32") {
    const std::string header = std::string("ply\nformat ascii 1.0\n") + kTriangleVertices + "element marker ";
    const auto [seconds, message] =
        timedErrorOf(header + "1000000000000000000\n" + kTriangleFaces + "end_header\n" + kTriangleData, MeshFormat::Ply);
    CHECK(seconds < 0.5);
    CHECK(message == "bad:7: element marker declares 1000000000000000000 instances, beyond the limit of 2147483647");
    const auto start = std::chrono::steady_clock::now();
    // Read instance by instance, 10^8 of them take tens of seconds.
    const Mesh m = parseMesh(header + "100000000\n" + kTriangleFaces + "end_header\n" + kTriangleData, MeshFormat::Ply, "ok");
    CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < 0.5);
    CHECK(m.triangleCount() == 1);
  }
  SECTION("a second vertex or face element is refused on its line") {
    // The second face element has fewer properties than the first has up to its indices.
    const std::string faces = std::string("ply\nformat ascii 1.0\n") + kTriangleVertices +
                              "element face 1\nproperty uchar flags\nproperty list uchar int vertex_indices\n"
                              "element face 1\nproperty uchar flags\nend_header\n0 0 0\n1 0 0\n0 1 0\n7 3 0 1 2\n7\n";
    CHECK(errorOf(faces, MeshFormat::Ply) == "bad:10: a second element face (the first is on line 7)");
    const std::string vertices = std::string("ply\nformat ascii 1.0\n") + kTriangleVertices +
                                 "element vertex 1\nproperty float w\n" + kTriangleFaces + "end_header\n0 0 0\n1 0 0\n0 1 0\n1\n3 0 1 2\n";
    CHECK(errorOf(vertices, MeshFormat::Ply) == "bad:7: a second element vertex (the first is on line 3)");
  }
  SECTION("a header that ends the file leaves no bytes for its elements") {
    // 2 * 10^9 vertices of 24 bytes declared, end_header without a line break.
    std::string text =
        "ply\nformat binary_little_endian 1.0\ncomment a header that ends at the end of the file\n"
        "element vertex 2000000000\nproperty double x\nproperty double y\nproperty double z\n"
        "element face 1\nproperty uchar flags\nproperty list uchar int vertex_indices\nend_header";
    const auto [seconds, message] = timedErrorOf(text, MeshFormat::Ply);
    CHECK(seconds < 0.5);
    CHECK(message == "bad:4: element vertex declares 2000000000 instances of at least 24 bytes each; the 0 bytes after "
                     "the header hold at most 0");
    CHECK(errorOf(std::string("ply\nformat ascii 1.0\n") + kTriangleVertices + kTriangleFaces + "end_header",
                  MeshFormat::Ply)
              .rfind("bad:3: element vertex declares 3 instances", 0) == 0);
  }
  SECTION("all elements together, not each alone") {
    std::string text = "ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
                       "property float z\nelement face 10\nproperty list uchar int vertex_indices\nend_header\n";
    text.append(3 * 12 + 10, '\0');  // room for the vertices and 10 list counts, less one byte
    text.pop_back();
    CHECK(errorOf(text, MeshFormat::Ply) ==
          "bad:7: element face declares 10 instances of at least 1 bytes each; the 45 bytes after the header hold what "
          "the elements before leave room for, at most 9");
  }
  SECTION("a binary list longer than the rest of the file") {
    std::string text = "ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
                       "property float z\nelement face 1\nproperty list uint int vertex_indices\nend_header\n";
    const std::size_t listAt = text.size() + 36;
    for (int k = 0; k < 9; ++k) put<float>(text, k == 3 || k == 7 ? 1.0f : 0.0f, false);
    put<std::uint32_t>(text, 4000000000u, false);
    put<std::int32_t>(text, 0, false);
    CHECK(errorOf(text, MeshFormat::Ply) ==
          "bad: byte " + std::to_string(listAt) +
              ": file ends inside element face 0 of 1: its list of 4000000000 values of 4 bytes has 4 bytes left");
  }
}

TEST_CASE("OBJ statements the mesh ignores never reach tinyobjloader", "[geometry][mesh_io]") {
  // Each would be undefined behaviour or an error in tinyobjloader's own parsers: a weight
  // beyond int, an exponent beyond int, a line with vertex index 0, an index beyond long,
  // texture and normal references beyond int, a fourth coordinate beyond the exponent range.
  const std::string hostile = std::string(kObj) +
                              "vw 0 1e40 1\nvt 1e2147483648 0\nl 1 0\np 99999999999999999999\n"
                              "t crease 2/1/0 1 2 1.5\nf 1/99999999999/99999999999 2//-99999999999 5\n";
  std::string withW = hostile;
  withW.replace(withW.find("v 0.5 0.5 0.75"), 14, "v 0.5 0.5 0.75 1e2147483648");
  const Mesh m = parseMesh(withW, MeshFormat::Obj, "hostile.obj");
  REQUIRE(m.vertexCount() == 5);
  REQUIRE(m.triangleCount() == 7);
  for (std::size_t k = 0; k < 15; ++k) REQUIRE(m.positions[k] == kPositions[k]);
  for (std::size_t k = 0; k < 18; ++k) REQUIRE(m.triangles[k] == kTriangles[k]);
  REQUIRE(m.triangleLines.back() == 22);

  SECTION("\"\\r\" ends a line for the scan as it does for tinyobjloader") {
    std::string classicMac = kObj;
    std::replace(classicMac.begin(), classicMac.end(), '\n', '\r');
    requirePyramid(parseMesh(classicMac, MeshFormat::Obj, "mac.obj"));
    std::string windows;
    for (char c : std::string(kObj)) windows += c == '\n' ? std::string("\r\n") : std::string(1, c);
    const Mesh w = parseMesh(windows, MeshFormat::Obj, "windows.obj");
    requirePyramid(w);
    REQUIRE(w.triangleLines == parseMesh(kObj, MeshFormat::Obj, "unix.obj").triangleLines);
  }
}

TEST_CASE("readMesh and parseMesh name a directory as such", "[geometry][mesh_io]") {
  const auto dir = std::filesystem::temp_directory_path() / "texstream-a-directory.obj";
  std::filesystem::create_directories(dir);
  REQUIRE_THROWS_WITH(readMesh(dir.string()), dir.string() + ": is a directory, not a mesh file");
  std::filesystem::remove(dir);
}
