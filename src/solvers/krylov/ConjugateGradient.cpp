// cg(): checks the system, picks the algorithm for the backend (ConjugateGradient.h) and
// runs it under the shared driver (CgDriver.h). A reordered matrix (PermutedMatrix: a
// segment matrix, an RCM-ordered BCRS matrix) is solved in its internal order: b, x and a
// diagonal preconditioner are gathered once before the loop and x once after it, instead
// of two gathers around every product of the user-order apply().
#include <texstream/solvers/krylov/ConjugateGradient.h>

#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/LinearOperator.h>
#include <texstream/solvers/krylov/CgDriver.h>
#include <texstream/solvers/krylov/InternalOrder.h>
#include <texstream/solvers/SolverInputs.h>
#include <texstream/stream/Runtime.h>

#include <optional>

namespace texstream::solvers {
inline namespace krylov {

namespace {

SolverStatus cgLoop(const linalg::LinearOperator& A, const stream::Vector& b, stream::Vector& x,
                    const IterationLimits& limits, const IterativeOptions& options, const Preconditioner* M) {
  const stream::Vector* inverseDiagonal = M ? M->inverseDiagonal() : nullptr;
  SolveRecorder recorder("cg(" + quoted(A.name()) + ")", options.onCheck);
  stream::Runtime& runtime = stream::Runtime::current();

  // r's first writer (the set-up's residual) writes every texel, its padding zero.
  CgSystem system{A, b, x, M, inverseDiagonal, stream::Vector::uninitializedTemporary(b.layout(), "cg.r"), {},
                  stream::Scalar::temporary("cg.status")};
  if (M) system.z = stream::Vector::temporary(b.layout(), "cg.z");
  const std::unique_ptr<CgIteration> algorithm =
      runtime.backend() == stream::Backend::Compute ? chronopoulosGearCg(system) : classicCg(system);
  CgDriver driver(&system, limits, options, recorder);
  if (std::optional<Verdict> verdict = driver.setUp(*algorithm)) return driver.finish(*verdict);
  return driver.finish(driver.iterate(*algorithm));
}

}  // namespace

SolverStatus cg(const linalg::LinearOperator& A, const stream::Vector& b, stream::Vector& x,
                const IterativeOptions& options, const Preconditioner* M) {
  const IterationLimits limits = resolveLimits("cg", options, kCgDefaults);
  requireSquareSystem("cg", A, b, x);
  if (M && M->isIdentity()) M = nullptr;
  if (M && M->inverseDiagonal()) {
    stream::requireSameLayout(("cg(" + quoted(A.name()) + ")").c_str(), b, *M->inverseDiagonal());
  }
  gl::StateGuard guard;
  stream::BackendScope backendScope(options.backend);
  stream::Runtime::current().requireBackend(stream::Runtime::current().backend());

  std::optional<InternalOrder> internal = internalOrderFor(A, M, "cg");
  if (!internal) return cgLoop(A, b, x, limits, options, M);
  stream::Vector bi = stream::Vector::temporary(internal->layout(), "cg.b(internal)");
  stream::Vector xi = stream::Vector::temporary(internal->layout(), "cg.x(internal)");
  internal->matrix->toInternal(b, bi);
  internal->matrix->toInternal(x, xi);
  // Positions holding no user row get 0 in b, x and D^-1: they stay 0 throughout.
  const SolverStatus status = cgLoop(internal->op, bi, xi, limits, options, internal->preconditioner());
  internal->matrix->toUser(xi, x);
  return status;
}

}  // namespace krylov
}  // namespace texstream::solvers
