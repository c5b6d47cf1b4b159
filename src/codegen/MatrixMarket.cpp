#include <texstream/codegen/MatrixMarket.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace texstream::codegen {

namespace {

[[noreturn]] void fail(const std::string& name, int line, const std::string& what) {
  throw std::invalid_argument(name + ":" + std::to_string(line) + ": " + what);
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

long long integer(const std::string& word, const std::string& name, int line, const char* what) {
  long long v = 0;
  const auto res = std::from_chars(word.data(), word.data() + word.size(), v);
  if (res.ec != std::errc() || res.ptr != word.data() + word.size()) {
    fail(name, line, std::string(what) + " \"" + word + "\" is not an integer");
  }
  return v;
}

double real(const std::string& word, const std::string& name, int line) {
  double v = 0.0;
  const char* first = word.data() + (word.size() > 1 && word[0] == '+' ? 1 : 0);
  const auto res = std::from_chars(first, word.data() + word.size(), v);
  if (res.ec == std::errc::result_out_of_range) fail(name, line, "value \"" + word + "\" is out of range");
  if (res.ec != std::errc() || res.ptr != word.data() + word.size())
    fail(name, line, "value \"" + word + "\" is not a number");
  if (!std::isfinite(v)) fail(name, line, "value \"" + word + "\" is not finite");
  return v;
}

}  // namespace

MatrixMarketData parseMatrixMarket(std::istream& in, const std::string& name) {
  std::string line;
  int lineNo = 0;
  if (!std::getline(in, line)) fail(name, 1, "empty file (expected a %%MatrixMarket header)");
  ++lineNo;
  const auto header = words(line);
  if (header.empty() || lower(header[0]) != "%%matrixmarket") {
    fail(name, lineNo, "expected \"%%MatrixMarket matrix coordinate real general\" as the first line");
  }
  if (header.size() != 5)
    fail(name, lineNo, "the header needs 4 words after %%MatrixMarket (object format field symmetry)");
  const std::string object = lower(header[1]), format = lower(header[2]), field = lower(header[3]),
                    symmetry = lower(header[4]);
  if (object != "matrix") fail(name, lineNo, "object \"" + header[1] + "\" is not supported (only \"matrix\")");
  if (format != "coordinate" && format != "array")
    fail(name, lineNo, "format \"" + header[2] + "\" is not coordinate or array");
  if (field != "real" && field != "integer" && field != "pattern") {
    fail(name, lineNo, "field \"" + header[3] + "\" is not supported (real, integer or pattern)");
  }
  if (symmetry != "general" && symmetry != "symmetric" && symmetry != "skew-symmetric") {
    fail(name, lineNo, "symmetry \"" + header[4] + "\" is not supported (general, symmetric or skew-symmetric)");
  }
  const bool coordinate = format == "coordinate";
  if (!coordinate && field == "pattern") fail(name, lineNo, "the array format cannot have the pattern field");
  if (!coordinate && symmetry != "general")
    fail(name, lineNo, "only general matrices are supported in the array format");

  // Size line, after comments and blank lines.
  std::vector<std::string> size;
  while (std::getline(in, line)) {
    ++lineNo;
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '%') continue;
    size = words(line);
    break;
  }
  if (size.empty())
    fail(name, lineNo, "missing the size line (rows cols" + std::string(coordinate ? " entries)" : ")"));
  if (size.size() != (coordinate ? 3u : 2u)) {
    fail(
        name, lineNo,
        coordinate ? "the size line needs 3 integers: rows cols entries" : "the size line needs 2 integers: rows cols");
  }
  const long long rows = integer(size[0], name, lineNo, "row count"),
                  cols = integer(size[1], name, lineNo, "column count");
  const long long count = coordinate ? integer(size[2], name, lineNo, "entry count") : rows * cols;
  if (rows < 1 || cols < 1 || rows > 1 << 24 || cols > 1 << 24) {
    fail(name, lineNo, "size " + size[0] + " x " + size[1] + " is out of range (1 .. 16777216)");
  }
  if (symmetry != "general" && rows != cols) fail(name, lineNo, "a " + symmetry + " matrix must be square");
  if (count < 0 || (coordinate && count > rows * cols))
    fail(name, lineNo, "entry count " + size[2] + " is out of range");

