#pragma once
// Checks shared by the iterative solvers (cg, jacobi, multigrid, ...): one wording for
// the errors a user meets when a system or an option is wrong, and the number format of
// solver messages.
#include <string>

namespace texstream::stream {
class Vector;
}
namespace texstream::linalg {
class LinearOperator;
}

namespace texstream::solvers {

/// "\"name\""
std::string quoted(const std::string& s);
/// Three significant digits: 1.23e-05, 0.5.
std::string formatNumber(double v);
/// Throws std::invalid_argument("solver: tolerance must be ...") for a negative or non-finite
/// tolerance, maxIterations < 0 or checkEvery < 1.
void requireIterationOptions(const std::string& solver, double tolerance, int maxIterations, int checkEvery);
/// Throws gl::Error("solver(\"A\"): ...") unless A is square, b and x are non-empty, b has
/// A.rows() elements, b and x share a layout and x is not b (stream/Aliasing.h).
void requireSquareSystem(const std::string& solver, const linalg::LinearOperator& A, const stream::Vector& b,
                         const stream::Vector& x);

}  // namespace texstream::solvers
