// Matrix Market exchange format (Boisvert, Pozo & Remington, NIST 1996): coordinate and
// array files, parsed from memory with std::from_chars so a 10^7-entry file reads in
// about a second; every error names file and line.
#include <texstream/linalg/MatrixMarket.h>

#include <texstream/text/FloatChars.h>
#include <texstream/text/Format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_map>

namespace texstream::linalg {

MatrixMarketError::MatrixMarketError(const std::string& file, long line, const std::string& message)
    : std::invalid_argument(file + ":" + std::to_string(line) + ": " + message), m_file(file), m_line(line) {}

namespace {

std::string readFile(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw MatrixMarketError(path, 0, "is a directory, not a Matrix Market file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw MatrixMarketError(path, 0, "cannot open the file for reading");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/// Walks the text line by line, skipping comments and blank lines after the banner.
class Lines {
 public:
  Lines(std::string_view text, std::string name) : m_text(text), m_name(std::move(name)) {}

  /// The next raw line (without the newline), or false at the end.
  bool nextRaw(std::string_view& line) {
    if (m_pos >= m_text.size()) return false;
    const std::size_t end = m_text.find('\n', m_pos);
    line = m_text.substr(m_pos, end == std::string_view::npos ? std::string_view::npos : end - m_pos);
    m_pos = end == std::string_view::npos ? m_text.size() : end + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    ++m_line;
    return true;
  }
  /// The next line holding data (not a comment, not blank).
  bool nextData(std::string_view& line) {
    while (nextRaw(line)) {
      const std::size_t first = line.find_first_not_of(" \t");
      if (first == std::string_view::npos || line[first] == '%') continue;
      return true;
    }
    return false;
  }
  [[noreturn]] void fail(const std::string& message) const { throw MatrixMarketError(m_name, m_line, message); }
  long line() const { return m_line; }
  const std::string& name() const { return m_name; }

 private:
  std::string_view m_text;
  std::string m_name;
  std::size_t m_pos = 0;
  long m_line = 0;
};

std::vector<std::string_view> tokens(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (i >= line.size()) break;
    std::size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t') ++j;
    out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

long long parseIndex(Lines& lines, std::string_view token, const char* what) {
  long long v = 0;
  const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
  if (ec != std::errc() || end != token.data() + token.size()) {
    lines.fail(std::string(what) + " \"" + std::string(token) + "\" is not a whole number");
  }
  return v;
}

double parseValue(Lines& lines, std::string_view token, const std::string& field, const std::string& where) {
  if (field == "integer") {
    long long v = 0;
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
    if (ec == std::errc::result_out_of_range) lines.fail(where + "value \"" + std::string(token) + "\" is out of range");
    if (ec != std::errc() || end != token.data() + token.size()) {
      lines.fail(where + "value \"" + std::string(token) + "\" is not an integer (the file says integer)");
    }
    return double(v);
  }
  double v = 0;
  const char* begin = token.data();
  if (!token.empty() && token[0] == '+') ++begin;  // from_chars does not take a leading '+'
  const auto [end, ec] = text::fromChars(begin, token.data() + token.size(), v);
  if (ec == std::errc::result_out_of_range) lines.fail(where + "value \"" + std::string(token) + "\" is out of range");
  if (ec != std::errc() || end != token.data() + token.size()) {
    lines.fail(where + "value \"" + std::string(token) + "\" is not a number");
  }
  if (!std::isfinite(v)) lines.fail(where + "value \"" + std::string(token) + "\" is not finite");
  return v;
}

/// The banner and the size line. `array`: dense array files are accepted; `vector`: the
/// file must be general (one column is checked by the caller, which names the problem);
/// rows and columns beyond maxDimension are refused.
MatrixMarketHeader parseHeader(Lines& lines, bool array, bool vector, std::size_t maxDimension) {
  std::string_view line;
  if (!lines.nextRaw(line)) lines.fail("empty file (expected a \"%%MatrixMarket matrix ...\" banner)");
  const auto t = tokens(line);
  if (t.empty() || lower(t[0]) != "%%matrixmarket") {
    lines.fail("the first line must be the banner \"%%MatrixMarket matrix coordinate real general\" (or similar), got " +
               text::quoted(line.substr(0, 80)));
  }
  if (t.size() != 5) lines.fail("the banner needs 4 words after %%MatrixMarket (object format field symmetry)");
  MatrixMarketHeader h;
  if (lower(t[1]) != "matrix") lines.fail("object " + text::quoted(t[1]) + " is not supported (only \"matrix\")");
  h.format = lower(t[2]);
  h.field = lower(t[3]);
  h.symmetry = lower(t[4]);
  if (h.format != "coordinate" && h.format != "array") {
    lines.fail("format " + text::quoted(t[2]) + " is not \"coordinate\" or \"array\"");
  }
  if (!array && h.format != "coordinate") {
    lines.fail("dense \"array\" matrices are not read as sparse matrices (only \"coordinate\")");
  }
  if (h.field == "complex") lines.fail("complex matrices are not supported (real, integer or pattern only)");
  if (h.field != "real" && h.field != "integer" && h.field != "pattern" && h.field != "double") {
    lines.fail("field " + text::quoted(t[3]) + " is not real, integer or pattern");
  }
  if (h.field == "double") h.field = "real";
  if (h.field == "pattern" && (vector || h.format == "array")) {
    lines.fail("a pattern file holds no values (need real or integer)");
  }
  if (h.symmetry == "hermitian") lines.fail("hermitian matrices are complex and not supported");
  if (h.symmetry != "general" && h.symmetry != "symmetric" && h.symmetry != "skew-symmetric") {
    lines.fail("symmetry " + text::quoted(t[4]) + " is not general, symmetric or skew-symmetric");
  }
  if (vector && h.symmetry != "general") lines.fail("a vector file must be \"general\"");

  if (!lines.nextData(line)) lines.fail("the file ends before the size line");
  const auto s = tokens(line);
  const std::size_t want = h.format == "coordinate" ? 3 : 2;
  if (s.size() != want) {
    lines.fail("the size line must hold " + std::string(want == 3 ? "rows, columns and entries" : "rows and columns") +
               " (" + std::to_string(want) + " numbers), got " + std::to_string(s.size()));
  }
  const long long rows = parseIndex(lines, s[0], "row count");
  const long long cols = parseIndex(lines, s[1], "column count");
  const long long entries = want == 3 ? parseIndex(lines, s[2], "entry count") : 0;
  if (rows < 1 || cols < 1) lines.fail("the matrix is " + std::to_string(rows) + "x" + std::to_string(cols) + ": sizes must be at least 1");
  if (rows > INT32_MAX || cols > INT32_MAX) lines.fail("sizes beyond 2^31 - 1 are not supported");
  if (std::size_t(rows) > maxDimension || std::size_t(cols) > maxDimension) {
    lines.fail("the matrix is " + std::to_string(rows) + "x" + std::to_string(cols) + ", beyond the limit of " +
               std::to_string(maxDimension) + " rows and columns (MatrixMarketOptions::maxDimension)");
  }
  if (entries < 0) lines.fail("negative entry count " + std::to_string(entries));
  if (h.symmetry != "general" && rows != cols) {
    lines.fail(h.symmetry + " matrix must be square, the size line says " + std::to_string(rows) + "x" + std::to_string(cols));
  }
  h.rows = std::size_t(rows), h.cols = std::size_t(cols), h.entries = std::size_t(entries);
  if (h.format == "coordinate" && h.entries > h.rows * h.cols) {
    lines.fail("entry count " + std::to_string(entries) + " exceeds rows x columns");
  }
  if (h.format == "array") {
    h.entries = h.symmetry == "general"     ? h.rows * h.cols
                : h.symmetry == "symmetric" ? h.rows * (h.rows + 1) / 2
                                            : h.rows * (h.rows - 1) / 2;
  }
  return h;
}

/// How messages name one item of the data section and several.
struct Noun {
  const char* one;
  const char* many;
};

/// Reads the h.entries items of the data section and calls add(i, j, value, where) for each
/// with 0-based indices, in file order (one triangle of a symmetric file, as stored); `where`
/// ("entry 3 of 9: ") starts any message about it. Checks indices, the stored triangle and
/// the count, naming the line.
template <class Add>
void readEntries(Lines& lines, const MatrixMarketHeader& h, Noun noun, Add&& add) {
  const bool array = h.format == "array", pattern = h.field == "pattern";
  const bool general = h.symmetry == "general", skew = h.symmetry == "skew-symmetric";
  const std::size_t want = array ? 1 : pattern ? 2 : 3;
  const std::string count = std::to_string(h.entries);
  std::size_t i = skew ? 1 : 0, j = 0;  // array files: the position of the next value, column by column
  std::string_view line;
  for (std::size_t k = 0; k < h.entries; ++k) {
    if (!lines.nextData(line)) {
      lines.fail("expected " + count + " " + noun.many + ", the file ends after " + std::to_string(k));
    }
    const auto t = tokens(line);
    const std::string where = std::string(noun.one) + " " + std::to_string(k + 1) + " of " + count + ": ";
    if (t.size() != want) {
      lines.fail(where + "expected " +
                 (array ? "one number per line" : pattern ? "\"row column\"" : "\"row column value\"") + ", got " +
                 std::to_string(t.size()) + " fields");
    }
    if (array) {
      add(i, j, parseValue(lines, t[0], h.field, where), where);
      if (++i == h.rows) ++j, i = general ? 0 : skew ? j + 1 : j;
      continue;
    }
    const long long ri = parseIndex(lines, t[0], "row index"), ci = parseIndex(lines, t[1], "column index");
    if (ri < 1 || ri > (long long)h.rows) {
      lines.fail(where + "row index " + std::to_string(ri) + " is outside [1, " + std::to_string(h.rows) + "]");
    }
    if (ci < 1 || ci > (long long)h.cols) {
      lines.fail(where + "column index " + std::to_string(ci) + " is outside [1, " + std::to_string(h.cols) + "]");
    }
    const double value = pattern ? 1.0 : parseValue(lines, t[2], h.field, where);
    if (!general && ri < ci) {
      lines.fail(where + "(" + std::to_string(ri) + ", " + std::to_string(ci) + ") lies above the diagonal; a " +
                 h.symmetry + " file stores the lower triangle only");
    }
    if (skew && ri == ci) lines.fail(where + "a skew-symmetric matrix has no diagonal entries");
    add(std::size_t(ri - 1), std::size_t(ci - 1), value, where);
  }
  if (lines.nextData(line)) {
    lines.fail("data after the " + count + " " + noun.many + " the size line announced");
  }
}

void writeText(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw std::runtime_error(path + ": cannot open the file for writing");
  out << text;
  if (!out.flush()) throw std::runtime_error(path + ": write failed");
}

void appendComment(std::string& s, const std::string& comment) {
  if (comment.empty()) return;
  std::istringstream lines(comment);
  for (std::string line; std::getline(lines, line);) s += "% " + line + "\n";
}

/// Duplicates of (row, col) that Csr::fromTriplets summed to a non-finite value: reads the
/// text again, summing them in the same (file) order, and fails on the line of the entry
/// where the sum leaves the range of a double. A symmetric file's entry (col, row) counts
/// for (row, col) as well, as the mirror image it is.
[[noreturn]] void failOverflowingSum(std::string_view text, const std::string& name, const MatrixMarketOptions& options,
                                     std::size_t row, std::size_t col) {
  Lines lines(text, name);
  const MatrixMarketHeader h = parseHeader(lines, options.array, false, options.maxDimension);
  double sum = 0;
  readEntries(lines, h, {"entry", "entries"}, [&](std::size_t i, std::size_t j, double value, const std::string& where) {
    const bool mirrored = h.symmetry != "general" && i == col && j == row;
    if (!(i == row && j == col) && !mirrored) return;
    sum += mirrored && h.symmetry == "skew-symmetric" ? -value : value;
    if (!std::isfinite(sum)) {
      lines.fail(where + "the entries given for (" + std::to_string(row + 1) + ", " + std::to_string(col + 1) +
                 ") sum beyond the range of a double");
    }
  });
  throw MatrixMarketError(name, 0, "the entries given for (" + std::to_string(row + 1) + ", " + std::to_string(col + 1) +
                                       ") sum to a value that is not finite");
}

}  // namespace

Csr parseMatrixMarket(std::string_view text, const std::string& name, MatrixMarketHeader* header) {
  return parseMatrixMarket(text, name, MatrixMarketOptions{}, header);
}

Csr parseMatrixMarket(std::string_view text, const std::string& name, const MatrixMarketOptions& options,
                      MatrixMarketHeader* header) {
  Lines lines(text, name);
  const MatrixMarketHeader h = parseHeader(lines, options.array, false, options.maxDimension);
  std::vector<std::int64_t> r, c;
  std::vector<double> v;
  // An entry takes two bytes at least ("1\n"): a size line that promises more is not trusted.
  const std::size_t reserve = std::min(h.entries, text.size() / 2) * (h.symmetry == "general" ? 1 : 2);
  r.reserve(reserve), c.reserve(reserve), v.reserve(reserve);
  std::unordered_map<std::uint64_t, long> firstLine;  // i * cols + j -> line, with rejectDuplicates
  readEntries(lines, h, {"entry", "entries"}, [&](std::size_t i, std::size_t j, double value, const std::string& where) {
    if (options.rejectDuplicates && h.format == "coordinate") {
      const auto [it, fresh] = firstLine.try_emplace(std::uint64_t(i) * h.cols + j, lines.line());
      if (!fresh) {
        lines.fail(where + "duplicate entry (" + std::to_string(i + 1) + ", " + std::to_string(j + 1) +
                   "), first given on line " + std::to_string(it->second));
      }
    }
    r.push_back(std::int64_t(i)), c.push_back(std::int64_t(j)), v.push_back(value);
    if (h.symmetry != "general" && i != j) {
      r.push_back(std::int64_t(j)), c.push_back(std::int64_t(i));
      v.push_back(h.symmetry == "skew-symmetric" ? -value : value);
    }
  });
  if (header) *header = h;
  Csr A = Csr::fromTriplets(h.rows, h.cols, r, c, v);
  for (std::size_t i = 0; i < A.rows; ++i) {
    for (std::int64_t e = A.rowPtr[i]; e < A.rowPtr[i + 1]; ++e) {
      if (!std::isfinite(A.values[std::size_t(e)])) failOverflowingSum(text, name, options, i, std::size_t(A.colIdx[std::size_t(e)]));
    }
  }
  return A;
}

Csr readMatrixMarket(const std::string& path, MatrixMarketHeader* header) {
  return parseMatrixMarket(readFile(path), path, header);
}

Csr readMatrixMarket(const std::string& path, const MatrixMarketOptions& options, MatrixMarketHeader* header) {
  return parseMatrixMarket(readFile(path), path, options, header);
}

std::vector<double> parseMatrixMarketVector(std::string_view text, const std::string& name, std::size_t maxDimension) {
  Lines lines(text, name);
  const MatrixMarketHeader h = parseHeader(lines, true, true, maxDimension);
  if (h.cols != 1) {
    lines.fail("a vector file must have one column, the size line says " + std::to_string(h.rows) + "x" +
               std::to_string(h.cols));
  }
  std::vector<double> out;
  if (h.format == "array") {
    // Values come in order: the vector grows with what the file holds.
    out.reserve(std::min(h.rows, text.size() / 2));
    readEntries(lines, h, {"value", "values"},
                [&](std::size_t, std::size_t, double value, const std::string&) { out.push_back(value); });
    return out;
  }
  out.assign(h.rows, 0.0);
  readEntries(lines, h, {"value", "values"}, [&](std::size_t i, std::size_t, double value, const std::string& where) {
    out[i] += value;
    if (!std::isfinite(out[i])) {
      lines.fail(where + "the values given for row " + std::to_string(i + 1) + " sum beyond the range of a double");
    }
  });
  return out;
}

std::vector<double> readMatrixMarketVector(const std::string& path, std::size_t maxDimension) {
  return parseMatrixMarketVector(readFile(path), path, maxDimension);
}

std::string formatMatrixMarket(const Csr& A, const std::string& comment, bool symmetric) {
  A.validate("formatMatrixMarket");
  if (symmetric && A.rows != A.cols) throw std::invalid_argument("formatMatrixMarket: a symmetric matrix must be square");
  std::size_t count = 0;
  for (std::size_t i = 0; i < A.rows; ++i) {
    for (std::int64_t e = A.rowPtr[i]; e < A.rowPtr[i + 1]; ++e) {
      count += !symmetric || std::size_t(A.colIdx[std::size_t(e)]) <= i;
    }
  }
  std::string s = std::string("%%MatrixMarket matrix coordinate real ") + (symmetric ? "symmetric" : "general") + "\n";
  appendComment(s, comment);
  s += std::to_string(A.rows) + " " + std::to_string(A.cols) + " " + std::to_string(count) + "\n";
  s.reserve(s.size() + count * 32);
  for (std::size_t i = 0; i < A.rows; ++i) {
    for (std::int64_t e = A.rowPtr[i]; e < A.rowPtr[i + 1]; ++e) {
      const std::size_t j = std::size_t(A.colIdx[std::size_t(e)]);
      if (symmetric && j > i) continue;
      s += std::to_string(i + 1);
      s += ' ';
      s += std::to_string(j + 1);
      s += ' ';
      text::appendShortestText(s, A.values[std::size_t(e)]);
      s += '\n';
    }
  }
  return s;
}

void writeMatrixMarket(const std::string& path, const Csr& A, const std::string& comment, bool symmetric) {
  writeText(path, formatMatrixMarket(A, comment, symmetric));
}

std::string formatMatrixMarketVector(std::span<const double> v, const std::string& comment) {
  std::string s = "%%MatrixMarket matrix array real general\n";
  appendComment(s, comment);
  s += std::to_string(v.size()) + " 1\n";
  s.reserve(s.size() + v.size() * 24);
  for (double x : v) {
    text::appendShortestText(s, x);
    s += '\n';
  }
  return s;
}

void writeMatrixMarketVector(const std::string& path, std::span<const double> v, const std::string& comment) {
  writeText(path, formatMatrixMarketVector(v, comment));
}

}  // namespace texstream::linalg