  MatrixMarketData data;
  data.rows = int(rows);
  data.cols = int(cols);
  std::map<std::pair<int, int>, int> seen;  // (row, col) -> line
  long long read = 0;
  const std::size_t perEntry = coordinate ? (field == "pattern" ? 2u : 3u) : 1u;
  while (std::getline(in, line)) {
    ++lineNo;
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '%') continue;
    const auto w = words(line);
    if (read == count)
      fail(name, lineNo, "more entries than the " + std::to_string(count) + " the size line announces");
    if (w.size() != perEntry) {
      fail(name, lineNo,
           "expected " + std::to_string(perEntry) +
               (perEntry == 1 ? " value" : " fields (row col" + std::string(field == "pattern" ? ")" : " value)")) +
               ", found " + std::to_string(w.size()));
    }
    int r, c;
    double v = 1.0;
    if (coordinate) {
      const long long ri = integer(w[0], name, lineNo, "row index"), ci = integer(w[1], name, lineNo, "column index");
      if (ri < 1 || ri > rows || ci < 1 || ci > cols) {
        fail(name, lineNo,
             "entry (" + w[0] + ", " + w[1] + ") is outside the " + size[0] + " x " + size[1] +
                 " matrix (indices are 1-based)");
      }
      r = int(ri - 1);
      c = int(ci - 1);
      if (field != "pattern") v = real(w[2], name, lineNo);
      if (symmetry != "general" && c > r) {
        fail(name, lineNo,
             "entry (" + w[0] + ", " + w[1] + ") is above the diagonal of a " + symmetry +
                 " matrix (store the lower triangle)");
      }
      if (symmetry == "skew-symmetric" && c == r) fail(name, lineNo, "a skew-symmetric matrix has no diagonal entries");
    } else {
      r = int(read % rows);  // column-major
      c = int(read / rows);
      v = real(w[0], name, lineNo);
    }
    if (field == "integer" && v != std::floor(v)) fail(name, lineNo, "value \"" + w.back() + "\" is not an integer");
    if (auto [it, fresh] = seen.insert({{r, c}, lineNo}); !fresh) {
      fail(name, lineNo,
           "duplicate entry (" + std::to_string(r + 1) + ", " + std::to_string(c + 1) + "), first given on line " +
               std::to_string(it->second));
    }
    data.entries.push_back({r, c, v});
    if (symmetry != "general" && r != c) data.entries.push_back({c, r, symmetry == "symmetric" ? v : -v});
    ++read;
  }
  if (read < count) {
    fail(name, lineNo,
         "the file ends after " + std::to_string(read) + " of the " + std::to_string(count) +
             " entries the size line announces");
  }
  return data;
}

MatrixMarketData readMatrixMarket(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(path + ": cannot open the file");
  return parseMatrixMarket(in, path);
}

LinearExpression readLinearExpression(const std::string& matrixPath, const std::string& bPath) {
  MatrixMarketData a = readMatrixMarket(matrixPath);
  if (a.rows != a.cols) {
    throw std::invalid_argument(matrixPath + ": A must be square for y = A x + b (it is " + std::to_string(a.rows) +
                                " x " + std::to_string(a.cols) + ")");
  }
  std::vector<double> b;
  if (!bPath.empty()) {
    MatrixMarketData v = readMatrixMarket(bPath);
    if (!((v.rows == a.rows && v.cols == 1) || (v.rows == 1 && v.cols == a.rows))) {
      throw std::invalid_argument(bPath + ": b must be " + std::to_string(a.rows) + " x 1 to match A (it is " +
                                  std::to_string(v.rows) + " x " + std::to_string(v.cols) + ")");
    }
    b.assign(std::size_t(a.rows), 0.0);
    for (const Entry& e : v.entries) b[std::size_t(v.cols == 1 ? e.row : e.col)] = e.value;
  }
  return LinearExpression(a.rows, std::move(a.entries), std::move(b));
}

}  // namespace texstream::codegen
