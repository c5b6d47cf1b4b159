// Bajaj et al. 2004, §3.3: the Gauss–Seidel sweep as two linear expressions.
#include <texstream/codegen/GaussSeidel.h>

#include <stdexcept>

namespace texstream::codegen {

GaussSeidelSystem::GaussSeidelSystem(LinearExpression iteration) : m_iteration(std::move(iteration)) {}

GaussSeidelSystem GaussSeidelSystem::fromSystem(const LinearExpression& system) {
  const int m = system.size();
  std::vector<double> diagonal(std::size_t(m), 0.0);
  for (const Entry& e : system.entries()) {
    if (e.row == e.col) diagonal[std::size_t(e.row)] = e.value;
  }
  for (int i = 0; i < m; ++i) {
    if (diagonal[std::size_t(i)] == 0.0) {
      throw std::invalid_argument("GaussSeidelSystem: A[" + std::to_string(i) + "][" + std::to_string(i) +
                                  "] is zero (Gauss–Seidel needs a non-zero diagonal)");
    }
  }
  std::vector<Entry> entries;
  for (const Entry& e : system.entries()) {
    if (e.row != e.col) entries.push_back({e.row, e.col, -e.value / diagonal[std::size_t(e.row)]});
  }
  std::vector<double> b2(static_cast<std::size_t>(m));
  for (int i = 0; i < m; ++i) b2[std::size_t(i)] = system.b()[std::size_t(i)] / diagonal[std::size_t(i)];
  return GaussSeidelSystem(LinearExpression(m, std::move(entries), std::move(b2)));
}

LinearExpression GaussSeidelSystem::lower() const {
  std::vector<Entry> entries;
  for (const Entry& e : m_iteration.entries()) {
    if (e.col < e.row) entries.push_back(e);
  }
  return LinearExpression(size(), std::move(entries));
}

LinearExpression GaussSeidelSystem::upper() const {
  std::vector<Entry> entries;
  for (const Entry& e : m_iteration.entries()) {
    if (e.col >= e.row) entries.push_back(e);
  }
  return LinearExpression(size(), std::move(entries), m_iteration.b());
}

GaussSeidelSystem GaussSeidelSystem::permuted(std::span<const int> perm) const {
  return GaussSeidelSystem(m_iteration.permuted(perm));
}

std::vector<double> GaussSeidelSystem::sweep(std::span<const double> x) const {
  if (x.size() != std::size_t(size())) {
    throw std::invalid_argument("GaussSeidelSystem::sweep: x has " + std::to_string(x.size()) + " entries, expected " +
                                std::to_string(size()));
  }
  std::vector<double> out(x.begin(), x.end());
  for (int i = 0; i < size(); ++i) {
    double v = m_iteration.b()[std::size_t(i)];
    for (int k = m_iteration.rowStart(i); k < m_iteration.rowStart(i + 1); ++k) {
      const Entry& e = m_iteration.entries()[std::size_t(k)];
      v += e.value * out[std::size_t(e.col)];
    }
    out[std::size_t(i)] = v;
  }
  return out;
}

}  // namespace texstream::codegen
