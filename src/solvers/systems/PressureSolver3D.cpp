#include <texstream/solvers/systems/PressureSolver3D.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/PressureMatrix3D.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/solvers/krylov/ConjugateGradient.h>
#include <texstream/solvers/stationary/JacobiPreconditioner.h>
#include <texstream/solvers/stationary/MulticolourMic0.h>
#include <texstream/solvers/multigrid/PressureMultigrid3D.h>
#include <texstream/solvers/SolverInputs.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Scalar.h>

#include <cmath>

namespace texstream::solvers {
inline namespace systems {

namespace {

constexpr stream::EnumName<PressurePreconditioner> kPreconditionerNames[] = {
    {PressurePreconditioner::Multigrid, "multigrid", "multigrid V-cycle (MGPCG)"},
    {PressurePreconditioner::Mic0, "mic0", "MIC(0), block multicolour"},
    {PressurePreconditioner::Jacobi, "jacobi", "Jacobi (diagonal)"},
};

/// A mean of b over a closed region smaller than this fraction of b's largest entry is
/// rounding, not a right-hand side the user should hear about.
constexpr double kNegligibleMean = 1e-6;

}  // namespace

std::span<const stream::EnumName<PressurePreconditioner>> pressurePreconditionerNames() { return kPreconditionerNames; }
const char* pressurePreconditionerName(PressurePreconditioner p) { return stream::nameOf(pressurePreconditionerNames(), p); }

PressureSolver3D::PressureSolver3D(const linalg::PressureMatrix3D& A, PressurePreconditioner preconditioner,
                                   PressureMultigrid3DOptions multigrid)
    : m_A(&A), m_kind(preconditioner), m_multigrid(multigrid) {
  build();
}

PressureSolver3D::~PressureSolver3D() = default;
PressureSolver3D::PressureSolver3D(PressureSolver3D&&) noexcept = default;
PressureSolver3D& PressureSolver3D::operator=(PressureSolver3D&&) noexcept = default;

void PressureSolver3D::build() {
  gl::StateGuard guard;
  switch (m_kind) {
    case PressurePreconditioner::Multigrid: m_M = std::make_unique<PressureMultigrid3D>(*m_A, m_multigrid); break;
    case PressurePreconditioner::Mic0: m_M = std::make_unique<MulticolourMic0>(*m_A); break;
    case PressurePreconditioner::Jacobi: {
      stream::GridField3D inverse(m_A->grid(), m_A->name() + ".inverseDiagonal");
      stream::Pass("pressure3d/inverse_diagonal")
          .label("pressure3d inverse diagonal")
          .input("u_diagonal", m_A->diagonalField())
          .output(inverse)
          .run();
      m_M = std::make_unique<JacobiPreconditioner>(JacobiPreconditioner::fromInverseDiagonal(std::move(inverse)));
      break;
    }
  }
}

void PressureSolver3D::update() {
  switch (m_kind) {
    case PressurePreconditioner::Multigrid: static_cast<PressureMultigrid3D&>(*m_M).update(); break;
    case PressurePreconditioner::Mic0: static_cast<MulticolourMic0&>(*m_M).update(); break;
    case PressurePreconditioner::Jacobi: build(); break;
  }
}

SolverStatus PressureSolver3D::solve(const stream::GridField3D& b, stream::GridField3D& x, const IterativeOptions& options) {
  const std::string where = "PressureSolver3D(" + quoted(m_A->name()) + ")";
  stream::requireGrid(where + " (b)", b, m_A->grid());
  stream::requireGrid(where + " (x)", x, m_A->grid());
  return IterativeSolver::solve(b, x, options);
}

SolverStatus PressureSolver3D::run(const stream::Vector& b, stream::Vector& x, const IterativeOptions& options) {
  requireSquareSystem("PressureSolver3D", *m_A, b, x);
  if (b.layout() != m_A->grid().layout()) {
    throw gl::Error("PressureSolver3D(" + quoted(m_A->name()) + "): b " + quoted(b.name()) + " has " +
                    b.layout().describe() + ", expected a field on the " + m_A->grid().describe() + " grid");
  }
  gl::StateGuard guard;
  stream::GridField3D rhs = stream::GridField3D::temporary(m_A->grid(), "pressure3d.b");
  stream::Pass("pressure3d/prepare")
      .label("pressure3d prepare")
      .input("u_diagonal", m_A->diagonalField())
      .input("u_b", b)
      .input("u_x", x)
      .output(rhs)
      .output(x)
      .run();

  // Closed regions: their pressure is defined up to a constant, and their right-hand side
  // must sum to zero (the compatibility condition).
  std::string projected;
  if (m_A->floatingCount() > 0) {
    stream::Scalar largest = stream::Scalar::temporary("pressure3d.max");
    linalg::maxAbs(rhs, largest);
    const double scale = largest.read();
    stream::GridField3D mask = stream::GridField3D::temporary(m_A->grid(), "pressure3d.component");
    for (int k = 1; k <= m_A->floatingCount(); ++k) {
      stream::Pass("pressure3d/component_mask")
          .label("pressure3d component")
          .input("u_floating", m_A->floatingField())
          .uniform("u_component", float(k))
          .output(mask)
          .run();
      const double cells = linalg::dot(mask, mask), sum = linalg::dot(rhs, mask);
      if (cells == 0) continue;
      const double mean = sum / cells;
      linalg::axpy(float(-mean), mask, rhs);
      if (std::abs(mean) > kNegligibleMean * scale) {
        projected += (projected.empty() ? "" : "; ") + std::string("the right-hand side's mean over closed region ") +
                     std::to_string(k) + " (" + std::to_string(long(cells)) + " cells, no face open to air) was " +
                     formatNumber(mean) + " and was projected out (a closed region needs sum b = 0)";
      }
    }
  }
  // A V-cycle or a MIC(0) application costs several products: a check every iteration
  // costs little beside it and stops the solve where it converged.
  IterativeOptions cgOptions = options;
  if (!cgOptions.checkEvery && m_kind != PressurePreconditioner::Jacobi) cgOptions.checkEvery = 1;
  SolverStatus status = cg(*m_A, rhs, x, cgOptions, m_M.get());
  if (!projected.empty()) status.message += "; " + projected;
  return status;
}

}  // namespace systems
}  // namespace texstream::solvers
