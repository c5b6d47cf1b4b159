#include "support/Random.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace texstream::test {

std::vector<float> randomFloats(std::size_t n, std::uint64_t stream, float lo, float hi) {
  std::mt19937_64 rng(0x7e575eedULL ^ (stream * 0x9E3779B97F4A7C15ULL));
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) {
    do {
      x = dist(rng);
    } while (x == 0.0f);
  }
  return v;
}

std::vector<double> toDouble(const std::vector<float>& v) { return {v.begin(), v.end()}; }

double maxRelativeError(const std::vector<float>& got, const std::vector<double>& reference) {
  double scale = 1e-30, err = 0;
  for (double r : reference) scale = std::max(scale, std::abs(r));
  const std::size_t n = std::min(got.size(), reference.size());
  for (std::size_t i = 0; i < n; ++i) {
    const double d = std::abs(double(got[i]) - reference[i]);
    if (std::isnan(d)) return d;  // a NaN anywhere fails the comparison
    err = std::max(err, d);
  }
  if (got.size() != reference.size()) return INFINITY;
  return err / scale;
}

std::vector<std::size_t> awkwardSizes() { return {1, 2, 3, 4, 5, 7, 64, 97, 1000, 4097}; }

}  // namespace texstream::test
