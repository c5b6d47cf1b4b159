// Mesh files in and out. OBJ is parsed by tinyobjloader (ObjReader.cpp); OFF and PLY here.
#include <texstream/geometry/MeshIo.h>

#include <texstream/text/FloatChars.h>
#include <texstream/text/Format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <system_error>

namespace texstream::geometry {

// Defined in ObjReader.cpp.
Mesh parseObj(std::string_view bytes, const std::string& name);

namespace {

// ---------------------------------------------------------------------------------------
// Text helpers shared by the ASCII readers.

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/// Lines of a text, numbered from 1; "\n", "\r\n" and "\r" all end a line.
class LineCursor {
 public:
  explicit LineCursor(std::string_view text) : m_text(text) {}
  bool next(std::string_view& line) {
    if (m_pos >= m_text.size()) return false;
    std::size_t end = m_pos;
    while (end < m_text.size() && m_text[end] != '\n' && m_text[end] != '\r') ++end;
    line = m_text.substr(m_pos, end - m_pos);
    if (end < m_text.size() && m_text[end] == '\r' && end + 1 < m_text.size() && m_text[end + 1] == '\n') ++end;
    // A last line without a line break ends at the end of the text, not one past it.
    m_pos = end < m_text.size() ? end + 1 : end;
    ++m_line;
    return true;
  }
  long long line() const { return m_line; }
  /// Where the next line starts; never beyond the end of the text.
  std::size_t offset() const { return m_pos; }

