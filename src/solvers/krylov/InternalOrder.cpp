#include <texstream/solvers/krylov/InternalOrder.h>

#include <utility>

namespace texstream::solvers {
inline namespace krylov {

std::optional<InternalOrder> internalOrderFor(const linalg::LinearOperator& A, const Preconditioner* M,
                                              const std::string& name) {
  const auto* permuted = dynamic_cast<const linalg::PermutedMatrix*>(&A);
  if (!permuted || !permuted->reordered()) return std::nullopt;
  if (M && M->isIdentity()) M = nullptr;
  if (M && !M->inverseDiagonal()) return std::nullopt;  // a general M works on user-order vectors
  InternalOrder order{permuted, permuted->internal(), std::nullopt};
  if (M) {
    stream::Vector inverse = stream::Vector::temporary(permuted->internalLayout(), name + ".inverseDiagonal(internal)");
    permuted->toInternal(*M->inverseDiagonal(), inverse);
    order.jacobi = JacobiPreconditioner::fromInverseDiagonal(std::move(inverse));
  }
  return order;
}

}  // namespace krylov
}  // namespace texstream::solvers
