#pragma once
// The inverse of a small dense matrix on the CPU in double precision (Gauss-Jordan
// elimination with partial pivoting): the coarsest-level direct solves of the multigrid
// solvers (Multigrid, AggregationMultigrid), applied on the GPU as one matrix product.
#include <cstddef>
#include <optional>
#include <vector>

namespace texstream::solvers {
inline namespace multigrid {

/// M^-1 for the row-major n x n matrix M, or nullopt when a pivot falls below
/// `pivotFloor` in magnitude (M singular, or nearly so).
std::optional<std::vector<double>> invertDense(std::vector<double> M, std::size_t n, double pivotFloor = 1e-12);

}  // namespace multigrid
}  // namespace texstream::solvers
