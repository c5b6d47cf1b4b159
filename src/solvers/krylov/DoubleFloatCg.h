#pragma once
// CG in double-float arithmetic: every vector a pair of floats (linalg::DoubleFloatVector),
// every product, dot product and update in the pair arithmetic of Dekker 1971 (about 48
// significant bits; common/double_float.glsl), the matrix entries with their tails where the
// matrix keeps them (SegmentOptions::entryTails). It is the solver for systems whose
// condition number times float's rounding reaches 1: there a float inner solve, however
// exact, yields no correction, because the float-rounded matrix is a different matrix
// (docs/performance.md, curvature flow on a real scan), while the pairs still hold it.
// Göddeke, Strzodka & Turek 2007 (§3) emulate double precision this way; it costs several
// times float CG per iteration, so mixed precision runs it only where float CG stagnates
// (CurvatureFlow, texstream-solve).
// Classic PCG (Hestenes & Stiefel 1952) with an optional fixed diagonal preconditioner
// (z = w r, w the Jacobi preconditioner's inverse diagonal: a fixed SPD operator, so the
// pairs keep every property CG relies on). alpha and beta are pair Scalars on the GPU
// (solvers/df_cg_scalar.glsl); a check reads r.r (a blocking read).
// When the recurrence residual meets the tolerance or has fallen by 1e-3 since the last
// replacement, the true residual b - A x (in the pair arithmetic) replaces it, the search
// direction kept (van der Vorst & Ye 2000) unless the two differ by more than 2x; two replacements in a row that do not halve the
// true residual end the solve as Stagnated (the pairs' precision times the condition
// number). The status reports the true residual; restarts counts the replacements.
//
//   DoubleFloatVector b(layout, "b"), x(layout, "x");  b.upload(rhs);
//   SolverStatus s = doubleFloatCg(A, b, x, {.tolerance = 1e-8f}, jacobi.inverseDiagonal());
#include <texstream/solvers/IterativeSolver.h>
#include <texstream/solvers/krylov/MixedPrecisionRefinement.h>
#include <texstream/solvers/SolverStatus.h>

#include <functional>

namespace texstream::linalg {
class DoubleFloatVector;
class LinearOperator;
}  // namespace texstream::linalg

namespace texstream::stream {
class Layout;
class Vector;
}  // namespace texstream::stream

namespace texstream::solvers {
inline namespace krylov {

/// The unset fields of doubleFloatCg's options: 20000 iterations, a check every 16.
inline constexpr IterationDefaults kDoubleFloatCgDefaults{20000, 16};

/// Solves A x = b (A square and SPD, with LinearOperator::applyInDoubleFloat), x holding
/// the initial guess; b, x and the weight in the layout of A's products. options:
/// tolerance (||r|| / ||b||, r the recurrence residual, then checked against b - A x),
/// maxIterations, checkEvery, backend, onCheck; fixedIterations and asynchronousCheck = true
/// are not supported (std::invalid_argument). weight: nullptr, or a preconditioner's inverse
/// diagonal (JacobiPreconditioner::inverseDiagonal(), geometry::VertexJacobi). Throws
/// gl::Error on shapes and operators without the pair product; failures are in the status.
/// A reordered matrix (solvers/krylov/InternalOrder.h) is solved in its internal order.
SolverStatus doubleFloatCg(const linalg::LinearOperator& A, const linalg::DoubleFloatVector& b,
                           linalg::DoubleFloatVector& x, const IterativeOptions& options = {},
                           const stream::Vector* weight = nullptr);

/// The higher-precision side of a refinement whose corrections come back as pairs: x and b
/// wherever the caller keeps them (in double on the host, say, with the defect formed there
/// against a matrix assembled in double).
struct PairDefectCorrection {
  /// ||b||, in the higher precision.
  double rightHandSideNorm = 0;
  /// Forms b - A x in the higher precision into the pairs r (the layout passed in) and
  /// returns its norm in the higher precision.
  std::function<double(linalg::DoubleFloatVector& r)> defect;
  /// x += c in the higher precision.
  std::function<void(const linalg::DoubleFloatVector& c)> addCorrection;
  /// x -= c: undoes a correction that raised the defect.
  std::function<void(const linalg::DoubleFloatVector& c)> subtractCorrection;
};

/// Defect correction with double-float CG as the inner solve: each step forms the defect
/// (target.defect), solves A c = r by doubleFloatCg to what remains of the tolerance (half
/// of it; no further than 1e-8, beyond which the pairs' rounding of such systems
/// dominates and the next defect decides) and adds c. For systems where a float inner
/// solve gains nothing (CurvatureFlow's pinching steps, texstream-solve): the outer loop's
/// defect is as exact as the caller's arithmetic, each correction as exact as the pairs.
/// options: tolerance (the true residual's, in (0, 1)), maxIterations (of all inner solves
/// together), checkEvery, backend. refinement: maxOuterSteps, minimumReduction (two steps in
/// a row gaining less: Stagnated), onStep; innerTolerance is not used. A correction that
/// raises the defect is undone and ends the refinement. The status: innerIterations per
/// step, the true residual in residualHistory.
RefinementStatus refineWithDoubleFloatCg(const stream::Layout& layout, const PairDefectCorrection& target,
                                         const linalg::LinearOperator& A, const IterativeOptions& options,
                                         const RefinementOptions& refinement = {},
                                         const stream::Vector* weight = nullptr);

}  // namespace krylov
}  // namespace texstream::solvers
