#pragma once
// texstream::solvers::PressureSolver3D: the pressure projection's linear solve on a 3D fluid
// domain, preconditioned CG on a linalg::PressureMatrix3D with one of three preconditioners
// under the one CG driver (ConjugateGradient.h):
//  - multigrid: a V-cycle (PressureMultigrid3D, MGPCG of McAdams et al. 2010), the default:
//    about ten times less residual every iteration or two, whatever the grid size;
//  - mic0: modified incomplete Cholesky in a block-multicolour order (MulticolourMic0);
//  - jacobi: the diagonal (Frantic Films' preconditioner, Batty et al. 2003).
// It is an IterativeSolver: solve(b, x, options) with the shared IterativeOptions, the same
// status as every solver; unset, the check interval is 1 with multigrid and MIC(0) (an
// iteration costs several products there) and cg's default with Jacobi. b and x are packed fields on A.grid(); values of b on cells
// without an equation are ignored (A's rows are empty there) and x is 0 there afterwards.
// Where the fluid has floating components (closed regions, PressureMatrix3D), b must sum to
// zero over each: the solver projects each component's mean out of (a copy of) b first, and
// when a mean was not already negligible the status message says so with its value.
//
//   PressureMatrix3D A(domain, "p");
//   PressureSolver3D solver(A);                         // multigrid
//   SolverStatus s = solver.solve(b, x, {.tolerance = 1e-6f});
#include <texstream/solvers/IterativeSolver.h>
#include <texstream/solvers/Preconditioner.h>
#include <texstream/solvers/multigrid/PressureMultigrid3D.h>
#include <texstream/stream/EnumNames.h>

#include <memory>
#include <span>
#include <string_view>

namespace texstream::linalg {
class PressureMatrix3D;
}
namespace texstream::stream {
class GridField3D;
}

namespace texstream::solvers {
inline namespace systems {

enum class PressurePreconditioner { Multigrid, Mic0, Jacobi };
/// "multigrid" | "mic0" | "jacobi"
std::span<const stream::EnumName<PressurePreconditioner>> pressurePreconditionerNames();
const char* pressurePreconditionerName(PressurePreconditioner p);

class PressureSolver3D : public IterativeSolver {
 public:
  /// Builds the preconditioner from A's coefficients (the multigrid one with `multigrid`);
  /// A must outlive the solver. After A.update(), call update().
  explicit PressureSolver3D(const linalg::PressureMatrix3D& A,
                            PressurePreconditioner preconditioner = PressurePreconditioner::Multigrid,
                            PressureMultigrid3DOptions multigrid = {});
  ~PressureSolver3D() override;
  PressureSolver3D(PressureSolver3D&&) noexcept;
  PressureSolver3D& operator=(PressureSolver3D&&) noexcept;

  using IterativeSolver::solve;
  /// solve() for fields, which also say their grid: fields on another grid of the same
  /// layout are refused by name.
  SolverStatus solve(const stream::GridField3D& b, stream::GridField3D& x, const IterativeOptions& options = {});
  /// Rebuilds the preconditioner from A (after PressureMatrix3D::update).
  void update();
  const Preconditioner& preconditioner() const { return *m_M; }
  PressurePreconditioner kind() const { return m_kind; }

 protected:
  SolverStatus run(const stream::Vector& b, stream::Vector& x, const IterativeOptions& options) override;

 private:
  void build();
  const linalg::PressureMatrix3D* m_A;
  PressurePreconditioner m_kind;
  PressureMultigrid3DOptions m_multigrid;
  std::unique_ptr<Preconditioner> m_M;
};

}  // namespace systems
}  // namespace texstream::solvers
