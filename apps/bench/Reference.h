#pragma once
// CPU side of the benchmark: reproducible random data (never zeros) and the double-
// precision references every row is checked against.
#include <texstream/linalg/Csr.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace texstream::bench {

/// n values uniform in [lo, hi] (never exactly zero), from a fixed seed mixed with `stream`.
std::vector<float> randomFloats(std::size_t n, std::uint64_t stream, float lo = -1.0f, float hi = 1.0f);
std::vector<double> toDouble(std::span<const float> v);
/// max_i |got_i - ref_i| / max_i |ref_i|: the error relative to the reference's scale
/// (NaN when got holds a NaN, infinity when the sizes differ).
double maxRelativeError(std::span<const float> got, std::span<const double> reference);
/// |got - ref| / |ref| for one number.
double relativeError(double got, double reference);

/// k iterations of unpreconditioned CG from x = 0 in double precision (the reference of
/// every CG row, texstream's and the peers').
std::vector<double> cgReference(const linalg::Csr& A, std::span<const double> b, int iterations);
/// The same iterations in float arithmetic throughout (products and sums too), one thread:
/// how far float rounding alone moves k CG iterations on A from cgReference. On an
/// ill-conditioned A that is far more than on a Poisson grid, for every float
/// implementation alike; the CG rows' tolerance scales with it.
std::vector<float> cgInFloat(const linalg::Csr& A, std::span<const double> b, int iterations);

/// A poison value written into outputs before a correctness run: a result that the
/// operation failed to write shows up as NaN in max_rel_err.
float poison();

}  // namespace texstream::bench
