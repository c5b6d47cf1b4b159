#pragma once
// texstream::solvers::JacobiPreconditioner: M = diag(A), so z = M^-1 r = r / diag(A)
// element-wise (the "diagonal preconditioner" of Batty's Frantic Films PCG). The inverse
// diagonal is kept as a vector in the solve's layout and offered to solvers
// (Preconditioner::inverseDiagonal): cg() fuses z = r * inverse into its update pass
// instead of running apply() as a separate pass.
#include <texstream/solvers/Preconditioner.h>
#include <texstream/stream/Vector.h>

namespace texstream::linalg {
class LinearOperator;
}

namespace texstream::stream {
class Layout;
}

namespace texstream::solvers {
inline namespace stationary {

class JacobiPreconditioner : public Preconditioner {
 public:
  /// Reads diag(A) once (a blocking download at set-up). A must be square. Throws
  /// gl::Error naming A and the first row whose diagonal entry is zero or not finite.
  /// The inverse diagonal gets Layout::forSize(A.rows()).
  explicit JacobiPreconditioner(const linalg::LinearOperator& A);
  /// Same, with the inverse diagonal in `layout` (the layout of the vectors to solve with).
  JacobiPreconditioner(const linalg::LinearOperator& A, const stream::Layout& layout);

  /// From an inverse diagonal already on the GPU (a matrix rebuilt by a kernel every time
  /// step, say): no read-back, so no check for zero entries either: the caller vouches for
  /// 1 / diag(A) being finite (CG's status still reports non-finite values if not).
  static JacobiPreconditioner fromInverseDiagonal(stream::Vector inverseDiagonal);

  /// z = r .* inverseDiagonal(); r, z and the inverse diagonal share a layout.
  void apply(const stream::Vector& r, stream::Vector& z) const override;
  std::string name() const override { return "jacobi"; }
  /// 1 / diag(A), n = A.rows(), zero padding.
  const stream::Vector* inverseDiagonal() const override { return &m_inverseDiagonal; }

 private:
  JacobiPreconditioner() = default;
  stream::Vector m_inverseDiagonal;
};

}  // namespace stationary
}  // namespace texstream::solvers
