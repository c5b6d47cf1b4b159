#pragma once
// texstream::solvers::cgls: least squares min ||A x - b||_2 by CGLS (Hestenes & Stiefel
// 1952; Björck, "Numerical Methods for Least Squares Problems", 1996, §7.4.1): conjugate
// gradients on the normal equations A^T A x = A^T b without forming A^T A. Each iteration
// applies A once and A^T once; A^T is its own operator (a SegmentMatrix::transposed(), as
// Bolz et al. 2003 §3.1.1 store transposes), and every scalar stays on the GPU as in cg().
//
//   r = b - A x;  s = A^T r;  z = M^-1 s;  p = z;  gamma = s.z
//   repeat:  q = A p;  alpha = gamma / q.q;  x += alpha p;  r -= alpha q;
//            s = A^T r;  z = M^-1 s;  gamma' = s.z;  beta = gamma' / gamma;  p = z + beta p
//
// It stops when ||A^T (b - A x)|| / ||A^T b|| <= tolerance, the relative residual of the
// normal equations, so a tolerance means the same as for cg() on A^T A. The test runs on
// the GPU every iteration (solvers/cgls_converged.glsl) and freezes x at the first iterate
// that meets it: past convergence CGLS's float recurrences only add noise (A^T r is then
// a difference of nearly equal terms) and can diverge before the CPU's next check. A
// convergence is confirmed against the true A^T (b - A x), restarting once from it if the
// recurrence drifted beyond twice the tolerance. M (optional) is a
// preconditioner of A^T A, e.g. the inverse squared column norms (a JacobiPreconditioner
// made with fromInverseDiagonal): CGLS with it is Jacobi-PCG on the normal equations.
// Breakdown (A p = 0: A is rank deficient), NaN/Inf and the iteration cap are reported in
// the status, never thrown.
#include <texstream/solvers/IterativeSolver.h>
#include <texstream/solvers/Preconditioner.h>
#include <texstream/solvers/SolverStatus.h>

namespace texstream::linalg {
class LinearOperator;
}
namespace texstream::stream {
class Vector;
}

namespace texstream::solvers {
inline namespace krylov {

/// cgls's options (IterativeSolver.h): tolerance on ||A^T r|| / ||A^T b|| (r = b - A x, the
/// recurrence's); each check is a blocking read-back.
using CglsOptions = IterativeOptions;
inline constexpr IterationDefaults kCglsDefaults{1000, 8};

/// A: m x n, At: n x m (A's transpose), b: m elements, x: n elements holding the initial
/// guess and receiving the least-squares solution; M: nullptr or a preconditioner on
/// x's layout. Throws gl::Error when shapes disagree (naming the operators and vectors)
/// or x is b, std::invalid_argument on bad options. A^T b = 0 gives x = 0, converged.
SolverStatus cgls(const linalg::LinearOperator& A, const linalg::LinearOperator& At, const stream::Vector& b,
                  stream::Vector& x, const CglsOptions& opts = {}, const Preconditioner* M = nullptr);

}  // namespace krylov
}  // namespace texstream::solvers
