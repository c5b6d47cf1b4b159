#pragma once
// Mixed-precision CG with reliable updates: one float CG iteration whose residual is
// replaced, each time it has fallen by a set factor, by the true residual formed in the
// higher precision, with the iterate moved into the higher-precision solution at the same
// moment (Sleijpen & van der Vorst 1996, "Reliable updated residuals in hybrid Bi-CG
// methods"; van der Vorst & Ye 2000, "Residual replacement strategies for Krylov subspace
// iterative methods"; on GPUs, Clark et al. 2010, "Solving lattice QCD systems of
// equations using mixed precision solvers on GPUs").
// It is the defect correction of MixedPrecisionRefinement.h with CG as the inner solver,
// except that the search direction survives each correction: a restarted CG rebuilds its
// Krylov space at every outer step, this one keeps it, so it needs about the iterations of a
// double-precision CG instead of a restarted sequence of float solves.
// At a replacement:
//   x_hi += x_f;  x_f = 0;  r = b - A x_hi (in the higher precision, rounded to float);
//   u = M^-1 r;  the search direction p is kept; the scalars that depend on r and u are
//   recomputed (CgIteration::replaceResidual: Chronopoulos-Gear's alpha from the full
//   p^T A p, since the orthogonality its recurrence assumes is lost).
// A replacement happens when the float recurrence residual reaches
// max(innerTolerance x the last true residual, tolerance / 2), and at the iteration cap.
// A failure of the float iteration (a breakdown, a non-finite value, r^T M^-1 r = 0: float
// CG that reached its floor between two checks, on a small system say, or a float-rounded
// matrix that is no longer quite SPD) ends that iteration instead: its correction is kept
// where it helps, and CG restarts from the true residual. Two steps in a row that gain
// less than minimumReduction end the solve: Stagnated, or Breakdown / NonFinite naming the
// failure when the last step failed.
// It is cg() (ConjugateGradient.h) with the residual policy "replaced from a defect"
// (CgDriver.h), chosen by solving for a solution held in higher precision: double-float
// pairs on the GPU, or any DefectCorrection (doubles on the host, say).
// The outcome and relativeResidual are the true residual's; residualHistory holds it at each
// replacement (checkedAt: the iteration), innerIterations the iterations between them.
//
//   DoubleFloatVector b(n, "b"), x(n, "x");  b.upload(rhs);
//   JacobiPreconditioner M(A);
//   RefinementStatus s = cg(A, b, x, {.tolerance = 1e-11f, .maxIterations = 5000}, &M);
#include <texstream/solvers/krylov/ConjugateGradient.h>
#include <texstream/solvers/krylov/MixedPrecisionRefinement.h>

namespace texstream::linalg {
class DoubleFloatVector;
class LinearOperator;
}  // namespace texstream::linalg

namespace texstream::stream {
class Layout;
}

namespace texstream::solvers {
inline namespace krylov {

/// The unset fields of mixed-precision cg's options: 20000 iterations in all, a check
/// every 8, read asynchronously (its solves run hundreds of iterations, so the at most 15
/// past each decision cost less than a blocking read-back every 8: docs/performance.md),
/// except in the browser: WebGL2's fences signal only once the page yields, so there every
/// check would land a whole interval late and still block in getBufferSubData.
#ifdef __EMSCRIPTEN__
inline constexpr IterationDefaults kMixedPrecisionCgDefaults{20000, 8, false};
#else
inline constexpr IterationDefaults kMixedPrecisionCgDefaults{20000, 8, true};
#endif

/// Solves A x = b in mixed precision, x and b double-float pairs on the GPU (x: the initial
/// guess), the defect formed by LinearOperator::residualInDoubleFloat. options: tolerance
/// (the true residual's, in (0, 1)), maxIterations (in all), checkEvery, asynchronousCheck
/// (unset: on; checks read without stalling the GPU, replacements up to checkEvery
/// iterations later),
/// backend, onCheck (the float recurrence residual at each check); fixedIterations,
/// checkTrueResidual and restartOnDrift are not used. updates: innerTolerance (the
/// reduction between replacements), maxOuterSteps (replacements at most), minimumReduction
/// (two replacements in a row gaining less: Stagnated), onStep. M: nullptr, or a
/// preconditioner of b's layout. A reordered matrix (PermutedMatrix) with no M or a
/// diagonal one is solved in its internal order, the pairs gathered once each way. Throws
/// gl::Error on shapes, std::invalid_argument on bad options.
RefinementStatus cg(const linalg::LinearOperator& A, const linalg::DoubleFloatVector& b, linalg::DoubleFloatVector& x,
                    const CgOptions& options, const Preconditioner* M = nullptr, const RefinementOptions& updates = {});

/// The same on any DefectCorrection (the solution and defect wherever the caller keeps
/// them, MixedPrecisionRefinement.h), with A the float operator CG iterates with and
/// `layout` the layout of its vectors.
RefinementStatus cg(const stream::Layout& layout, const DefectCorrection& target, const linalg::LinearOperator& A,
                    const CgOptions& options, const Preconditioner* M = nullptr, const RefinementOptions& updates = {});

}  // namespace krylov
}  // namespace texstream::solvers
