#pragma once
// Helpers shared by tests/linalg/*.cpp: random sparse matrices, double references and the
// zero-padding check.
#include "support/Random.h"

#include <texstream/linalg/Csr.h>
#include <texstream/stream/Reduction.h>
#include <texstream/stream/Scalar.h>
#include <texstream/stream/Vector.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace texstream::test {

/// A rows x cols CSR matrix with about `perRow` random non-zeros per row (values in
/// [-1, 1], never 0), some rows empty when perRow < 1, duplicates summed.
inline linalg::Csr randomCsr(std::size_t rows, std::size_t cols, double perRow, std::uint64_t seed) {
  std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ULL + 17);
  std::uniform_int_distribution<std::size_t> col(0, cols - 1);
  std::poisson_distribution<int> count(perRow);
  std::vector<std::int64_t> r, c;
  for (std::size_t i = 0; i < rows; ++i) {
    const int k = count(rng);
    for (int j = 0; j < k; ++j) {
      r.push_back(std::int64_t(i));
      c.push_back(std::int64_t(col(rng)));
    }
  }
  const auto values = randomFloats(r.size() + 1, seed + 99);
  return linalg::Csr::fromTriplets(rows, cols, r, c, toDouble({values.begin(), values.begin() + std::ptrdiff_t(r.size())}));
}

/// Every texel past element n is zero (read directly) AND the sum reduction over the
/// whole texture equals the CPU sum of the n elements (padding is the reduction's identity).
inline bool paddingIsZero(const stream::Vector& v) {
  std::vector<float> texels(v.layout().paddedSize());
  v.texture().download(texels.data());
  double cpuSum = 0, scale = 0;
  for (std::size_t i = 0; i < texels.size(); ++i) {
    if (i >= v.size() && texels[i] != 0.0f) return false;
    if (i < v.size()) {
      cpuSum += texels[i];
      scale += std::abs(texels[i]);
    }
  }
  stream::Scalar s("paddingIsZero.sum");
  stream::sum(v, s);
  const double gpu = s.read();
  return std::isfinite(gpu) && std::abs(gpu - cpuSum) <= 1e-5 * scale + 1e-30;
}

/// y = A x in double precision for a row-major dense A.
inline std::vector<double> denseMultiply(std::size_t rows, std::size_t cols, const std::vector<float>& a,
                                         const std::vector<float>& x) {
  std::vector<double> y(rows, 0.0);
  for (std::size_t i = 0; i < rows; ++i) {
    for (std::size_t j = 0; j < cols; ++j) y[i] += double(a[i * cols + j]) * x[j];
  }
  return y;
}

/// The largest |a_ij x_j| sum per row, the scale float rounding errors of y = A x follow.
inline double productScale(const linalg::Csr& a, const std::vector<double>& x) {
  double scale = 1e-30;
  for (std::size_t r = 0; r < a.rows; ++r) {
    double s = 0;
    for (std::int64_t k = a.rowPtr[r]; k < a.rowPtr[r + 1]; ++k) {
      s += std::abs(a.values[std::size_t(k)] * x[std::size_t(a.colIdx[std::size_t(k)])]);
    }
    scale = std::max(scale, s);
  }
  return scale;
}

/// max_i |got_i - ref_i| / scale.
inline double maxErrorOver(const std::vector<float>& got, const std::vector<double>& ref, double scale) {
  if (got.size() != ref.size()) return INFINITY;
  double err = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double d = std::abs(double(got[i]) - ref[i]);
    if (!(d <= err)) err = d;
  }
  return err / scale;
}

}  // namespace texstream::test
