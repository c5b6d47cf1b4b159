// OpenNL's way of building a system (Buatois et al. 2008, §1-2): rows are recorded over
// scalar indices as they come; build() numbers the free scalars, splits each row into its
// free and locked parts and moves the locked part to the right-hand side.
#include <texstream/linalg/SystemBuilder.h>

#include <texstream/linalg/CsrProducts.h>
#include <texstream/linalg/LargeArrays.h>
#include <texstream/linalg/RowBlocks.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace texstream::linalg {

namespace {

std::string str(std::size_t v) { return std::to_string(v); }

std::string number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Inf" : "-Inf";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", v);
  return buffer;
}

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

using RowEntries = std::vector<std::pair<std::int32_t, double>>;

/// Sorts one row's entries by column and sums repeated columns, dropping none.
void mergeRow(RowEntries& entries) {
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::size_t out = 0;
  for (std::size_t k = 0; k < entries.size(); ++k) {
    if (out > 0 && entries[k].first == entries[out - 1].first) {
      entries[out - 1].second += entries[k].second;
      continue;
    }
    entries[out++] = entries[k];
  }
  entries.resize(out);
}

/// Writes `entries` as row r of A, whose rowPtr is final.
void writeRow(Csr& A, std::size_t r, const RowEntries& entries) {
  std::size_t at = std::size_t(A.rowPtr[r]);
  for (const auto& [column, value] : entries) {
    A.colIdx[at] = column;
    A.values[at++] = value;
  }
}

/// rowPtr[r + 1] holds row r's length: prefix sums, then colIdx and values sized.
void allocateRows(Csr& A) {
  for (std::size_t r = 0; r < A.rows; ++r) A.rowPtr[r + 1] += A.rowPtr[r];
  resizeLarge(A.colIdx, std::size_t(A.rowPtr[A.rows]));
  resizeLarge(A.values, std::size_t(A.rowPtr[A.rows]));
}

}  // namespace

const char* systemModeName(SystemMode mode) { return mode == SystemMode::Square ? "square" : "least-squares"; }

// ---- SystemBuilder -------------------------------------------------------------------

SystemBuilder::SystemBuilder(std::size_t variables, SystemMode mode, std::string name, int blockSize, int systems)
    : m_name(std::move(name)), m_mode(mode), m_blockSize(blockSize), m_systems(systems), m_variables(variables) {
  const std::string prefix = "system " + quoted(m_name) + ": ";
  if (blockSize != 1 && blockSize != 2 && blockSize != 4)
    throw std::invalid_argument(prefix + "block size " + std::to_string(blockSize) + " (must be 1, 2 or 4)");
  if (systems < 1) throw std::invalid_argument(prefix + std::to_string(systems) + " systems (must be at least 1)");
  if (variables == 0) throw std::invalid_argument(prefix + "no variables (the system would be empty)");
  if (variables > std::size_t(INT32_MAX) / std::size_t(blockSize))
    throw std::invalid_argument(prefix + str(variables) + " variables of " + std::to_string(blockSize) +
                                " scalars exceed 2^31 - 1 scalars");
  m_locked.assign(variables, 0);
  m_values.assign(variables * std::size_t(blockSize) * std::size_t(systems), 0.0);
}

std::string SystemBuilder::where(bool inRow) const {
  std::string w = "system " + quoted(m_name) + ": ";
  if (inRow) w += "row " + str(rowCount()) + ": ";
  return w;
}

void SystemBuilder::requireVariable(const char* what, std::size_t variable, bool inRow) const {
  if (variable >= m_variables)
    throw std::invalid_argument(where(inRow) + what + ": variable " + str(variable) + " does not exist (the system has " +
                                str(m_variables) + " variables, 0 to " + str(m_variables - 1) + ")");
}

void SystemBuilder::requireValues(const char* what, std::size_t variable, std::span<const double> values) const {
  const std::size_t expected = std::size_t(m_blockSize) * std::size_t(m_systems);
  if (values.size() != expected)
    throw std::invalid_argument(where(false) + what + " variable " + str(variable) + ": " + str(values.size()) +
                                " values given, expected block size x systems = " + str(expected));
  for (std::size_t k = 0; k < values.size(); ++k) {
    if (!std::isfinite(values[k]))
      throw std::invalid_argument(where(false) + what + " variable " + str(variable) + ": value " + str(k) + " is " +
                                  number(values[k]));
  }
}

