// Tests src/solvers/IterativeSolver.*, StationaryLoop.* and LayeredSolver.*: the shared
// options (each solver's defaults, the checks), the objects solving as the free functions
// do, fixed work (exactly the cap, checks only where asked, nothing read back otherwise),
// and the solvers on layered fields matching the plain ones.
#include <catch2/catch.hpp>

#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/gl/Error.h>
#include <texstream/linalg/StencilMatrix.h>
#include <texstream/solvers/krylov/ConjugateGradient.h>
#include <texstream/solvers/krylov/MixedPrecisionCg.h>
#include <texstream/solvers/stationary/EnhancedBlockJacobi.h>
#include <texstream/solvers/multigrid/GridStencil.h>
#include <texstream/solvers/IterativeSolver.h>
#include <texstream/solvers/stationary/Jacobi.h>
#include <texstream/solvers/stationary/JacobiPreconditioner.h>
#include <texstream/solvers/multigrid/LayeredSolver.h>
#include <texstream/solvers/multigrid/Multigrid.h>
#include <texstream/stream/Vector.h>

#include <cmath>
#include <memory>
#include <stdexcept>

using namespace texstream;
using solvers::IterativeOptions;
using solvers::Outcome;
using solvers::SolverStatus;

namespace {

stream::Vector makeVector(const std::vector<float>& values, const char* name) {
  stream::Vector v(values.size(), name);
  v.upload(values);
  return v;
}

}  // namespace

TEST_CASE("resolveLimits fills each solver's defaults and refuses bad options", "[solvers]") {
  const solvers::IterationLimits cg = solvers::resolveLimits("cg", {}, solvers::kCgDefaults);
  CHECK(cg.maxIterations == 1000);
  CHECK(cg.checkEvery == 8);
  CHECK(cg.tolerance == Approx(1e-6));
  // Checks: blocking for cg, asynchronous for mixed-precision cg unless asked otherwise
  // (blocking in the browser, whose fences land only when the page yields).
  CHECK_FALSE(cg.asynchronousCheck);
  CHECK(solvers::resolveLimits("cg", {.asynchronousCheck = true}, solvers::kCgDefaults).asynchronousCheck);
#ifdef __EMSCRIPTEN__
  CHECK_FALSE(solvers::resolveLimits("mixed", {}, solvers::kMixedPrecisionCgDefaults).asynchronousCheck);
#else
  CHECK(solvers::resolveLimits("mixed", {}, solvers::kMixedPrecisionCgDefaults).asynchronousCheck);
#endif
  CHECK_FALSE(
      solvers::resolveLimits("mixed", {.asynchronousCheck = false}, solvers::kMixedPrecisionCgDefaults).asynchronousCheck);
  const solvers::IterationLimits mg = solvers::resolveLimits("mg", {}, solvers::kMultigridDefaults);
  CHECK(mg.maxIterations == 100);
  CHECK(mg.checkEvery == 1);
  const solvers::IterationLimits set =
      solvers::resolveLimits("mg", {.tolerance = 1e-3f, .maxIterations = 7, .checkEvery = 3}, solvers::kMultigridDefaults);
  CHECK(set.maxIterations == 7);
  CHECK(set.checkEvery == 3);
  CHECK(set.due(3));
  CHECK(set.due(7));  // the cap
  CHECK_FALSE(set.due(4));
  // Fixed work: no tolerance, no check at the cap, none at all past it.
  const solvers::IterationLimits fixed =
      solvers::resolveLimits("mg", {.maxIterations = 7, .checkEvery = 3, .fixedIterations = true}, solvers::kMultigridDefaults);
  CHECK(fixed.tolerance == 0.0);
  CHECK_FALSE(fixed.due(7));
  CHECK(fixed.checks());
  CHECK_FALSE(solvers::resolveLimits("mg", {.maxIterations = 7, .checkEvery = 8, .fixedIterations = true},
                                     solvers::kMultigridDefaults)
                  .checks());
  CHECK_THROWS_WITH(solvers::resolveLimits("mine", {.checkEvery = 0}, solvers::kCgDefaults),
                    Catch::Contains("mine") && Catch::Contains("checkEvery"));
  CHECK_THROWS_WITH(solvers::resolveLimits("mine", {.maxIterations = -1}, solvers::kCgDefaults),
                    Catch::Contains("maxIterations"));
  CHECK_THROWS_WITH(solvers::resolveLimits("mine", {.tolerance = NAN}, solvers::kCgDefaults), Catch::Contains("tolerance"));
}

TEST_CASE("IterativeSolver objects solve as the free functions do and keep the last status", "[gl][solvers]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const auto A = linalg::StencilMatrix::poisson2D(13, 11, "poisson13x11");
  const std::vector<float> bs = test::randomFloats(A.rows(), 31), xs = test::randomFloats(A.rows(), 32);
  stream::Vector b = makeVector(bs, "b");
  const IterativeOptions options{.tolerance = 1e-5f, .checkEvery = 1};
  const solvers::JacobiPreconditioner M(A, b.layout());

  stream::Vector x1 = makeVector(xs, "x1"), x2 = makeVector(xs, "x2");
  const SolverStatus free = solvers::cg(A, b, x1, options, &M);
  solvers::ConjugateGradient cg(A, &M);
  std::unique_ptr<solvers::IterativeSolver> any = std::make_unique<solvers::ConjugateGradient>(A, &M);
  const SolverStatus object = any->solve(b, x2, options);
  INFO(free.message << " / " << object.message);
  REQUIRE(free.converged());
  CHECK(object.iterations == free.iterations);
  CHECK(object.residualHistory == free.residualHistory);
  CHECK(x2.download() == x1.download());
  CHECK(any->status().iterations == object.iterations);
  CHECK(any->status().message == object.message);

  stream::Vector y1 = makeVector(xs, "y1"), y2 = makeVector(xs, "y2");
  const IterativeOptions capped{.maxIterations = 40, .checkEvery = 10};
  const SolverStatus jacobiFree = solvers::jacobi(A, b, y1, capped, 0.8f);
  solvers::WeightedJacobi jacobi(A, b.layout(), 0.8f);
  const SolverStatus jacobiObject = jacobi.solve(b, y2, capped);
  CHECK(jacobiObject.checkedAt == jacobiFree.checkedAt);
  CHECK(jacobiObject.residualHistory == jacobiFree.residualHistory);
  CHECK(y2.download() == y1.download());
  CHECK(jacobi.status().outcome == Outcome::MaxIterations);
  CHECK_THROWS_AS(solvers::WeightedJacobi(A, -1.0f), std::invalid_argument);
}

