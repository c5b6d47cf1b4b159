#pragma once
// Weighted Jacobi iteration, x' = x + omega D^-1 (b - A x) with D = diag(A), as a solver
// (converges for strictly diagonally dominant A with omega = 1, and for SPD A with
// 0 < omega < 2 / lambda_max(D^-1 A)) and as the multigrid smoother of Bolz et al. 2003,
// §4.2 (omega = 2/3 damps the high-frequency half of the spectrum of a Laplacian).
// Each sweep is one A x pass (the matrix's own) and one jacobi_sweep pass; a check reuses
// the sweep's A x for the true residual b - A x.
//
//   SolverStatus s = jacobi(A, b, x, {.tolerance = 1e-5f}, 0.8f);   // omega = 0.8
//   WeightedJacobi solver(A, b.layout(), 0.8f);                     // D^-1 read once
//   s = solver.solve(b, x, {.tolerance = 1e-5f});
#include <texstream/solvers/IterativeSolver.h>
#include <texstream/solvers/stationary/JacobiPreconditioner.h>
#include <texstream/solvers/SolverStatus.h>

namespace texstream::linalg {
class LinearOperator;
}

namespace texstream::stream {
class Layout;
class Vector;
}

namespace texstream::solvers {
inline namespace stationary {

/// The unset fields of the Jacobi options: 1000 sweeps, a check every 8 (a check is a
/// combination pass, a reduction and a blocking read-back).
inline constexpr IterationDefaults kJacobiDefaults{1000, 8};

/// Weighted Jacobi on A (which must outlive it) as an IterativeSolver: tolerance on the
/// true residual ||b - A x|| / ||b||; b and x have A.rows() == A.cols() elements in the
/// layout given here. Fixed mode reads nothing back unless a check is due.
class WeightedJacobi : public IterativeSolver {
 public:
  /// Reads diag(A) once (JacobiPreconditioner: gl::Error naming the first row whose
  /// diagonal entry is zero or not finite), in `layout` (default Layout::forSize(A.rows())).
  /// Throws std::invalid_argument unless omega is finite and > 0 (1: plain Jacobi).
  explicit WeightedJacobi(const linalg::LinearOperator& A, float omega = 1.0f);
  WeightedJacobi(const linalg::LinearOperator& A, const stream::Layout& layout, float omega = 1.0f);

 protected:
  SolverStatus run(const stream::Vector& b, stream::Vector& x, const IterativeOptions& options) override;

 private:
  const linalg::LinearOperator* m_A;
  JacobiPreconditioner m_inverse;
  float m_omega;
};

/// Solves A x = b by weighted Jacobi; x holds the initial guess (WeightedJacobi in b's
/// layout). Throws gl::Error on size mismatches, when x is b (a sweep reads b after
/// updating x), or on a zero (or non-finite) diagonal entry, naming its row;
/// std::invalid_argument on bad options or omega. Divergence shows as MaxIterations or
/// NonFinite in the status. b = 0 gives x = 0.
SolverStatus jacobi(const linalg::LinearOperator& A, const stream::Vector& b, stream::Vector& x,
                    const IterativeOptions& options = {}, float omega = 1.0f);

/// `sweeps` weighted Jacobi sweeps on x in place (the multigrid smoother): no checks, no
/// read-back. diag = diag(A) (e.g. from A.diagonal()), non-zero; b, x and diag share one
/// layout of A.rows() elements, x distinct from b and diag. Throws gl::Error on size or
/// layout mismatches and on aliasing.
void jacobiSmooth(const linalg::LinearOperator& A, const stream::Vector& diag, const stream::Vector& b,
                  stream::Vector& x, int sweeps, float omega = 1.0f);

}  // namespace stationary
}  // namespace texstream::solvers
