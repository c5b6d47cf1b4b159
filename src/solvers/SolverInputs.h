#pragma once
// Checks shared by the iterative solvers (cg, jacobi, multigrid, ...): one wording for
// the errors a user meets when a system or an option is wrong; names and numbers in
// messages as text/Format.h writes them.
#include <texstream/text/Format.h>

#include <string>

namespace texstream::stream {
class Vector;
}
namespace texstream::linalg {
class LinearOperator;
}

namespace texstream::solvers {

using text::formatNumber;
using text::quoted;
/// Throws std::invalid_argument("solver: tolerance must be ...") for a negative or non-finite
/// tolerance, maxIterations < 0 or checkEvery < 1.
void requireIterationOptions(const std::string& solver, double tolerance, int maxIterations, int checkEvery);
/// Throws gl::Error("solver(\"A\"): ...") unless A is square, b and x are non-empty, b has
/// A.rows() elements, b and x share a layout and x is not b (stream/Aliasing.h).
void requireSquareSystem(const std::string& solver, const linalg::LinearOperator& A, const stream::Vector& b,
                         const stream::Vector& x);

}  // namespace texstream::solvers
