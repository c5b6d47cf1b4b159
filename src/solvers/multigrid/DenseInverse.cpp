#include <texstream/solvers/multigrid/DenseInverse.h>

#include <cmath>
#include <utility>

namespace texstream::solvers {
inline namespace multigrid {

std::optional<std::vector<double>> invertDense(std::vector<double> M, std::size_t n, double pivotFloor) {
  std::vector<double> inv(n * n, 0.0);
  for (std::size_t k = 0; k < n; ++k) inv[k * n + k] = 1.0;
  for (std::size_t c = 0; c < n; ++c) {
    std::size_t p = c;
    for (std::size_t r = c + 1; r < n; ++r)
      if (std::abs(M[r * n + c]) > std::abs(M[p * n + c])) p = r;
    if (!(std::abs(M[p * n + c]) >= pivotFloor)) return std::nullopt;
    if (p != c)
      for (std::size_t m = 0; m < n; ++m) {
        std::swap(M[p * n + m], M[c * n + m]);
        std::swap(inv[p * n + m], inv[c * n + m]);
      }
    const double d = M[c * n + c];
    for (std::size_t m = 0; m < n; ++m) {
      M[c * n + m] /= d;
      inv[c * n + m] /= d;
    }
    for (std::size_t r = 0; r < n; ++r) {
      if (r == c || M[r * n + c] == 0.0) continue;
      const double f = M[r * n + c];
      for (std::size_t m = 0; m < n; ++m) {
        M[r * n + m] -= f * M[c * n + m];
        inv[r * n + m] -= f * inv[c * n + m];
      }
    }
  }
  return inv;
}

}  // namespace multigrid
}  // namespace texstream::solvers
