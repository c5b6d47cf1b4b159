#include "Reference.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

namespace texstream::bench {

std::vector<float> randomFloats(std::size_t n, std::uint64_t stream, float lo, float hi) {
  std::mt19937_64 rng(0xbe7c5eedULL ^ (stream * 0x9E3779B97F4A7C15ULL));
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) {
    do {
      x = dist(rng);
    } while (x == 0.0f);
  }
  return v;
}

std::vector<double> toDouble(std::span<const float> v) { return {v.begin(), v.end()}; }

double maxRelativeError(std::span<const float> got, std::span<const double> reference) {
  if (got.size() != reference.size()) return std::numeric_limits<double>::infinity();
  double scale = 1e-30, err = 0;
  for (double r : reference) scale = std::max(scale, std::abs(r));
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double d = std::abs(double(got[i]) - reference[i]);
    if (std::isnan(d)) return d;  // a NaN anywhere fails the comparison
    err = std::max(err, d);
  }
  return err / scale;
}

double relativeError(double got, double reference) {
  return std::abs(got - reference) / std::max(std::abs(reference), 1e-30);
}

namespace {

/// k iterations of plain CG from x = 0 with every operation in T (the matrix's values
/// rounded to T).
template <class T>
std::vector<T> plainCg(const linalg::Csr& A, std::span<const double> b, int iterations) {
  const std::size_t n = b.size();
  const std::vector<T> values(A.values.begin(), A.values.end());
  std::vector<T> x(n, T(0)), r(b.begin(), b.end()), p = r, q(n);
  T rho = 0;
  for (T v : r) rho += v * v;
  for (int k = 0; k < iterations && rho > 0; ++k) {
    for (std::size_t i = 0; i < n; ++i) {
      T s = 0;
      for (std::int64_t e = A.rowPtr[i]; e < A.rowPtr[i + 1]; ++e)
        s += values[std::size_t(e)] * p[std::size_t(A.colIdx[std::size_t(e)])];
      q[i] = s;
    }
    T pq = 0;
    for (std::size_t i = 0; i < n; ++i) pq += p[i] * q[i];
    const T alpha = rho / pq;
    T rhoNew = 0;
    for (std::size_t i = 0; i < n; ++i) {
      x[i] += alpha * p[i];
      r[i] -= alpha * q[i];
      rhoNew += r[i] * r[i];
    }
    const T beta = rhoNew / rho;
    for (std::size_t i = 0; i < n; ++i) p[i] = r[i] + beta * p[i];
    rho = rhoNew;
  }
  return x;
}

}  // namespace

std::vector<double> cgReference(const linalg::Csr& A, std::span<const double> b, int iterations) {
  return plainCg<double>(A, b, iterations);
}

std::vector<float> cgInFloat(const linalg::Csr& A, std::span<const double> b, int iterations) {
  return plainCg<float>(A, b, iterations);
}

float poison() { return std::numeric_limits<float>::quiet_NaN(); }

}  // namespace texstream::bench