void SystemBuilder::lock(std::size_t variable, std::span<const double> values) {
  requireVariable("lock", variable, false);
  requireValues("lock", variable, values);
  m_locked[variable] = 1;
  std::copy(values.begin(), values.end(), m_values.begin() + std::ptrdiff_t(variable * values.size()));
}

void SystemBuilder::lock(std::size_t variable, double value) {
  if (m_blockSize != 1 || m_systems != 1)
    throw std::invalid_argument(where(false) + "lock(variable " + str(variable) +
                                ", value): one value given, but each variable takes block size x systems = " +
                                str(std::size_t(m_blockSize) * std::size_t(m_systems)));
  const double v[1] = {value};
  lock(variable, v);
}

void SystemBuilder::unlock(std::size_t variable) {
  requireVariable("unlock", variable, false);
  m_locked[variable] = 0;
}

bool SystemBuilder::isLocked(std::size_t variable) const {
  requireVariable("isLocked", variable, false);
  return m_locked[variable] != 0;
}

void SystemBuilder::setValue(std::size_t variable, std::span<const double> values) {
  requireVariable("setValue", variable, false);
  requireValues("setValue", variable, values);
  if (m_locked[variable])
    throw std::invalid_argument(where(false) + "setValue: variable " + str(variable) +
                                " is locked (lock() sets its values; setValue() gives a free variable's initial guess)");
  std::copy(values.begin(), values.end(), m_values.begin() + std::ptrdiff_t(variable * values.size()));
}

void SystemBuilder::reserve(std::size_t rows, std::size_t coefficients) {
  reserveLarge(m_scalar, m_scalar.size() + coefficients);
  reserveLarge(m_coefficient, m_coefficient.size() + coefficients);
  reserveLarge(m_rhs, m_rhs.size() + rows * std::size_t(m_systems));
  reserveLarge(m_rowWeight, m_rowWeight.size() + rows);
  reserveLarge(m_rowStart, m_rowStart.size() + rows);
}

void SystemBuilder::beginRow() {
  if (m_inRow)
    throw std::invalid_argument(where(true) + "beginRow() while the row is still open: call endRow() first");
  m_inRow = true;
}

void SystemBuilder::coefficient(std::size_t variable, int component, double a) {
  if (!m_inRow)
    throw std::invalid_argument(where(false) + "coefficient " + number(a) + " of variable " + str(variable) +
                                " outside a row: call beginRow() first (" + str(rowCount()) + " rows so far)");
  requireVariable("coefficient", variable, true);
  if (component < 0 || component >= m_blockSize)
    throw std::invalid_argument(where(true) + "variable " + str(variable) + ": component " + std::to_string(component) +
                                " does not exist (block size " + std::to_string(m_blockSize) + ")");
  if (!std::isfinite(a))
    throw std::invalid_argument(where(true) + "coefficient of variable " + str(variable) + " component " +
                                std::to_string(component) + " is " + number(a));
  m_scalar.push_back(std::int32_t(variable * std::size_t(m_blockSize) + std::size_t(component)));
  m_coefficient.push_back(a);
}

void SystemBuilder::coefficient(std::size_t variable, double a) {
  if (m_blockSize != 1 && m_inRow)
    throw std::invalid_argument(where(true) + "coefficient(variable " + str(variable) +
                                ", a) without a component, but variables are blocks of " + std::to_string(m_blockSize) +
                                ": use coefficient(variable, component, a)");
  coefficient(variable, 0, a);
}

