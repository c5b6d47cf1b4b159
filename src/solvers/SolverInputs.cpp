#include <texstream/solvers/SolverInputs.h>

#include <texstream/gl/Error.h>
#include <texstream/linalg/LinearOperator.h>
#include <texstream/linalg/OperatorShapes.h>
#include <texstream/stream/Aliasing.h>
#include <texstream/stream/Vector.h>

#include <cmath>
#include <stdexcept>

namespace texstream::solvers {

namespace {
// Why an iterative solver refuses x = b.
constexpr const char* kSolutionOverwritesInput =
    "the solver updates x while it still reads b, so b would change under it; solve into a separate vector";
}  // namespace

void requireIterationOptions(const std::string& solver, double tolerance, int maxIterations, int checkEvery) {
  if (!(tolerance >= 0.0) || !std::isfinite(tolerance)) {
    throw std::invalid_argument(solver + ": tolerance must be finite and >= 0, got " + formatNumber(tolerance));
  }
  if (maxIterations < 0) {
    throw std::invalid_argument(solver + ": maxIterations must be >= 0, got " + std::to_string(maxIterations));
  }
  if (checkEvery < 1) {
    throw std::invalid_argument(solver + ": checkEvery must be >= 1, got " + std::to_string(checkEvery));
  }
}

void requireSquareSystem(const std::string& solver, const linalg::LinearOperator& A, const stream::Vector& b,
                         const stream::Vector& x) {
  const std::string where = solver + "(" + quoted(A.name()) + ")";
  linalg::requireSquare(where, A);
  if (b.empty() || x.empty()) throw gl::Error(where + ": b or x is an empty vector");
  if (b.size() != A.rows()) {
    throw gl::Error(where + ": b " + quoted(b.name()) + " has n=" + std::to_string(b.size()) + ", the matrix has " +
                    std::to_string(A.rows()) + " rows");
  }
  stream::requireSameLayout(where.c_str(), b, x);
  stream::requireDistinct(where, {"x", x}, {"b", b}, kSolutionOverwritesInput);
}

}  // namespace texstream::solvers
