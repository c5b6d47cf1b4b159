#include <texstream/codegen/LinearExpression.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace texstream::codegen {

namespace {

std::string cell(int i, int j) { return "(" + std::to_string(i) + ", " + std::to_string(j) + ")"; }

}  // namespace

LinearExpression::LinearExpression(int m, std::vector<Entry> entries, std::vector<double> b) : m_size(m) {
  if (m < 1) throw std::invalid_argument("LinearExpression: size must be at least 1 (got " + std::to_string(m) + ")");
  if (!b.empty() && b.size() != std::size_t(m)) {
    throw std::invalid_argument("LinearExpression: b has " + std::to_string(b.size()) + " entries, the matrix is " +
                                std::to_string(m) + " x " + std::to_string(m));
  }
  for (std::size_t k = 0; k < b.size(); ++k) {
    if (!std::isfinite(b[k]))
      throw std::invalid_argument("LinearExpression: b[" + std::to_string(k) + "] is not finite");
  }
  m_b = b.empty() ? std::vector<double>(std::size_t(m), 0.0) : std::move(b);
  for (const Entry& e : entries) {
    if (e.row < 0 || e.row >= m || e.col < 0 || e.col >= m) {
      throw std::invalid_argument("LinearExpression: entry " + cell(e.row, e.col) + " is outside the " +
                                  std::to_string(m) + " x " + std::to_string(m) + " matrix");
    }
    if (!std::isfinite(e.value))
      throw std::invalid_argument("LinearExpression: entry " + cell(e.row, e.col) + " is not finite");
  }
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.row != b.row ? a.row < b.row : a.col < b.col; });
  for (std::size_t k = 1; k < entries.size(); ++k) {
    if (entries[k].row == entries[k - 1].row && entries[k].col == entries[k - 1].col) {
      throw std::invalid_argument("LinearExpression: duplicate entry " + cell(entries[k].row, entries[k].col));
    }
  }
  m_entries.reserve(entries.size());
  for (const Entry& e : entries) {
    if (e.value != 0.0) m_entries.push_back(e);
  }
  m_rowStart.assign(std::size_t(m) + 1, 0);
  for (const Entry& e : m_entries) ++m_rowStart[std::size_t(e.row) + 1];
  for (int i = 0; i < m; ++i) m_rowStart[std::size_t(i) + 1] += m_rowStart[std::size_t(i)];
}

LinearExpression LinearExpression::fromDense(int m, std::span<const double> a, std::span<const double> b) {
  if (m < 1) throw std::invalid_argument("LinearExpression::fromDense: size must be at least 1");
  if (a.size() != std::size_t(m) * std::size_t(m)) {
    throw std::invalid_argument("LinearExpression::fromDense: " + std::to_string(a.size()) + " values for a " +
                                std::to_string(m) + " x " + std::to_string(m) + " matrix");
  }
  std::vector<Entry> entries;
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < m; ++j) {
      const double v = a[std::size_t(i) * std::size_t(m) + std::size_t(j)];
      if (v != 0.0) entries.push_back({i, j, v});
    }
  }
  return LinearExpression(m, std::move(entries), std::vector<double>(b.begin(), b.end()));
}

double LinearExpression::at(int i, int j) const {
  const auto first = m_entries.begin() + rowStart(i), last = m_entries.begin() + rowStart(i + 1);
  auto it = std::lower_bound(first, last, j, [](const Entry& e, int col) { return e.col < col; });
  return it != last && it->col == j ? it->value : 0.0;
}

std::vector<double> LinearExpression::evaluate(std::span<const double> x) const {
  if (x.size() != std::size_t(m_size)) {
    throw std::invalid_argument("LinearExpression::evaluate: x has " + std::to_string(x.size()) +
                                " entries, expected " + std::to_string(m_size));
  }
  std::vector<double> y(m_b);
  for (const Entry& e : m_entries) y[std::size_t(e.row)] += e.value * x[std::size_t(e.col)];
  return y;
}

long long LinearExpression::operations() const {
  long long ops = 0;
  for (int i = 0; i < m_size; ++i) {
    const int k = rowStart(i + 1) - rowStart(i);
    if (k > 0) ops += 2 * k - 1 + (m_b[std::size_t(i)] != 0.0 ? 1 : 0);
  }
  return ops;
}

LinearExpression LinearExpression::permuted(std::span<const int> perm) const {
  requirePermutation("LinearExpression::permuted", perm, m_size);
  const int n = int(perm.size());
  std::vector<int> position(static_cast<std::size_t>(n));
  for (int p = 0; p < n; ++p) position[std::size_t(perm[std::size_t(p)])] = p;
  std::vector<Entry> entries;
  entries.reserve(m_entries.size());
  for (const Entry& e : m_entries)
    entries.push_back({position[std::size_t(e.row)], position[std::size_t(e.col)], e.value});
  return LinearExpression(n, std::move(entries), permuteVector(m_b, perm));
}

std::vector<int> identityPermutation(int n) {
  std::vector<int> p(std::size_t(std::max(n, 0)));
  for (int i = 0; i < n; ++i) p[std::size_t(i)] = i;
  return p;
}

void requirePermutation(const char* what, std::span<const int> perm, int minSize) {
  if (perm.size() < std::size_t(minSize)) {
    throw std::invalid_argument(std::string(what) + ": permutation of length " + std::to_string(perm.size()) +
                                " is shorter than the expression (" + std::to_string(minSize) + ")");
  }
  std::vector<char> seen(perm.size(), 0);
  for (std::size_t p = 0; p < perm.size(); ++p) {
    const int v = perm[p];
    if (v < 0 || std::size_t(v) >= perm.size() || seen[std::size_t(v)]) {
      throw std::invalid_argument(std::string(what) + ": not a permutation (entry " + std::to_string(p) + " is " +
                                  std::to_string(v) + ")");
    }
    seen[std::size_t(v)] = 1;
  }
}

std::vector<double> permuteVector(std::span<const double> v, std::span<const int> perm) {
  std::vector<double> out(perm.size(), 0.0);
  for (std::size_t p = 0; p < perm.size(); ++p) {
    const std::size_t src = std::size_t(perm[p]);
    if (src < v.size()) out[p] = v[src];
  }
  return out;
}

std::vector<double> unpermuteVector(std::span<const double> permuted, std::span<const int> perm, int outSize) {
  std::vector<double> out(std::size_t(std::max(outSize, 0)), 0.0);
  for (std::size_t p = 0; p < perm.size() && p < permuted.size(); ++p) {
    if (perm[p] < outSize) out[std::size_t(perm[p])] = permuted[p];
  }
  return out;
}

}  // namespace texstream::codegen