void SystemBuilder::endRow(std::span<const double> rhs, double weight) {
  if (!m_inRow) throw std::invalid_argument(where(false) + "endRow() without beginRow() (" + str(rowCount()) + " rows so far)");
  if (rhs.size() != std::size_t(m_systems))
    throw std::invalid_argument(where(true) + str(rhs.size()) + " right-hand sides given, the system has " +
                                std::to_string(m_systems));
  for (std::size_t k = 0; k < rhs.size(); ++k) {
    if (!std::isfinite(rhs[k]))
      throw std::invalid_argument(where(true) + "right-hand side " + (m_systems > 1 ? "of system " + str(k) + " " : "") +
                                  "is " + number(rhs[k]));
  }
  if (!(weight > 0.0) || !std::isfinite(weight))
    throw std::invalid_argument(where(true) + "weight " + number(weight) + " (must be positive and finite)");
  if (std::int64_t(m_scalar.size()) == m_rowStart.back())
    throw std::invalid_argument(where(true) + "no coefficients: a row needs at least one coefficient()");
  m_rhs.insert(m_rhs.end(), rhs.begin(), rhs.end());
  m_rowWeight.push_back(weight);
  m_rowStart.push_back(std::int64_t(m_scalar.size()));
  m_inRow = false;
}

void SystemBuilder::endRow(double rhs, double weight) {
  if (m_systems != 1 && m_inRow)
    throw std::invalid_argument(where(true) + "endRow(rhs) with one right-hand side, the system has " +
                                std::to_string(m_systems) + ": use endRow(span, weight)");
  const double r[1] = {rhs};
  endRow(r, weight);
}

