// cg(): checks the system, picks the algorithm for the backend (ConjugateGradient.h) and
// runs it under the shared driver (CgDriver.h). A reordered matrix (PermutedMatrix: a
// segment matrix, an RCM-ordered BCRS matrix) is solved in its internal order: b, x and a
// diagonal preconditioner are gathered once before the loop and x once after it, instead
// of two gathers around every product of the user-order apply().
#include <texstream/solvers/ConjugateGradient.h>

#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/LinearOperator.h>
#include <texstream/linalg/PermutedMatrix.h>
#include <texstream/solvers/CgDriver.h>
#include <texstream/solvers/JacobiPreconditioner.h>
#include <texstream/solvers/SolverInputs.h>
#include <texstream/stream/Runtime.h>

#include <optional>

namespace texstream::solvers {

namespace {

SolverStatus cgLoop(const linalg::LinearOperator& A, const stream::Vector& b, stream::Vector& x,
                    const IterationLimits& limits, const IterativeOptions& options, const Preconditioner* M) {
  const std::string where = "cg(" + quoted(A.name()) + ")";
  const stream::Vector* inverseDiagonal = M ? M->inverseDiagonal() : nullptr;
  if (inverseDiagonal) stream::requireSameLayout(where.c_str(), b, *inverseDiagonal);
  SolveRecorder recorder(where, options.onCheck);
  stream::Runtime& runtime = stream::Runtime::current();

  CgSystem system{A, b, x, M, inverseDiagonal, stream::Vector::temporary(b.layout(), "cg.r"), {},
                  stream::Scalar::temporary("cg.status")};
  if (M) system.z = stream::Vector::temporary(b.layout(), "cg.z");
  CgDriver driver(system, limits, options.asynchronousCheck, recorder);
  if (std::optional<Verdict> verdict = driver.setUp()) return recorder.finish(*verdict);
  const std::unique_ptr<CgIteration> algorithm =
      runtime.backend() == stream::Backend::Compute ? chronopoulosGearCg(system) : classicCg(system);
  return recorder.finish(driver.iterate(*algorithm));
}

/// The matrix behind A when A keeps its rows in an order of its own and M (if any) is
/// diagonal, so that the whole solve can run in that order; nullptr otherwise.
const linalg::PermutedMatrix* reorderedStorage(const linalg::LinearOperator& A, const Preconditioner* M) {
  const auto* permuted = dynamic_cast<const linalg::PermutedMatrix*>(&A);
  if (!permuted || !permuted->reordered()) return nullptr;
  if (M && !M->inverseDiagonal()) return nullptr;  // a general M works on user-order vectors
  return permuted;
}

}  // namespace

SolverStatus cg(const linalg::LinearOperator& A, const stream::Vector& b, stream::Vector& x,
                const IterativeOptions& options, const Preconditioner* M) {
  const IterationLimits limits = resolveLimits("cg", options, kCgDefaults);
  requireSquareSystem("cg", A, b, x);
  if (M && M->isIdentity()) M = nullptr;
  if (M && M->inverseDiagonal()) stream::requireSameLayout(("cg(" + quoted(A.name()) + ")").c_str(), b, *M->inverseDiagonal());
  gl::StateGuard guard;
  stream::BackendScope backendScope(options.backend);
  stream::Runtime::current().requireBackend(stream::Runtime::current().backend());

  const linalg::PermutedMatrix* reordered = reorderedStorage(A, M);
  if (!reordered) return cgLoop(A, b, x, limits, options, M);

  const stream::Layout& internal = reordered->internalLayout();
  stream::Vector bi = stream::Vector::temporary(internal, "cg.b(internal)");
  stream::Vector xi = stream::Vector::temporary(internal, "cg.x(internal)");
  reordered->toInternal(b, bi);
  reordered->toInternal(x, xi);
  // Positions holding no user row get 0 in b, x and D^-1: they stay 0 throughout.
  std::optional<JacobiPreconditioner> internalM;
  if (M) {
    stream::Vector inverse = stream::Vector::temporary(internal, "cg.inverseDiagonal(internal)");
    reordered->toInternal(*M->inverseDiagonal(), inverse);
    internalM = JacobiPreconditioner::fromInverseDiagonal(std::move(inverse));
  }
  const SolverStatus status =
      cgLoop(reordered->internal(), bi, xi, limits, options, internalM ? &*internalM : nullptr);
  reordered->toUser(xi, x);
  return status;
}

}  // namespace texstream::solvers
