#pragma once
// Test support: reproducible random data (never zeros) and double-precision comparisons.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace texstream::test {

/// n values uniform in [lo, hi], from a fixed seed mixed with `stream` so that different
/// call sites get different data.
std::vector<float> randomFloats(std::size_t n, std::uint64_t stream, float lo = -1.0f, float hi = 1.0f);
std::vector<double> toDouble(const std::vector<float>& v);
/// max_i |a_i - b_i| / max(max_i |b_i|, tiny): the error relative to the reference's scale.
double maxRelativeError(const std::vector<float>& got, const std::vector<double>& reference);
/// Awkward sizes every kernel test covers: 1, 2, 3, 4, 5, 7, 64, 97 (prime), 1000, 4097.
std::vector<std::size_t> awkwardSizes();

}  // namespace texstream::test