LinearSystem SystemBuilder::build() const {
  const std::string prefix = "system " + quoted(m_name) + ": ";
  if (m_inRow) throw std::invalid_argument(prefix + "build() while row " + str(rowCount()) + " is open: call endRow() first");
  const std::size_t m = rowCount();
  if (m == 0) throw std::invalid_argument(prefix + "no rows (the system is empty)");
  const std::size_t B = std::size_t(m_blockSize), S = std::size_t(m_systems);

  LinearSystem sys;
  sys.m_name = m_name;
  sys.m_mode = m_mode;
  sys.m_blockSize = m_blockSize;
  sys.m_systems = m_systems;
  sys.m_variables = m_variables;
  const std::size_t scalars = m_variables * B;
  sys.m_unknownOfScalar.assign(scalars, -1);
  for (std::size_t v = 0; v < m_variables; ++v) {
    if (m_locked[v]) continue;
    for (std::size_t c = 0; c < B; ++c) {
      sys.m_unknownOfScalar[v * B + c] = std::int32_t(sys.m_scalarOfUnknown.size());
      sys.m_scalarOfUnknown.push_back(std::int32_t(v * B + c));
    }
  }
  const std::size_t n = sys.m_scalarOfUnknown.size();
  if (n == 0) throw std::invalid_argument(prefix + "every variable is locked: there is nothing to solve for");
  if (m_mode == SystemMode::Square && m != n)
    throw std::invalid_argument(prefix + "a square system needs one row per free unknown: " + str(m) + " rows, " + str(n) +
                                " free unknowns (" + str(n / B) + " free variables of " + str(B) + ")");

  sys.m_lockedValues.assign(scalars * S, 0.0);
  sys.m_initialGuess.assign(n * S, 0.0);
  for (std::size_t v = 0; v < m_variables; ++v) {
    for (std::size_t k = 0; k < S; ++k) {
      for (std::size_t c = 0; c < B; ++c) {
        const double value = m_values[v * B * S + k * B + c];
        const std::size_t s = v * B + c;
        if (m_locked[v]) sys.m_lockedValues[k * scalars + s] = value;
        else sys.m_initialGuess[k * n + std::size_t(sys.m_unknownOfScalar[s])] = value;
      }
    }
  }

  sys.m_rows.rows = sys.m_locked.rows = m;
  sys.m_rows.cols = n;
  sys.m_locked.cols = scalars;
  sys.m_rows.rowPtr.assign(m + 1, 0);
  sys.m_locked.rowPtr.assign(m + 1, 0);
  sys.m_rowScale.resize(m);
  sys.m_rowRhs.resize(m * S);
  // Row r scaled and split into its free part (unknown indices) and its locked part
  // (scalar indices), each sorted with repeats summed.
  auto splitRow = [&](std::size_t r, RowEntries& freeEntries, RowEntries& lockedEntries) {
    const double scale = sys.m_rowScale[r];
    freeEntries.clear();
    lockedEntries.clear();
    for (std::int64_t e = m_rowStart[r]; e < m_rowStart[r + 1]; ++e) {
      const std::int32_t s = m_scalar[std::size_t(e)];
      const double a = scale * m_coefficient[std::size_t(e)];
      const std::int32_t u = sys.m_unknownOfScalar[std::size_t(s)];
      if (u >= 0) freeEntries.emplace_back(u, a);
      else lockedEntries.emplace_back(s, a);
    }
    mergeRow(freeEntries);
    mergeRow(lockedEntries);
  };
  // Two passes over blocks of rows on threads (RowBlocks.h): the rows' lengths, then the
  // rows written in place. Each block notes its first row with no free entry.
  const unsigned threads = workThreads(double(m_scalar.size()));
  std::vector<std::size_t> firstAllLocked(threads, m);
  forRowBlocks(m, threads, [&](unsigned t, std::size_t first, std::size_t last) {
    RowEntries freeEntries, lockedEntries;
    for (std::size_t r = first; r < last; ++r) {
      const double w = m_rowWeight[r];
      sys.m_rowScale[r] = m_mode == SystemMode::LeastSquares ? std::sqrt(w) : w;
      for (std::size_t k = 0; k < S; ++k) sys.m_rowRhs[k * m + r] = m_rhs[r * S + k];
      splitRow(r, freeEntries, lockedEntries);
      if (freeEntries.empty() && firstAllLocked[t] == m) firstAllLocked[t] = r;
      sys.m_rows.rowPtr[r + 1] = std::int64_t(freeEntries.size());
      sys.m_locked.rowPtr[r + 1] = std::int64_t(lockedEntries.size());
    }
  });
  if (const std::size_t r = *std::min_element(firstAllLocked.begin(), firstAllLocked.end()); r < m) {
    std::string list;
    for (std::int64_t e = m_rowStart[r]; e < m_rowStart[r + 1] && list.size() < 60; ++e)
      list += (list.empty() ? "" : ", ") + str(std::size_t(m_scalar[std::size_t(e)]) / B);
    throw std::invalid_argument(prefix + "row " + str(r) + ": every coefficient is on a locked variable (" + list +
                                "): the row constrains nothing; drop it or free one of its variables");
  }
  allocateRows(sys.m_rows);
  allocateRows(sys.m_locked);
  forRowBlocks(m, threads, [&](unsigned, std::size_t first, std::size_t last) {
    RowEntries freeEntries, lockedEntries;
    for (std::size_t r = first; r < last; ++r) {
      splitRow(r, freeEntries, lockedEntries);
      writeRow(sys.m_rows, r, freeEntries);
      writeRow(sys.m_locked, r, lockedEntries);
    }
  });
  std::vector<std::uint8_t> used(m_variables, 0);
  for (const std::int32_t u : sys.m_rows.colIdx) used[std::size_t(sys.m_scalarOfUnknown[std::size_t(u)]) / B] = 1;
  for (std::size_t v = 0; v < m_variables; ++v) {
    if (!m_locked[v] && !used[v])
      throw std::invalid_argument(prefix + "variable " + str(v) +
                                  " is free but appears in no row, so nothing determines it: lock it or add a row "
                                  "that involves it");
  }
  return sys;
}

// ---- LinearSystem --------------------------------------------------------------------

void LinearSystem::requireSystem(const char* where, int system) const {
  if (system < 0 || system >= m_systems)
    throw std::invalid_argument("system " + quoted(m_name) + ": " + where + ": system " + std::to_string(system) +
                                " does not exist (" + std::to_string(m_systems) + " right-hand sides)");
}

bool LinearSystem::isLocked(std::size_t variable) const {
  if (variable >= m_variables)
    throw std::invalid_argument("system " + quoted(m_name) + ": isLocked: variable " + str(variable) + " does not exist");
  return m_unknownOfScalar[variable * std::size_t(m_blockSize)] < 0;
}

