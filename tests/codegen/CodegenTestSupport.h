#pragma once
// Test support for tests/codegen: random sparse expressions with values away from zero,
// and permutations that realise the optimal packings of the paper's examples.
#include <texstream/codegen/LinearExpression.h>

#include <cstdint>
#include <vector>

namespace texstream::test {

/// An m x m expression with about `density` of its entries non-zero (values in ±[0.5, 1.5]),
/// b non-zero with probability bDensity; reproducible from `seed`.
codegen::LinearExpression randomExpression(int m, double density, double bDensity, std::uint64_t seed);
/// n random doubles in [-1, 1], never zero.
std::vector<double> randomVector(std::size_t n, std::uint64_t seed);
/// max_i |a_i - b_i| / max(max_i |b_i|, 1e-300).
double relativeError(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace texstream::test
