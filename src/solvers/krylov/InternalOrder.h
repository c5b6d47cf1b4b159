#pragma once
// A solve run in a reordered matrix's internal order (linalg/PermutedMatrix.h): when A keeps
// its rows in an order of its own (a segment matrix, an RCM-ordered BCRS matrix) and the
// preconditioner is absent or diagonal, a solver gathers its vectors into that order once
// and iterates on A.internal(): one product an iteration instead of two gathers around
// each. cg() (in float and in mixed precision) and doubleFloatCg() do.
#include <texstream/linalg/PermutedMatrix.h>
#include <texstream/solvers/stationary/JacobiPreconditioner.h>

#include <optional>
#include <string>

namespace texstream::solvers {
inline namespace krylov {

struct InternalOrder {
  const linalg::PermutedMatrix* matrix;
  /// A on internally ordered vectors.
  linalg::PermutedMatrix::Internal op;
  /// M's inverse diagonal gathered into the internal order (0 where no user row is).
  std::optional<JacobiPreconditioner> jacobi;
  const Preconditioner* preconditioner() const { return jacobi ? &*jacobi : nullptr; }
  const stream::Layout& layout() const { return matrix->internalLayout(); }
};

/// The internal order of A with M (nullptr, or one with an inverse diagonal in A's user
/// layout), or nullopt where A is not reordered or M is not diagonal (then the solve runs in
/// user order). `name` prefixes the gathered inverse diagonal's name.
std::optional<InternalOrder> internalOrderFor(const linalg::LinearOperator& A, const Preconditioner* M,
                                              const std::string& name);

}  // namespace krylov
}  // namespace texstream::solvers
