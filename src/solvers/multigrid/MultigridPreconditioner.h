#pragma once
// texstream::solvers::MultigridPreconditioner: z = M^-1 r by multigrid cycles from z = 0
// (MGPCG: Bolz's layered multigrid of §4.2 as the preconditioner of the CG of §3.1).
// CG needs a symmetric positive definite M: a V- or W-cycle is symmetric when pre- and
// post-smoothing match (eta1 = eta2, weighted Jacobi) and the coarsest solve is symmetric
// (the direct solve, or Jacobi sweeps from zero), so the constructor requires
// eta1 = eta2 >= 1.
//
//   Multigrid mg(A, {.preSmoothing = 1, .postSmoothing = 1});
//   MultigridPreconditioner M(mg);
//   SolverStatus s = cg(mg.op(), b, x, {.tolerance = 1e-6f}, &M);  // same operator as M
#include <texstream/solvers/Preconditioner.h>

namespace texstream::solvers {
inline namespace multigrid {

class Multigrid;

class MultigridPreconditioner : public Preconditioner {
 public:
  /// `mg` must outlive this preconditioner; `cycles` >= 1 cycles per application. Throws
  /// std::invalid_argument for an unsymmetric cycle (eta1 != eta2 or eta1 = 0).
  explicit MultigridPreconditioner(Multigrid& mg, int cycles = 1);

  /// z = M^-1 r for plain vectors of the grid's nx ny elements.
  void apply(const stream::Vector& r, stream::Vector& z) const override;
  /// "multigrid V(1,1)"
  std::string name() const override;

 private:
  Multigrid* m_mg;
  int m_cycles;
};

}  // namespace multigrid
}  // namespace texstream::solvers
