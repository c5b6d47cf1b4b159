#pragma once
// CPU double-precision references for the solver tests: a textbook CG on a Csr matrix
// (Shewchuk 1994, B2) and a few SPD test matrices built as Csr.
#include <texstream/linalg/Csr.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

namespace texstream::test {

inline double dotD(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

/// x = A^-1 b by CG in double, to ||r|| <= 1e-13 ||b|| (A SPD); throws if it does not get there.
inline std::vector<double> solveReference(const linalg::Csr& A, const std::vector<double>& b) {
  std::vector<double> x(b.size(), 0.0), r = b, p = b;
  double rho = dotD(r, r);
  const double stop = 1e-26 * dotD(b, b);
  for (std::size_t k = 0; k < 20 * b.size() + 100 && rho > stop; ++k) {
    const std::vector<double> q = A.multiply(p);
    const double alpha = rho / dotD(p, q);
    for (std::size_t i = 0; i < x.size(); ++i) {
      x[i] += alpha * p[i];
      r[i] -= alpha * q[i];
    }
    const double rhoNew = dotD(r, r);
    for (std::size_t i = 0; i < p.size(); ++i) p[i] = r[i] + rhoNew / rho * p[i];
    rho = rhoNew;
  }
  if (!(rho <= stop)) throw std::runtime_error("solveReference: the double CG did not converge");
  return x;
}

/// ||b - A x|| / ||b|| in double, x from the GPU.
inline double trueRelativeResidual(const linalg::Csr& A, const std::vector<float>& x, const std::vector<double>& b) {
  const std::vector<double> ax = A.multiply(std::vector<double>(x.begin(), x.end()));
  double rr = 0, bb = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    rr += (b[i] - ax[i]) * (b[i] - ax[i]);
    bb += b[i] * b[i];
  }
  return std::sqrt(rr / bb);
}

/// S A S with S = diag(s): symmetric and SPD when A is.
inline linalg::Csr scaledSymmetric(const linalg::Csr& A, const std::vector<double>& s) {
  linalg::Csr B = A;
  for (std::size_t row = 0; row < A.rows; ++row) {
    for (auto k = A.rowPtr[row]; k < A.rowPtr[row + 1]; ++k) B.values[k] *= s[row] * s[A.colIdx[k]];
  }
  return B;
}

/// c A.
inline linalg::Csr scaled(const linalg::Csr& A, double c) {
  linalg::Csr B = A;
  for (double& v : B.values) v *= c;
  return B;
}

/// Dense row-major n x n SPD matrix B^T B / n + I with B uniform in [-1, 1].
inline std::vector<double> randomSpdDense(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> B(n * n), A(n * n, 0.0);
  for (double& v : B) v = u(rng);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      double s = 0;
      for (std::size_t k = 0; k < n; ++k) s += B[k * n + i] * B[k * n + j];
      A[i * n + j] = s / double(n) + (i == j ? 1.0 : 0.0);
    }
  }
  return A;
}

inline linalg::Csr denseToCsr(const std::vector<double>& A, std::size_t n) {
  std::vector<std::int64_t> r, c;
  std::vector<double> v;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      r.push_back(std::int64_t(i));
      c.push_back(std::int64_t(j));
      v.push_back(A[i * n + j]);
    }
  }
  return linalg::Csr::fromTriplets(n, n, r, c, v);
}

}  // namespace texstream::test
