#pragma once
// texstream::codegen::GaussSeidelSystem: one Gauss–Seidel sweep for A x = b as the two
// linear expressions of Bajaj et al. 2004, §3.3:
//   x^(l) = A1 x^(l) + A2 x^(l-1) + b2,  A1 = -D^-1 L,  A2 = -D^-1 U,  b2 = D^-1 b,
// stored as the iteration expression M = A1 + A2 (= -D^-1 (L + U)) with b2.
//
// E1 (y = A1 x^(l)) is the strictly lower triangle of M, E2 (y = A2 x^(l-1) + b2) the rest
// (M's diagonal, zero when built from a system, belongs to E2: it multiplies the old value).
// A permutation reorders the unknowns and therefore the sweep: the permuted system is
// the Gauss–Seidel iteration of P A P^T x' = P b, whose E1 and E2 are the strictly lower
// and upper triangles of P M P^T. That keeps every block row's E1 dependencies on earlier
// block rows (J < I) or inside the diagonal block, which the forced row-major diagonal
// evaluates element by element, so the generated code is a valid sweep in the new order.
#include <texstream/codegen/LinearExpression.h>

namespace texstream::codegen {

class GaussSeidelSystem {
 public:
  GaussSeidelSystem() = default;
  /// From the iteration form (M, b2) directly.
  explicit GaussSeidelSystem(LinearExpression iteration);
  /// From A x = b: A's diagonal must be non-zero (std::invalid_argument naming the row).
  /// `system.entries()` is A and `system.b()` the right-hand side b.
  static GaussSeidelSystem fromSystem(const LinearExpression& system);

  int size() const { return m_iteration.size(); }
  /// M = -D^-1 (L + U) and b2 = D^-1 b.
  const LinearExpression& iteration() const { return m_iteration; }
  /// E1: the strictly lower triangle of M, b = 0.
  LinearExpression lower() const;
  /// E2: M's diagonal and upper triangle, b = b2.
  LinearExpression upper() const;
  /// Scalar operations of a plain sweep: k products and k - 1 + [b2 non-zero] additions per
  /// row with k > 0 non-zeros (Table 2, column a: 576 for the 64-unknown Poisson system).
  long long operations() const { return m_iteration.operations(); }

  /// The sweep in the order `perm` gives (LinearExpression.h's convention).
  GaussSeidelSystem permuted(std::span<const int> perm) const;
  /// One sweep in double precision: x_p <- Σ_q M_pq x_q + b2_p for p = 0, 1, ... in turn.
  std::vector<double> sweep(std::span<const double> x) const;

 private:
  LinearExpression m_iteration;
};

}  // namespace texstream::codegen