 private:
  std::string_view m_text;
  std::size_t m_pos = 0;
  long long m_line = 0;
};

std::vector<std::string_view> tokenize(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && isSpace(line[i])) ++i;
    std::size_t j = i;
    while (j < line.size() && !isSpace(line[j])) ++j;
    if (j > i) out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

/// A finite double from the whole token, else MeshError at file:line naming `what`.
double parseCoordinate(std::string_view token, const std::string& file, long long line, const std::string& what) {
  std::string_view t = token;
  if (!t.empty() && t[0] == '+') t.remove_prefix(1);
  double value = 0;
  const auto [end, ec] = text::fromChars(t.data(), t.data() + t.size(), value);
  if (ec == std::errc::result_out_of_range)
    throw MeshError(file, line, what + ": " + text::quotedToken(token) + " is out of the range of a double");
  if (ec != std::errc() || end != t.data() + t.size())
    throw MeshError(file, line, what + ": " + text::quotedToken(token) + " is not a number");
  if (!std::isfinite(value)) throw MeshError(file, line, what + " is not finite (" + text::quotedToken(token) + ")");
  return value;
}

long long parseInteger(std::string_view token, const std::string& file, long long line, const std::string& what) {
  std::string_view t = token;
  if (!t.empty() && t[0] == '+') t.remove_prefix(1);
  long long value = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
  if (ec != std::errc() || end != t.data() + t.size())
    throw MeshError(file, line, what + ": " + text::quotedToken(token) + " is not an integer");
  return value;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

void finish(Mesh& mesh, const std::string& file) {
  if (mesh.droppedTriangles > 0)
    mesh.notes.push_back("dropped " + std::to_string(mesh.droppedTriangles) + " triangle" +
                         (mesh.droppedTriangles == 1 ? "" : "s") + " that repeat a vertex");
  if (mesh.triangles.empty())
    throw MeshError(file, 0,
                    mesh.droppedTriangles > 0 ? "no triangles left after dropping those that repeat a vertex"
                                              : "no triangles");
  mesh.validate();
}

// ---------------------------------------------------------------------------------------
// OFF: [C][N][ST]OFF, counts "nv nf ne", nv vertex lines, nf face lines "k i0 .. ik-1".

Mesh parseOff(std::string_view bytes, const std::string& file) {
  LineCursor lines(bytes);
  // The next line with content, comments (#...) removed.
  auto nextContent = [&](std::vector<std::string_view>& tokens) {
    std::string_view line;
    while (lines.next(line)) {
      const std::size_t hash = line.find('#');
      if (hash != std::string_view::npos) line = line.substr(0, hash);
      tokens = tokenize(line);
      if (!tokens.empty()) return true;
    }
    return false;
  };
  std::vector<std::string_view> tokens;
  if (!nextContent(tokens)) throw MeshError(file, 0, "empty file");

  std::size_t first = 0;
  const std::string head(tokens[0]);
  if (head.size() >= 3 && head.compare(head.size() - 3, 3, "OFF") == 0) {
    const std::string prefix = head.substr(0, head.size() - 3);
    if (prefix.find_first_not_of("STCN") != std::string::npos)
      throw MeshError(file, lines.line(), "unsupported OFF variant " + text::quotedToken(head) + " (3D [ST][C][N]OFF only)");
    first = 1;
    if (tokens.size() > 1 && lower(tokens[1]) == "binary")
      throw MeshError(file, lines.line(), "binary OFF is not supported (convert it to ASCII OFF, PLY or OBJ)");
  }
  if (first >= tokens.size()) {
    if (!nextContent(tokens)) throw MeshError(file, lines.line(), "file ends before the vertex and face counts");
    first = 0;
  }
  if (tokens.size() - first < 2)
    throw MeshError(file, lines.line(), "expected the counts \"vertices faces edges\", found " +
                                            std::to_string(tokens.size() - first) + " value(s)");
  const long long nv = parseInteger(tokens[first], file, lines.line(), "vertex count");
  const long long nf = parseInteger(tokens[first + 1], file, lines.line(), "face count");
  if (nv < 0 || nf < 0) throw MeshError(file, lines.line(), "negative vertex or face count");
  if (nv == 0) throw MeshError(file, lines.line(), "no vertices (vertex count 0)");
  if (nf == 0) throw MeshError(file, lines.line(), "no faces (face count 0)");
  if (nv > std::numeric_limits<std::int32_t>::max())
    throw MeshError(file, lines.line(), std::to_string(nv) + " vertices do not fit 32-bit indices");
  // Every vertex line takes at least 6 bytes: a count beyond that is a damaged header,
  // not a reason to reserve gigabytes.
  if (std::size_t(nv) > bytes.size() / 6 + 1 || std::size_t(nf) > bytes.size() / 6 + 1)
    throw MeshError(file, lines.line(), "counts " + std::to_string(nv) + " vertices and " + std::to_string(nf) +
                                            " faces cannot fit in a file of " + std::to_string(bytes.size()) + " bytes");

  Mesh mesh;
  mesh.name = file;
  mesh.positions.reserve(3 * std::size_t(nv));
  for (long long v = 0; v < nv; ++v) {
    if (!nextContent(tokens))
      throw MeshError(file, lines.line(), "file ends after " + std::to_string(v) + " of " + std::to_string(nv) +
                                              " vertices");
    if (tokens.size() < 3)
      throw MeshError(file, lines.line(), "vertex " + std::to_string(v) + " has " + std::to_string(tokens.size()) +
                                              " coordinate(s), expected 3");
    for (int c = 0; c < 3; ++c)
      mesh.positions.push_back(parseCoordinate(tokens[std::size_t(c)], file, lines.line(),
                                               "vertex " + std::to_string(v) + " coordinate " + "xyz"[c]));
  }
  std::vector<std::int32_t> face;
  for (long long f = 0; f < nf; ++f) {
    if (!nextContent(tokens))
      throw MeshError(file, lines.line(), "file ends after " + std::to_string(f) + " of " + std::to_string(nf) +
                                              " faces");
    const long long k = parseInteger(tokens[0], file, lines.line(), "face " + std::to_string(f) + " vertex count");
    if (k < 3)
      throw MeshError(file, lines.line(), "face " + std::to_string(f) + " has " + std::to_string(k) +
                                              " vertices; a face needs at least 3");
    if (std::size_t(k) + 1 > tokens.size())
      throw MeshError(file, lines.line(), "face " + std::to_string(f) + " declares " + std::to_string(k) +
                                              " vertices but lists " + std::to_string(tokens.size() - 1));
    face.clear();
    for (long long c = 0; c < k; ++c) {
      const long long index = parseInteger(tokens[std::size_t(c + 1)], file, lines.line(), "face " + std::to_string(f) + " index");
      if (index < 0 || index >= nv)
        throw MeshError(file, lines.line(), "face " + std::to_string(f) + " uses vertex " + std::to_string(index) +
                                                ", outside [0, " + std::to_string(nv) + ")");
      face.push_back(std::int32_t(index));
    }
    mesh.addPolygon(face, lines.line());
  }
  finish(mesh, file);
  return mesh;
}

// ---------------------------------------------------------------------------------------
// PLY: header, then elements in ASCII or binary (little- or big-endian).

enum class PlyType { Int8, UInt8, Int16, UInt16, Int32, UInt32, Float32, Float64 };

bool plyType(std::string_view name, PlyType& type) {
  static const std::pair<const char*, PlyType> kTypes[] = {
      {"char", PlyType::Int8},     {"int8", PlyType::Int8},      {"uchar", PlyType::UInt8},
      {"uint8", PlyType::UInt8},   {"short", PlyType::Int16},    {"int16", PlyType::Int16},
      {"ushort", PlyType::UInt16}, {"uint16", PlyType::UInt16},  {"int", PlyType::Int32},
      {"int32", PlyType::Int32},   {"uint", PlyType::UInt32},    {"uint32", PlyType::UInt32},
      {"float", PlyType::Float32}, {"float32", PlyType::Float32}, {"double", PlyType::Float64},
      {"float64", PlyType::Float64}};
  for (const auto& [n, t] : kTypes) {
    if (name == n) {
      type = t;
      return true;
    }
  }
  return false;
}

int plySize(PlyType t) {
  switch (t) {
    case PlyType::Int8:
    case PlyType::UInt8: return 1;
    case PlyType::Int16:
    case PlyType::UInt16: return 2;
    case PlyType::Int32:
    case PlyType::UInt32:
    case PlyType::Float32: return 4;
    case PlyType::Float64: return 8;
  }
  return 0;
}

bool plyIsInteger(PlyType t) { return t != PlyType::Float32 && t != PlyType::Float64; }

/// Element counts stay within the int32 index range of the GPU code.
constexpr long long kMaxPlyCount = std::numeric_limits<std::int32_t>::max();

struct PlyProperty {
  std::string name;
  PlyType type = PlyType::Float32;  ///< the item type for lists
  bool list = false;
  PlyType countType = PlyType::UInt8;
};

struct PlyElement {
  std::string name;
  long long count = 0;
  long long line = 0;  ///< header line that declares it
  std::vector<PlyProperty> properties;
};

enum class PlyEncoding { Ascii, BinaryLittle, BinaryBig };

/// Binary values at a running byte offset.
class BinaryCursor {
 public:
  BinaryCursor(std::string_view data, std::size_t offset, bool bigEndian, const std::string& file)
      : m_data(data), m_pos(offset), m_big(bigEndian), m_file(file) {}

  double read(PlyType t, const std::string& what) {
    const int size = plySize(t);
    if (m_pos + std::size_t(size) > m_data.size())
      throw MeshError(m_file, 0, "byte " + std::to_string(m_pos) + ": file ends inside " + what);
    unsigned char b[8];
    std::memcpy(b, m_data.data() + m_pos, std::size_t(size));
    if (m_big != (std::endian::native == std::endian::big)) std::reverse(b, b + size);
    m_pos += std::size_t(size);
    switch (t) {
      case PlyType::Int8: { std::int8_t v; std::memcpy(&v, b, 1); return v; }
      case PlyType::UInt8: return b[0];
      case PlyType::Int16: { std::int16_t v; std::memcpy(&v, b, 2); return v; }
      case PlyType::UInt16: { std::uint16_t v; std::memcpy(&v, b, 2); return v; }
      case PlyType::Int32: { std::int32_t v; std::memcpy(&v, b, 4); return v; }
      case PlyType::UInt32: { std::uint32_t v; std::memcpy(&v, b, 4); return v; }
      case PlyType::Float32: { float v; std::memcpy(&v, b, 4); return v; }
      case PlyType::Float64: { double v; std::memcpy(&v, b, 8); return v; }
    }
    return 0;
  }
  std::size_t offset() const { return m_pos; }
  std::size_t remaining() const { return m_data.size() - m_pos; }

 private:
  std::string_view m_data;
  std::size_t m_pos;
  bool m_big;
  const std::string& m_file;
};

/// ASCII values as a stream of tokens that remembers their lines.
class TokenCursor {
 public:
  TokenCursor(std::string_view data, std::size_t offset, long long firstLine, const std::string& file)
      : m_lines(data.substr(offset)), m_lineBase(firstLine - 1), m_file(file) {}

  std::string_view next(const std::string& what) {
    while (m_index >= m_tokens.size()) {
      std::string_view line;
      if (!m_lines.next(line)) throw MeshError(m_file, this->line(), "file ends inside " + what);
      m_tokens = tokenize(line);
      m_index = 0;
    }
    return m_tokens[m_index++];
  }
  long long line() const { return m_lineBase + m_lines.line(); }

 private:
  LineCursor m_lines;
  long long m_lineBase;
  const std::string& m_file;
  std::vector<std::string_view> m_tokens;
  std::size_t m_index = 0;
};

Mesh parsePly(std::string_view bytes, const std::string& file) {
  if (bytes.empty()) throw MeshError(file, 0, "empty file");
  LineCursor header(bytes);
  std::string_view line;
  header.next(line);
  if (tokenize(line).size() != 1 || tokenize(line)[0] != "ply")
    throw MeshError(file, 1, "not a PLY file (the first line must be \"ply\")");

  PlyEncoding encoding = PlyEncoding::Ascii;
  bool haveFormat = false, haveEnd = false;
  std::vector<PlyElement> elements;
  while (header.next(line)) {
    const std::vector<std::string_view> t = tokenize(line);
    if (t.empty()) continue;
    const long long at = header.line();
    if (t[0] == "comment" || t[0] == "obj_info") continue;
    if (t[0] == "end_header") {
      haveEnd = true;
      break;
    }
    if (t[0] == "format") {
      if (t.size() != 3) throw MeshError(file, at, "expected \"format <encoding> 1.0\"");
      if (t[1] == "ascii") encoding = PlyEncoding::Ascii;
      else if (t[1] == "binary_little_endian") encoding = PlyEncoding::BinaryLittle;
      else if (t[1] == "binary_big_endian") encoding = PlyEncoding::BinaryBig;
      else throw MeshError(file, at, "unknown PLY encoding " + text::quotedToken(t[1]));
      if (t[2] != "1.0") throw MeshError(file, at, "unsupported PLY version " + text::quotedToken(t[2]) + " (1.0 only)");
      haveFormat = true;
    } else if (t[0] == "element") {
      if (t.size() != 3) throw MeshError(file, at, "expected \"element <name> <count>\"");
      PlyElement e;
      e.name = std::string(t[1]);
      e.count = parseInteger(t[2], file, at, "element count");
      if (e.count < 0) throw MeshError(file, at, "element " + e.name + " has a negative count");
      if (e.count > kMaxPlyCount)
        throw MeshError(file, at, "element " + e.name + " declares " + std::to_string(e.count) +
                                      " instances, beyond the limit of " + std::to_string(kMaxPlyCount));
      // The mesh is one vertex and one face element; a second one of either is ambiguous.
      if (e.name == "vertex" || e.name == "face") {
        for (const PlyElement& before : elements) {
          if (before.name == e.name)
            throw MeshError(file, at, "a second element " + e.name + " (the first is on line " +
                                          std::to_string(before.line) + ")");
        }
      }
      e.line = at;
      elements.push_back(std::move(e));
    } else if (t[0] == "property") {
      if (elements.empty()) throw MeshError(file, at, "property before any element");
      PlyProperty p;
      if (t.size() == 5 && t[1] == "list") {
        p.list = true;
        if (!plyType(t[2], p.countType) || !plyIsInteger(p.countType))
          throw MeshError(file, at, "list count type " + text::quotedToken(t[2]) + " is not an integer type");
        if (!plyType(t[3], p.type)) throw MeshError(file, at, "unknown property type " + text::quotedToken(t[3]));
        p.name = std::string(t[4]);
      } else if (t.size() == 3) {
        if (!plyType(t[1], p.type)) throw MeshError(file, at, "unknown property type " + text::quotedToken(t[1]));
        p.name = std::string(t[2]);
      } else {
        throw MeshError(file, at, "expected \"property <type> <name>\" or \"property list <count type> <type> <name>\"");
      }
      elements.back().properties.push_back(std::move(p));
    } else {
      throw MeshError(file, at, "unknown header keyword " + text::quotedToken(t[0]));
    }
  }
  if (!haveEnd) throw MeshError(file, header.line(), "file ends inside the header (no end_header)");
  if (!haveFormat) throw MeshError(file, header.line(), "the header has no format line");

  const PlyElement* vertexElement = nullptr;
  const PlyElement* faceElement = nullptr;
  int px = -1, py = -1, pz = -1, pIndices = -1;
  for (const PlyElement& e : elements) {
    if (e.name == "vertex") {
      vertexElement = &e;
      for (std::size_t k = 0; k < e.properties.size(); ++k) {
        const PlyProperty& p = e.properties[k];
        if (p.list) continue;
        if (p.name == "x") px = int(k);
        if (p.name == "y") py = int(k);
        if (p.name == "z") pz = int(k);
      }
      if (px < 0 || py < 0 || pz < 0)
        throw MeshError(file, e.line, "element vertex lacks one of the properties x, y, z");
    } else if (e.name == "face") {
      faceElement = &e;
      for (std::size_t k = 0; k < e.properties.size(); ++k) {
        const PlyProperty& p = e.properties[k];
        if (p.list && (p.name == "vertex_indices" || p.name == "vertex_index")) pIndices = int(k);
      }
      if (pIndices < 0) throw MeshError(file, e.line, "element face has no list property vertex_indices");
      if (!plyIsInteger(e.properties[std::size_t(pIndices)].type))
        throw MeshError(file, e.line, "face vertex_indices are not of an integer type");
    }
  }
  if (!vertexElement || vertexElement->count == 0) throw MeshError(file, header.line(), "no vertices");
  if (!faceElement || faceElement->count == 0) throw MeshError(file, header.line(), "no faces");
  const long long nv = vertexElement->count;
  const bool ascii = encoding == PlyEncoding::Ascii;

  // Every instance takes a minimum number of bytes: binary, the size of each scalar property
  // and of each list's count; ASCII, one a property. The counts of all elements together
  // are held against the bytes after the header before anything is reserved. (A file cut
  // short within these bounds is reported where it ends, by the reading below.)
  const std::size_t dataBytes = bytes.size() - header.offset();
  std::size_t claimed = 0;
  for (const PlyElement& e : elements) {
    std::size_t instanceBytes = 0;
    for (const PlyProperty& p : e.properties) instanceBytes += ascii ? 1 : std::size_t(plySize(p.list ? p.countType : p.type));
    if (instanceBytes == 0) continue;
    const std::size_t room = (dataBytes - claimed) / instanceBytes;
    if (std::size_t(e.count) > room)
      throw MeshError(file, e.line, "element " + e.name + " declares " + std::to_string(e.count) + " instances of at least " +
                                        std::to_string(instanceBytes) + " bytes each; the " + std::to_string(dataBytes) +
                                        " bytes after the header hold " +
                                        (claimed == 0 ? std::string() : "what the elements before leave room for, ") +
                                        "at most " + std::to_string(room));
    claimed += std::size_t(e.count) * instanceBytes;
  }

  Mesh mesh;
  mesh.name = file;
  mesh.positions.reserve(3 * std::size_t(nv));
  std::vector<std::int32_t> face;
  BinaryCursor bin(bytes, header.offset(), encoding == PlyEncoding::BinaryBig, file);
  TokenCursor text(bytes, header.offset(), header.line() + 1, file);

  for (const PlyElement& e : elements) {
    // Instances without properties hold no data: there is nothing to read, however many.
    if (e.properties.empty()) continue;
    const bool isVertex = &e == vertexElement, isFace = &e == faceElement;
    for (long long i = 0; i < e.count; ++i) {
      const std::string where = "element " + e.name + " " + std::to_string(i) + " of " + std::to_string(e.count);
      long long line = 0;
      std::string place;  // "byte N" for binary messages
      double xyz[3] = {0, 0, 0};
      for (std::size_t k = 0; k < e.properties.size(); ++k) {
        const PlyProperty& p = e.properties[k];
        if (!p.list) {
          double value;
          if (ascii) {
            const std::string_view token = text.next(where);
            line = text.line();
            value = parseCoordinate(token, file, line, where + " property " + p.name);
          } else {
            place = "byte " + std::to_string(bin.offset()) + ": ";
            value = bin.read(p.type, where);
            if (isVertex && !std::isfinite(value))
              throw MeshError(file, 0, place + where + " property " + p.name + " is not finite");
          }
          if (isVertex) {
            if (int(k) == px) xyz[0] = value;
            if (int(k) == py) xyz[1] = value;
            if (int(k) == pz) xyz[2] = value;
          }
          continue;
        }
        long long count;
        if (ascii) {
          count = parseInteger(text.next(where), file, text.line(), where + " list count");
          line = text.line();
        } else {
          place = "byte " + std::to_string(bin.offset()) + ": ";
          count = (long long)bin.read(p.countType, where + " list count");
        }
        if (count < 0) throw MeshError(file, line, place + where + " has a negative list count");
        if (!ascii && std::size_t(count) > bin.remaining() / std::size_t(plySize(p.type)))
          throw MeshError(file, 0, place + "file ends inside " + where + ": its list of " + std::to_string(count) +
                                       " values of " + std::to_string(plySize(p.type)) + " bytes has " +
                                       std::to_string(bin.remaining()) + " bytes left");
        const bool indices = isFace && int(k) == pIndices;
        if (indices) {
          if (count < 3)
            throw MeshError(file, line, place + "face " + std::to_string(i) + " has " + std::to_string(count) +
                                            " vertices; a face needs at least 3");
          face.clear();
        }
        for (long long c = 0; c < count; ++c) {
          long long value;
          if (ascii) {
            const std::string_view token = text.next(where);
            if (!indices) continue;
            value = parseInteger(token, file, text.line(), "face " + std::to_string(i) + " index");
          } else {
            const double v = bin.read(p.type, where);
            if (!indices) continue;
            value = (long long)v;
          }
          if (value < 0 || value >= nv)
            throw MeshError(file, line, place + "face " + std::to_string(i) + " uses vertex " +
                                            std::to_string(value) + ", outside [0, " + std::to_string(nv) + ")");
          face.push_back(std::int32_t(value));
        }
        if (indices) mesh.addPolygon(face, ascii ? line : 0);
      }
      if (isVertex) mesh.positions.insert(mesh.positions.end(), {xyz[0], xyz[1], xyz[2]});
    }
  }
  finish(mesh, file);
  return mesh;
}

}  // namespace

MeshFormat meshFormatFromPath(const std::string& path) {
  const std::size_t dot = path.find_last_of('.');
  const std::size_t slash = path.find_last_of('/');
  const std::string ext = dot == std::string::npos || (slash != std::string::npos && dot < slash)
                              ? std::string()
                              : lower(path.substr(dot));
  if (ext == ".obj") return MeshFormat::Obj;
  if (ext == ".off") return MeshFormat::Off;
  if (ext == ".ply") return MeshFormat::Ply;
  throw MeshError(path, 0,
                  "unknown mesh format " + (ext.empty() ? std::string("(no extension)") : text::quotedToken(ext)) +
                      " (expected .obj, .off or .ply)");
}

Mesh parseMesh(std::string_view bytes, MeshFormat format, const std::string& name) {
  switch (format) {
    case MeshFormat::Obj: return parseObj(bytes, name);
    case MeshFormat::Off: return parseOff(bytes, name);
    case MeshFormat::Ply: return parsePly(bytes, name);
  }
  throw MeshError(name, 0, "unknown mesh format");
}

Mesh readMesh(const std::string& path) {
  const MeshFormat format = meshFormatFromPath(path);
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw MeshError(path, 0, "is a directory, not a mesh file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw MeshError(path, 0, std::string("cannot open: ") + std::strerror(errno));
  std::ostringstream contents;
  contents << in.rdbuf();
  if (in.bad()) throw MeshError(path, 0, "read error");
  const std::string bytes = contents.str();
  if (bytes.empty()) throw MeshError(path, 0, "empty file");
  return parseMesh(bytes, format, path);
}

std::string formatObj(const Mesh& mesh, std::span<const double> uv) {
  if (!uv.empty() && uv.size() != 2 * mesh.vertexCount())
    throw std::invalid_argument("formatObj: mesh \"" + mesh.name + "\" has " + std::to_string(mesh.vertexCount()) +
                                " vertices but " + std::to_string(uv.size()) + " texture coordinates were given (2 per vertex)");
  bool allFloat = true;
  for (double v : mesh.positions) allFloat = allFloat && double(float(v)) == v;
  bool uvFloat = true;
  for (double v : uv) uvFloat = uvFloat && double(float(v)) == v;
  std::string out;
  out.reserve(mesh.positions.size() * 12 + uv.size() * 12 + mesh.triangles.size() * 8 + 100);
  out += "# texstream: " + std::to_string(mesh.vertexCount()) + " vertices, " +
         std::to_string(mesh.triangleCount()) + " triangles\n";
  for (std::size_t v = 0; v < mesh.vertexCount(); ++v) {
    out += "v";
    for (int c = 0; c < 3; ++c) {
      out += ' ';
      const double x = mesh.positions[3 * v + std::size_t(c)];
      if (allFloat) text::appendShortestText(out, float(x));
      else text::appendShortestText(out, x);
    }
    out += '\n';
  }
  for (std::size_t v = 0; v < uv.size() / 2; ++v) {
    out += "vt ";
    for (int c = 0; c < 2; ++c) {
      if (c > 0) out += ' ';
      const double u = uv[2 * v + std::size_t(c)];
      if (uvFloat) text::appendShortestText(out, float(u));
      else text::appendShortestText(out, u);
    }
    out += '\n';
  }
  for (std::size_t t = 0; t < mesh.triangleCount(); ++t) {
    out += "f";
    for (int k = 0; k < 3; ++k) {
      const std::string index = std::to_string(mesh.triangles[3 * t + std::size_t(k)] + 1);
      out += " " + index + (uv.empty() ? "" : "/" + index);
    }
    out += "\n";
  }
  return out;
}

void writeObj(const std::string& path, const Mesh& mesh, std::span<const double> uv) {
  const std::string text = formatObj(mesh, uv);
  std::ofstream out(path, std::ios::binary);
  if (!out) throw std::runtime_error("writeObj: cannot write " + path + ": " + std::strerror(errno));
  out.write(text.data(), std::streamsize(text.size()));
  out.close();
  if (!out) throw std::runtime_error("writeObj: error writing " + path);
}

}  // namespace texstream::geometry
