#include <texstream/linalg/Csr.h>

#include <texstream/linalg/OperatorShapes.h>
#include <texstream/linalg/RowBlocks.h>
#include <texstream/stream/Layout.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace texstream::linalg {

namespace {
template <class T>
std::string str(T v) {
  return std::to_string(v);
}
}  // namespace

void Csr::validate(const std::string& what) const {
  const std::string prefix = what + ": CSR " + str(rows) + "x" + str(cols) + ": ";
  if (rowPtr.size() != rows + 1) {
    throw std::invalid_argument(prefix + "rowPtr has " + str(rowPtr.size()) +
                                " entries, expected rows + 1 = " + str(rows + 1));
  }
  if (colIdx.size() != values.size()) {
    throw std::invalid_argument(prefix + "colIdx has " + str(colIdx.size()) + " entries but values has " +
                                str(values.size()));
  }
  if (rowPtr[0] != 0) throw std::invalid_argument(prefix + "rowPtr[0] = " + str(rowPtr[0]) + ", expected 0");
  for (std::size_t r = 0; r < rows; ++r) {
    if (rowPtr[r + 1] < rowPtr[r]) {
      throw std::invalid_argument(prefix + "rowPtr not monotone: rowPtr[" + str(r + 1) + "] = " +
                                  str(rowPtr[r + 1]) + " < rowPtr[" + str(r) + "] = " + str(rowPtr[r]));
    }
  }
  if (std::size_t(rowPtr[rows]) != values.size()) {
    throw std::invalid_argument(prefix + "rowPtr[rows] = " + str(rowPtr[rows]) + " but there are " +
                                str(values.size()) + " values");
  }
  // Row r's first problem ("" when it has none); the rows are searched on threads for large
  // matrices (RowBlocks.h), the lowest bad one reported, as a row-by-row scan would.
  auto badEntry = [&](std::size_t r) -> std::string {
    for (std::int64_t k = rowPtr[r]; k < rowPtr[r + 1]; ++k) {
      const std::int32_t c = colIdx[std::size_t(k)];
      if (c < 0 || std::size_t(c) >= cols)
        return prefix + "column " + str(c) + " out of range [0, " + str(cols) + ") in row " + str(r);
      if (!std::isfinite(values[std::size_t(k)]))
        return prefix + "non-finite value at (" + str(r) + ", " + str(c) + ")";
    }
    return {};
  };
  const std::size_t firstBad = firstRowWhere(rowPtr, workThreads(double(values.size())),
                                             [&](std::size_t r) { return !badEntry(r).empty(); });
  if (firstBad < rows) throw std::invalid_argument(badEntry(firstBad));
}

std::vector<double> Csr::diagonal() const {
  std::vector<double> d(std::min(rows, cols), 0.0);
  if (d.empty()) return d;
  // Rows on threads for large matrices (RowBlocks.h): the multigrid set-up reads the
  // diagonals of matrices of millions of entries.
  const std::span<const std::int64_t> prefix(rowPtr.data(), d.size() + 1);
  forWeightedRowBlocks(prefix, workThreads(double(prefix.back())), [&](unsigned, std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i)
      for (std::int64_t k = rowPtr[i]; k < rowPtr[i + 1]; ++k)
        if (std::size_t(colIdx[std::size_t(k)]) == i) d[i] += values[std::size_t(k)];
  });
  return d;
}

void Csr::requireSquare(const std::string& what) const {
  if (rows != cols) throw std::invalid_argument(notSquareMessage(what, rows, cols));
}

std::vector<double> Csr::multiply(const std::vector<double>& x) const {
  if (x.size() != cols) {
    throw std::invalid_argument("Csr::multiply: x has n=" + str(x.size()) + ", expected " +
                                str(cols));
  }
  validate("Csr::multiply");
  std::vector<double> y(rows, 0.0);
  for (std::size_t r = 0; r < rows; ++r) {
    double s = 0;
    for (std::int64_t k = rowPtr[r]; k < rowPtr[r + 1]; ++k) s += values[std::size_t(k)] * x[std::size_t(colIdx[std::size_t(k)])];
    y[r] = s;
  }
  return y;
}

