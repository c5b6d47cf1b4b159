// cg(): checks the system, picks the algorithm for the backend (ConjugateGradient.h) and
// runs it under the shared driver (CgDriver.h).
#include <texstream/solvers/ConjugateGradient.h>

#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/LinearOperator.h>
#include <texstream/solvers/CgDriver.h>
#include <texstream/solvers/SolverInputs.h>
#include <texstream/stream/Runtime.h>

namespace texstream::solvers {

SolverStatus cg(const linalg::LinearOperator& A, const stream::Vector& b, stream::Vector& x,
                const IterativeOptions& options, const Preconditioner* M) {
  const IterationLimits limits = resolveLimits("cg", options, kCgDefaults);
  requireSquareSystem("cg", A, b, x);
  const std::string where = "cg(" + quoted(A.name()) + ")";
  if (M && M->isIdentity()) M = nullptr;
  const stream::Vector* inverseDiagonal = M ? M->inverseDiagonal() : nullptr;
  if (inverseDiagonal) stream::requireSameLayout(where.c_str(), b, *inverseDiagonal);
  SolveRecorder recorder(where, options.onCheck);
  gl::StateGuard guard;
  stream::BackendScope backendScope(options.backend);
  stream::Runtime& runtime = stream::Runtime::current();
  runtime.requireBackend(runtime.backend());

  CgSystem system{A, b, x, M, inverseDiagonal, stream::Vector::temporary(b.layout(), "cg.r"), {},
                  stream::Scalar::temporary("cg.status")};
  if (M) system.z = stream::Vector::temporary(b.layout(), "cg.z");
  CgDriver driver(system, limits, options.asynchronousCheck, recorder);
  if (std::optional<Verdict> verdict = driver.setUp()) return recorder.finish(*verdict);
  const std::unique_ptr<CgIteration> algorithm =
      runtime.backend() == stream::Backend::Compute ? chronopoulosGearCg(system) : classicCg(system);
  return recorder.finish(driver.iterate(*algorithm));
}

}  // namespace texstream::solvers
