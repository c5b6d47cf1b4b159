#pragma once
// Weighted Jacobi iteration, x' = x + omega D^-1 (b - A x) with D = diag(A), as a solver
// (converges for strictly diagonally dominant A with omega = 1, and for SPD A with
// 0 < omega < 2 / lambda_max(D^-1 A)) and as the multigrid smoother of Bolz et al. 2003,
// §4.2 (omega = 2/3 damps the high-frequency half of the spectrum of a Laplacian).
// Each sweep is one A x pass (the matrix's own) and one jacobi_sweep pass.
#include <texstream/solvers/SolverStatus.h>
#include <texstream/stream/Backend.h>

#include <functional>
#include <optional>

namespace texstream::linalg {
class LinearOperator;
}

namespace texstream::stream {
class Vector;
}

namespace texstream::solvers {

struct JacobiOptions {
  /// Stop when ||b - A x|| / ||b|| <= tolerance (the true residual).
  float tolerance = 1e-6f;
  int maxIterations = 1000;
  /// Sweeps between residual checks; a check is one extra pass, a reduction and a
  /// blocking read-back (the same trade-off as CgOptions::checkEvery).
  int checkEvery = 8;
  /// Damping weight, 0 < omega (1 = plain Jacobi).
  float omega = 1.0f;
  std::optional<stream::Backend> backend;
  /// Called at each check (iteration 0 included) with the relative residual.
  std::function<void(int iteration, double relativeResidual)> onCheck;
};

/// Solves A x = b by weighted Jacobi; x holds the initial guess. b and x have A.rows() ==
/// A.cols() elements in one layout. Throws gl::Error on size mismatches, when x is b (a
/// sweep reads b after updating x), or on a zero (or non-finite) diagonal entry, naming
/// its row; std::invalid_argument on bad options.
/// Divergence shows as MaxIterations or NonFinite in the status. b = 0 gives x = 0.
SolverStatus jacobi(const linalg::LinearOperator& A, const stream::Vector& b, stream::Vector& x,
                    const JacobiOptions& opts = {});

/// `sweeps` weighted Jacobi sweeps on x in place (the multigrid smoother): no checks, no
/// read-back. diag = diag(A) (e.g. from A.diagonal()), non-zero; b, x and diag share one
/// layout of A.rows() elements, x distinct from b and diag. Throws gl::Error on size or
/// layout mismatches and on aliasing.
void jacobiSmooth(const linalg::LinearOperator& A, const stream::Vector& diag, const stream::Vector& b,
                  stream::Vector& x, int sweeps, float omega = 1.0f);

}  // namespace texstream::solvers