Csr Csr::fromTriplets(std::size_t rows, std::size_t cols, const std::vector<std::int64_t>& r,
                      const std::vector<std::int64_t>& c, const std::vector<double>& v) {
  if (r.size() != c.size() || r.size() != v.size()) {
    throw std::invalid_argument("Csr::fromTriplets: " + str(r.size()) + " rows, " + str(c.size()) +
                                " columns and " + str(v.size()) + " values (must be equal)");
  }
  if (cols > std::size_t(INT32_MAX)) {
    throw std::invalid_argument("Csr::fromTriplets: " + str(cols) + " columns do not fit 32-bit indices");
  }
  for (std::size_t k = 0; k < r.size(); ++k) {
    if (r[k] < 0 || std::size_t(r[k]) >= rows || c[k] < 0 || std::size_t(c[k]) >= cols) {
      throw std::invalid_argument("Csr::fromTriplets: triplet " + str(k) + " at (" + str(r[k]) + ", " +
                                  str(c[k]) + ") outside the " + str(rows) + "x" + str(cols) +
                                  " matrix");
    }
  }
  std::vector<std::size_t> order(r.size());
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return r[a] != r[b] ? r[a] < r[b] : c[a] < c[b];
  });
  Csr m;
  m.rows = rows;
  m.cols = cols;
  m.rowPtr.assign(rows + 1, 0);
  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::size_t i = order[k];
    if (k > 0 && r[order[k - 1]] == r[i] && c[order[k - 1]] == c[i]) {
      m.values.back() += v[i];  // duplicate: summed
      continue;
    }
    m.colIdx.push_back(std::int32_t(c[i]));
    m.values.push_back(v[i]);
    ++m.rowPtr[std::size_t(r[i]) + 1];
  }
  for (std::size_t i = 0; i < rows; ++i) m.rowPtr[i + 1] += m.rowPtr[i];
  return m;
}

namespace {
// -Δ with h = 1 on an nx x ny x nz grid in x-fastest order; neighbours outside are Dirichlet
// (dropped), so every row keeps the full diagonal 2 * dims and the matrix is SPD.
Csr laplacian(std::size_t nx, std::size_t ny, std::size_t nz, int dims, const char* what) {
  if (nx == 0 || ny == 0 || nz == 0) {
    throw std::invalid_argument(std::string(what) + ": empty grid " + str(nx) + "x" + str(ny) +
                                (dims == 3 ? "x" + str(nz) : std::string()));
  }
  const std::size_t n = stream::checkedProduct(what, stream::checkedProduct(what, nx, ny), nz);
  const std::size_t nonZeros = stream::checkedProduct(what, n, std::size_t(2 * dims + 1));
  Csr m;
  m.rows = m.cols = n;
  m.rowPtr.reserve(n + 1);
  m.rowPtr.push_back(0);
  m.colIdx.reserve(nonZeros);
  m.values.reserve(n * std::size_t(2 * dims + 1));
  for (std::size_t z = 0; z < nz; ++z) {
    for (std::size_t y = 0; y < ny; ++y) {
      for (std::size_t x = 0; x < nx; ++x) {
        const std::size_t i = x + nx * (y + ny * z);
        auto add = [&](std::size_t j, double v) {
          m.colIdx.push_back(std::int32_t(j));
          m.values.push_back(v);
        };
        // Columns in increasing order.
        if (dims == 3 && z > 0) add(i - nx * ny, -1.0);
        if (y > 0) add(i - nx, -1.0);
        if (x > 0) add(i - 1, -1.0);
        add(i, 2.0 * dims);
        if (x + 1 < nx) add(i + 1, -1.0);
        if (y + 1 < ny) add(i + nx, -1.0);
        if (dims == 3 && z + 1 < nz) add(i + nx * ny, -1.0);
        m.rowPtr.push_back(std::int64_t(m.values.size()));
      }
    }
  }
  return m;
}
}  // namespace

Csr Csr::poisson2D(std::size_t nx, std::size_t ny) { return laplacian(nx, ny, 1, 2, "Csr::poisson2D"); }

Csr Csr::poisson3D(std::size_t nx, std::size_t ny, std::size_t nz) {
  return laplacian(nx, ny, nz, 3, "Csr::poisson3D");
}

}  // namespace texstream::linalg