std::vector<double> LinearSystem::scaledRhs(int system) const {
  requireSystem("scaledRhs", system);
  const std::size_t m = rowCount();
  const double* locked = m_lockedValues.data() + std::size_t(system) * scalars();
  std::vector<double> b(m);
  for (std::size_t r = 0; r < m; ++r) {
    double sum = m_rowScale[r] * m_rowRhs[std::size_t(system) * m + r];
    for (std::int64_t k = m_locked.rowPtr[r]; k < m_locked.rowPtr[r + 1]; ++k)
      sum -= m_locked.values[std::size_t(k)] * locked[m_locked.colIdx[std::size_t(k)]];
    b[r] = sum;
  }
  return b;
}

Csr LinearSystem::matrix() const { return m_mode == SystemMode::LeastSquares ? normalMatrix(m_rows) : m_rows; }

std::vector<double> LinearSystem::rhs(int system) const {
  std::vector<double> b = scaledRhs(system);
  return m_mode == SystemMode::LeastSquares ? transposeMultiply(m_rows, b) : b;
}

bool LinearSystem::symmetric() const {
  if (m_mode == SystemMode::LeastSquares) return true;
  const Csr T = transpose(m_rows);
  // Compare A and A^T entry by entry (both have columns ascending after summing).
  auto rowMap = [](const Csr& A, std::size_t r) {
    std::vector<std::pair<std::int32_t, double>> e;
    for (std::int64_t k = A.rowPtr[r]; k < A.rowPtr[r + 1]; ++k)
      if (A.values[std::size_t(k)] != 0.0) e.emplace_back(A.colIdx[std::size_t(k)], A.values[std::size_t(k)]);
    std::sort(e.begin(), e.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    return e;
  };
  for (std::size_t r = 0; r < m_rows.rows; ++r) {
    const auto a = rowMap(m_rows, r), t = rowMap(T, r);
    if (a.size() != t.size()) return false;
    for (std::size_t k = 0; k < a.size(); ++k) {
      if (a[k].first != t[k].first) return false;
      const double scale = std::max(std::abs(a[k].second), std::abs(t[k].second));
      if (std::abs(a[k].second - t[k].second) > 1e-12 * scale) return false;
    }
  }
  return true;
}

std::vector<double> LinearSystem::initialGuess(int system) const {
  requireSystem("initialGuess", system);
  const std::size_t n = unknowns();
  return {m_initialGuess.begin() + std::ptrdiff_t(std::size_t(system) * n),
          m_initialGuess.begin() + std::ptrdiff_t(std::size_t(system + 1) * n)};
}

std::vector<double> LinearSystem::lockedValues(int system) const {
  requireSystem("lockedValues", system);
  return {m_lockedValues.begin() + std::ptrdiff_t(std::size_t(system) * scalars()),
          m_lockedValues.begin() + std::ptrdiff_t(std::size_t(system + 1) * scalars())};
}

std::vector<double> LinearSystem::expand(std::span<const double> unknownValues, int system) const {
  requireSystem("expand", system);
  if (unknownValues.size() != unknowns())
    throw std::invalid_argument("system " + quoted(m_name) + ": expand: " + str(unknownValues.size()) +
                                " values given, the system has " + str(unknowns()) + " unknowns");
  std::vector<double> all = lockedValues(system);
  for (std::size_t u = 0; u < unknowns(); ++u) all[std::size_t(m_scalarOfUnknown[u])] = unknownValues[u];
  return all;
}

double LinearSystem::objective(std::span<const double> scalarValues, int system) const {
  requireSystem("objective", system);
  if (scalarValues.size() != scalars())
    throw std::invalid_argument("system " + quoted(m_name) + ": objective: " + str(scalarValues.size()) +
                                " values given, the system has " + str(scalars()) + " scalars");
  const std::size_t m = rowCount();
  double sum = 0;
  for (std::size_t r = 0; r < m; ++r) {
    // The scaled row: scale_r (a_r . x - rhs_r) over free and locked scalars.
    double residual = -m_rowScale[r] * m_rowRhs[std::size_t(system) * m + r];
    for (std::int64_t k = m_rows.rowPtr[r]; k < m_rows.rowPtr[r + 1]; ++k)
      residual += m_rows.values[std::size_t(k)] *
                  scalarValues[std::size_t(m_scalarOfUnknown[std::size_t(m_rows.colIdx[std::size_t(k)])])];
    for (std::int64_t k = m_locked.rowPtr[r]; k < m_locked.rowPtr[r + 1]; ++k)
      residual += m_locked.values[std::size_t(k)] * scalarValues[std::size_t(m_locked.colIdx[std::size_t(k)])];
    sum += m_mode == SystemMode::LeastSquares ? residual * residual
                                               : residual * residual / (m_rowScale[r] * m_rowScale[r]);
  }
  return sum;
}

void LinearSystem::setLockedValues(std::size_t variable, std::span<const double> values) {
  const std::string prefix = "system " + quoted(m_name) + ": setLockedValues: variable " + str(variable) + ": ";
  if (variable >= m_variables) throw std::invalid_argument(prefix + "does not exist");
  if (!isLocked(variable)) throw std::invalid_argument(prefix + "is free (the set of locked variables is fixed once built)");
  const std::size_t B = std::size_t(m_blockSize), S = std::size_t(m_systems);
  if (values.size() != B * S)
    throw std::invalid_argument(prefix + str(values.size()) + " values given, expected block size x systems = " + str(B * S));
  for (std::size_t k = 0; k < values.size(); ++k)
    if (!std::isfinite(values[k])) throw std::invalid_argument(prefix + "value " + str(k) + " is " + number(values[k]));
  for (std::size_t k = 0; k < S; ++k)
    for (std::size_t c = 0; c < B; ++c) m_lockedValues[k * scalars() + variable * B + c] = values[k * B + c];
}

void LinearSystem::setRowRhs(std::size_t row, std::span<const double> values) {
  const std::string prefix = "system " + quoted(m_name) + ": setRowRhs: row " + str(row) + ": ";
  if (row >= rowCount()) throw std::invalid_argument(prefix + "does not exist (" + str(rowCount()) + " rows)");
  if (values.size() != std::size_t(m_systems))
    throw std::invalid_argument(prefix + str(values.size()) + " values given, expected " + std::to_string(m_systems));
  for (std::size_t k = 0; k < values.size(); ++k) {
    if (!std::isfinite(values[k])) throw std::invalid_argument(prefix + "value " + str(k) + " is " + number(values[k]));
    m_rowRhs[k * rowCount() + row] = values[k];
  }
}

void LinearSystem::setRowRhs(int system, std::span<const double> values) {
  requireSystem("setRowRhs", system);
  const std::string prefix = "system " + quoted(m_name) + ": setRowRhs(system " + std::to_string(system) + "): ";
  if (values.size() != rowCount())
    throw std::invalid_argument(prefix + str(values.size()) + " values given, the system has " + str(rowCount()) + " rows");
  for (std::size_t r = 0; r < values.size(); ++r)
    if (!std::isfinite(values[r])) throw std::invalid_argument(prefix + "row " + str(r) + " is " + number(values[r]));
  std::copy(values.begin(), values.end(), m_rowRhs.begin() + std::ptrdiff_t(std::size_t(system) * rowCount()));
}

void LinearSystem::setInitialGuess(int system, std::span<const double> values) {
  requireSystem("setInitialGuess", system);
  const std::string prefix = "system " + quoted(m_name) + ": setInitialGuess(system " + std::to_string(system) + "): ";
  if (values.size() != unknowns())
    throw std::invalid_argument(prefix + str(values.size()) + " values given, the system has " + str(unknowns()) +
                                " unknowns");
  for (std::size_t u = 0; u < values.size(); ++u)
    if (!std::isfinite(values[u])) throw std::invalid_argument(prefix + "unknown " + str(u) + " is " + number(values[u]));
  std::copy(values.begin(), values.end(), m_initialGuess.begin() + std::ptrdiff_t(std::size_t(system) * unknowns()));
}

}  // namespace texstream::linalg
