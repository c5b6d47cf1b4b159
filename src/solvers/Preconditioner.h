#pragma once
// texstream::solvers::Preconditioner: z = M^-1 r for preconditioned CG, and what a solver
// may ask of M beyond apply(). Implementations: IdentityPreconditioner (none),
// JacobiPreconditioner (diag(A)^-1) and MultigridPreconditioner (the layered multigrid
// cycle of Bolz §4.2: MGPCG).
#include <string>

namespace texstream::stream {
class Vector;
}

namespace texstream::solvers {

class Preconditioner {
 public:
  virtual ~Preconditioner() = default;
  /// z = M^-1 r; z and r share a layout. z may be r: every preconditioner here reads r
  /// whole (a one-pass product, or a copy into its own grid) before it writes z.
  virtual void apply(const stream::Vector& r, stream::Vector& z) const = 0;
  virtual std::string name() const = 0;
  /// M = I: a solver may skip apply() (z = r) and run unpreconditioned.
  virtual bool isIdentity() const { return false; }
  /// M^-1 as a vector D^-1 when M is diagonal (z = r .* D^-1, in the layout of the vectors
  /// to solve with), else nullptr: a solver may then compute z inside a pass of its own
  /// instead of calling apply() (cg fuses it into its update pass).
  virtual const stream::Vector* inverseDiagonal() const { return nullptr; }
};

/// M = I: z = r (a copy). cg() recognises it and runs plain CG without the copy.
class IdentityPreconditioner : public Preconditioner {
 public:
  void apply(const stream::Vector& r, stream::Vector& z) const override;
  std::string name() const override { return "identity"; }
  bool isIdentity() const override { return true; }
};

}  // namespace texstream::solvers