TEST_CASE("Fixed work: exactly the cap, checks only at multiples of checkEvery", "[gl][solvers]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const auto A = linalg::StencilMatrix::poisson2D(9, 7, "poisson9x7");
  const std::vector<float> bs = test::randomFloats(A.rows(), 41), xs = test::randomFloats(A.rows(), 42);
  stream::Vector b = makeVector(bs, "b");
  SECTION("jacobi: checks at 10 and 20 of 25 sweeps, the iterate of 25 plain sweeps") {
    stream::Vector x = makeVector(xs, "x"), y = makeVector(xs, "y");
    const SolverStatus s =
        solvers::jacobi(A, b, x, {.maxIterations = 25, .checkEvery = 10, .fixedIterations = true}, 0.8f);
    INFO(s.message);
    CHECK(s.outcome == Outcome::MaxIterations);
    CHECK(s.iterations == 25);
    CHECK(s.checkedAt == std::vector<int>{10, 20});
    CHECK(s.residualHistory[1] < s.residualHistory[0]);
    // No check due: none made; the same sweeps as the checked run.
    const SolverStatus quiet =
        solvers::jacobi(A, b, y, {.maxIterations = 25, .checkEvery = 26, .fixedIterations = true}, 0.8f);
    CHECK(quiet.iterations == 25);
    CHECK(quiet.checkedAt.empty());
    CHECK(y.download() == x.download());
  }
  SECTION("cg: no early stop at a loose tolerance, checks where asked") {
    stream::Vector x = makeVector(xs, "x");
    const SolverStatus s =
        solvers::cg(A, b, x, {.tolerance = 0.5f, .maxIterations = 12, .checkEvery = 4, .fixedIterations = true});
    INFO(s.message);
    CHECK(s.outcome == Outcome::MaxIterations);
    CHECK(s.iterations == 12);
    CHECK(s.checkedAt == std::vector<int>{0, 4, 8, 12});
  }
}

TEST_CASE("Multigrid and LayeredSolver on layered fields match the plain solves", "[gl][solvers][multigrid]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const solvers::GridStencil S =
      solvers::GridStencil::poisson(23, 18, solvers::GridBoundaries::all(solvers::Boundary::Dirichlet), "mg");
  const std::vector<float> bs = test::randomFloats(S.nodes(), 51), xs = test::randomFloats(S.nodes(), 52);
  solvers::Multigrid mg(S);
  const solvers::LayeredGrid& g = mg.grid(0);
  stream::Vector b = makeVector(bs, "b");
  const IterativeOptions options{.tolerance = 1e-5f, .maxIterations = 30};

  // The multigrid: plain vectors, and layered fields of its own grid.
  stream::Vector x = makeVector(xs, "x");
  const SolverStatus plain = mg.solve(b, x, options);
  stream::Vector bl(g.layout(), "b layered"), xl(g.layout(), "x layered"), xs2 = makeVector(xs, "x2");
  g.layer(b, bl);
  g.layer(xs2, xl);
  const std::unique_ptr<solvers::IterativeSolver> layered = mg.layeredSolver();
  const SolverStatus onFields = layered->solve(bl, xl, options);
  INFO(plain.message << " / " << onFields.message);
  REQUIRE(plain.converged());
  CHECK(onFields.iterations == plain.iterations);
  stream::Vector back(S.nodes(), "back");
  g.unlayer(xl, back);
  CHECK(back.download() == x.download());
  CHECK_THROWS_AS(layered->solve(b, x, options), gl::Error);  // plain vectors are not layered fields

  // Fixed work on the multigrid's own fields: the cycles alone.
  g.layer(xs2, mg.solution());
  g.layer(b, mg.rhs());
  for (int c = 0; c < 3; ++c) mg.cycle();
  const std::vector<float> cycled = mg.solution().download();
  g.layer(xs2, mg.solution());
  const SolverStatus fixed = layered->solve(mg.rhs(), mg.solution(), {.maxIterations = 3, .checkEvery = 4, .fixedIterations = true});
  CHECK(fixed.iterations == 3);
  CHECK(fixed.checkedAt.empty());
  CHECK(mg.solution().download() == cycled);

  // CG on the multigrid's operator through LayeredSolver: the plain CG's answer.
  stream::Vector xc = makeVector(xs, "xc");
  const SolverStatus cgPlain = solvers::cg(mg.op(), b, xc, options);
  g.layer(xs2, xl);
  solvers::LayeredSolver cg(g, std::make_unique<solvers::ConjugateGradient>(mg.op()));
  const SolverStatus cgLayered = cg.solve(bl, xl, options);
  CHECK(cgLayered.iterations == cgPlain.iterations);
  g.unlayer(xl, back);
  CHECK(back.download() == xc.download());
}
