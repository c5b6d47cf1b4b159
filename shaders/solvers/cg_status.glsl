// The sticky status texel of a CG solve (included by the CG kernels; mirrored by the
// StatusCode enum in src/solvers/krylov/ConjugateGradient.cpp):
//   .x  code: CG_RUNNING, or the first failure seen;
//   .y  the iteration at which it was recorded;  .z  the offending value.
#define CG_RUNNING 0.0
#define CG_PQ_NOT_POSITIVE 1.0   // p^T A p <= 0: A is not SPD
#define CG_NON_FINITE 2.0        // rho, p^T A p or alpha is NaN or Inf
#define CG_RHO_ZERO 3.0          // rho = r^T z = 0: converged exactly, or M singular
#define CG_RHO_NEGATIVE 4.0      // rho = r^T M^-1 r < 0: M is not positive definite
#define CG_CONVERGED 5.0         // the solver's own test passed on the GPU (cgls_converged.glsl)
#define CG_STOPPED 6.0           // CG's set-up check ended the solve before its first iteration (cg_set_up_check.glsl)

// True for finite v. A comparison rather than isnan/isinf, which fast-math style
// optimisation in some drivers folds to false; NaN fails every comparison.
bool cgFinite(float v) { return abs(v) <= 3.402823466e38; }
