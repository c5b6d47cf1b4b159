#include "CodegenTestSupport.h"

#include <algorithm>
#include <cmath>

namespace texstream::test {

namespace {

std::uint64_t mix(std::uint64_t& s) {
  s += 0x9E3779B97F4A7C15ull;
  std::uint64_t z = s;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
double unit(std::uint64_t& s) { return double(mix(s) >> 11) * 0x1.0p-53; }

}  // namespace

codegen::LinearExpression randomExpression(int m, double density, double bDensity, std::uint64_t seed) {
  std::uint64_t s = seed * 7919 + 17;
  std::vector<codegen::Entry> entries;
  std::vector<double> b(static_cast<std::size_t>(m), 0.0);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < m; ++j) {
      if (unit(s) < density) entries.push_back({i, j, (unit(s) < 0.5 ? -1.0 : 1.0) * (0.5 + unit(s))});
    }
    if (unit(s) < bDensity) b[std::size_t(i)] = (unit(s) < 0.5 ? -1.0 : 1.0) * (0.5 + unit(s));
  }
  return codegen::LinearExpression(m, std::move(entries), std::move(b));
}

std::vector<double> randomVector(std::size_t n, std::uint64_t seed) {
  std::uint64_t s = seed * 104729 + 3;
  std::vector<double> v(n);
  for (double& x : v) x = (unit(s) < 0.5 ? -1.0 : 1.0) * (0.05 + 0.95 * unit(s));
  return v;
}

double relativeError(const std::vector<double>& a, const std::vector<double>& b) {
  double err = 0.0, scale = 1e-300;
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    err = std::max(err, std::abs(a[i] - b[i]));
    scale = std::max(scale, std::abs(b[i]));
  }
  return a.size() == b.size() ? err / scale : INFINITY;
}

}  // namespace texstream::test
