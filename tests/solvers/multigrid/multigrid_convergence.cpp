// Tests src/solvers/multigrid/Multigrid.* and MultigridPreconditioner.*: convergence factors of the
// layered multigrid (Bolz et al. 2003, §4.2), its solutions against CPU double solves
// (Dirichlet, Neumann, mixed, Helmholtz, variable coefficients, odd sizes), V/W/FMG, MGPCG,
// both backends.
#include <catch2/catch.hpp>

#include "solvers/multigrid/multigrid_reference.h"
#include "support/Gl.h"
#include "support/Random.h"
#include "support/Sizes.h"

#include <texstream/gl/Error.h>
#include <texstream/solvers/krylov/ConjugateGradient.h>
#include <texstream/solvers/multigrid/GridStencil.h>
#include <texstream/solvers/stationary/JacobiPreconditioner.h>
#include <texstream/solvers/multigrid/Multigrid.h>
#include <texstream/solvers/multigrid/MultigridPreconditioner.h>
#include <texstream/stream/Vector.h>

#include <cmath>
#include <stdexcept>

using namespace texstream;
using solvers::Boundary;
using solvers::CycleType;
using solvers::GridBoundaries;
using solvers::GridStencil;
using solvers::Multigrid;
using solvers::MultigridOptions;
using solvers::Outcome;

namespace {

/// Residual norms after each of `cycles` cycles for A x = 0 from a random x: the error is
/// x itself, so the asymptotic factor shows without the float32 floor of a solve.
std::vector<double> homogeneousHistory(Multigrid& mg, int cycles, std::uint64_t seed) {
  const solvers::LayeredGrid& g = mg.grid(0);
  stream::Vector x(g.nodes(), "x"), zero(g.nodes(), "zero");
  x.upload(test::randomFloats(g.nodes(), seed));
  g.layer(zero, mg.rhs());
  g.layer(x, mg.solution());
  mg.imposeFixed();
  if (mg.singular()) mg.removeMean(mg.solution());
  std::vector<double> history{mg.residualNorm()};
  for (int c = 0; c < cycles; ++c) {
    mg.cycle();
    history.push_back(mg.residualNorm());
  }
  return history;
}

/// Geometric mean of the residual reduction per cycle over cycles [from, to).
double factor(const std::vector<double>& h, int from, int to) {
  return std::pow(h[std::size_t(to)] / h[std::size_t(from)], 1.0 / double(to - from));
}

stream::Vector makeVector(const std::vector<float>& values, const char* name) {
  stream::Vector v(values.size(), name);
  v.upload(values);
  return v;
}

double relativeError(const std::vector<float>& got, const std::vector<double>& ref) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    num += (got[i] - ref[i]) * (got[i] - ref[i]);
    den += ref[i] * ref[i];
  }
  return std::sqrt(num / den);
}

}  // namespace

TEST_CASE("Multigrid: V(2,2) factor <= 0.15 on the Dirichlet Poisson problem, independent of size",
          "[multigrid][gl]") {
  test::context();
  // (1025^2 and 4097^2 run on the GPU machine: texstream-bench --ops multigrid.)
  std::vector<double> factors;
  // 65, 129, 257, 513 (in the browser's software WebGL2 up to 257: 513^2 takes seconds).
  for (int n = 65; n <= test::sized(513, 257); n = 2 * n - 1) {
    Multigrid mg(GridStencil::poisson(n, n, GridBoundaries::all(Boundary::Dirichlet), "poisson"));
    REQUIRE(mg.levels() >= 4);  // down to the 9x9 coarsest level (MultigridOptions::coarsestNodes)
    const auto h = homogeneousHistory(mg, 8, 7);
    factors.push_back(factor(h, 3, 8));
    INFO(n << "^2, " << mg.levels() << " levels: factor " << factors.back());
    CHECK(factors.back() <= 0.15);
  }
  const auto [lo, hi] = std::minmax_element(factors.begin(), factors.end());
  INFO("factors from " << *lo << " to " << *hi);
  CHECK(*hi - *lo <= 0.01);

  // Bolz's omega = 2/3: bounded by the smoothing factor (2/3)^4 = 0.198, also flat.
  std::vector<double> bolz;
  for (int n : {65, 257}) {
    Multigrid mg(GridStencil::poisson(n, n, GridBoundaries::all(Boundary::Dirichlet), "poisson"),
                 {.omega = 2.0f / 3.0f});
    bolz.push_back(factor(homogeneousHistory(mg, 8, 8), 3, 8));
    INFO(n << "^2, omega 2/3: " << bolz.back());
    CHECK(bolz.back() <= 0.2);
  }
  CHECK(std::abs(bolz[0] - bolz[1]) <= 0.01);
}

TEST_CASE("Multigrid: W-cycles, more smoothing and Helmholtz converge faster; Neumann and odd sizes too",
          "[multigrid][gl]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const int n = test::sized(97, 65);
  const GridStencil A = GridStencil::poisson(n, n, GridBoundaries::all(Boundary::Dirichlet), "poisson");
  Multigrid v22(A);
  const double fv = factor(homogeneousHistory(v22, 7, 1), 2, 7);
  CHECK(fv <= 0.15);
  Multigrid w22(A, {.cycle = CycleType::W});
  const double fw = factor(homogeneousHistory(w22, 7, 1), 2, 7);
  CHECK(fw <= fv * 1.02);
  Multigrid v42(A, {.preSmoothing = 4, .postSmoothing = 2});
  CHECK(factor(homogeneousHistory(v42, 7, 1), 2, 7) < fv);
  // Bolz's coarsest solve by Jacobi iteration instead of the exact one.
  Multigrid bolz(A, {.coarseSolve = solvers::CoarseSolve::Jacobi, .coarseIterations = 30});
  CHECK(factor(homogeneousHistory(bolz, 7, 1), 2, 7) <= 0.15);
  Multigrid helm(GridStencil::helmholtz(n, n, 0.5, GridBoundaries::all(Boundary::Dirichlet), "helmholtz"));
  CHECK(factor(homogeneousHistory(helm, 7, 1), 2, 7) < fv);

  // Pure Neumann (singular), mixed boundaries, and sizes that are not 2^j + 1.
  struct Case {
    int nx, ny;
    GridBoundaries bc;
    double bound;
  };
  const GridBoundaries mixed{Boundary::Neumann, Boundary::Dirichlet, Boundary::Neumann, Boundary::Neumann};
  const int neumann = test::sized(129, 65);
  for (const Case& c : {Case{neumann, neumann, GridBoundaries::all(Boundary::Neumann), 0.15}, Case{96, 64, mixed, 0.2},
                        Case{100, 37, GridBoundaries::all(Boundary::Neumann), 0.25},
                        Case{75, 75, GridBoundaries::all(Boundary::Dirichlet), 0.2}}) {
    Multigrid mg(GridStencil::poisson(c.nx, c.ny, c.bc, "case"));
    const double f = factor(homogeneousHistory(mg, 8, 3), 3, 8);
    INFO(c.nx << "x" << c.ny << " (" << mg.grid(0).describe() << "), " << mg.levels() << " levels: factor " << f);
    CHECK(f <= c.bound);
  }
}

TEST_CASE("Multigrid: solutions match CPU double solves", "[multigrid][gl]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  struct Case {
    int nx, ny;
    GridBoundaries bc;
    double sigma;
    bool random;
  };
  const GridBoundaries mixed{Boundary::Dirichlet, Boundary::Neumann, Boundary::Neumann, Boundary::Dirichlet};
  for (const Case& c : {Case{33, 33, GridBoundaries::all(Boundary::Dirichlet), 0.0, false},
                        Case{40, 27, mixed, 0.0, true}, Case{31, 45, GridBoundaries::all(Boundary::Neumann), 0.2, true},
                        Case{3, 2, GridBoundaries::all(Boundary::Neumann), 0.5, false}}) {
    INFO(c.nx << "x" << c.ny << " sigma " << c.sigma << (c.random ? " random 9-point" : " Poisson"));
    const GridStencil A = c.random ? test::randomSymmetricStencil(c.nx, c.ny, c.sigma, c.bc, 5)
                                   : GridStencil::helmholtz(c.nx, c.ny, c.sigma, c.bc, "A");
    // Random right-hand side; at fixed nodes it is the (non-zero) Dirichlet value.
    const std::vector<float> bs = test::randomFloats(A.nodes(), std::uint64_t(c.nx * 3 + c.ny));
    const std::vector<double> ref = test::solveGridReference(A, test::toDouble(bs));
    Multigrid mg(A);
    stream::Vector b = makeVector(bs, "b"), x = makeVector(test::randomFloats(A.nodes(), 99), "x");
    const auto status = mg.solve(b, x, {.tolerance = 1e-5f, .maxIterations = 30});
    INFO(status.message);
    CHECK(status.converged());
    CHECK(status.iterations <= 10);
    const std::vector<float> xs = x.download();
    CHECK(relativeError(xs, ref) < 1e-4);
    CHECK(test::trueGridResidual(A, xs, test::toDouble(bs)) < 1e-5);
    // Defect correction reaches 1e-7 in its recurrence residual; the true one stays at
    // the float32 floor, a few 1e-7 on grids this small.
    stream::Vector x2(A.nodes(), "x2");
    mg.setOptions({.residualCheck = solvers::ResidualCheck::Recurrence});
    const auto deep = mg.solve(b, x2, {.tolerance = 1e-7f, .maxIterations = 30});
    INFO(deep.message);
    CHECK(deep.converged());
    CHECK(test::trueGridResidual(A, x2.download(), test::toDouble(bs)) < 2e-6);
  }
}

TEST_CASE("Multigrid: the Neumann problem converges to the zero-mean solution", "[multigrid][gl]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const int nx = 65, ny = 48;
  const GridStencil A = GridStencil::poisson(nx, ny, GridBoundaries::all(Boundary::Neumann), "neumann");
  REQUIRE(A.hasConstantNullSpace());
  // b with a non-zero mean: the solver projects it (A x = b has no solution otherwise).
  std::vector<float> bs = test::randomFloats(A.nodes(), 17, -0.5f, 1.5f);
  std::vector<double> bp = test::toDouble(bs);
  double mean = 0;
  for (double v : bp) mean += v / double(bp.size());
  for (double& v : bp) v -= mean;
  std::vector<double> ref = test::solveGridReference(A, bp);
  double refMean = 0;
  for (double v : ref) refMean += v / double(ref.size());
  for (double& v : ref) v -= refMean;

  Multigrid mg(A);
  CHECK(mg.singular());
  stream::Vector b = makeVector(bs, "b"), x = makeVector(test::randomFloats(A.nodes(), 3, 5.0f, 6.0f), "x");
  const auto status = mg.solve(b, x, {.tolerance = 1e-5f});
  INFO(status.message);
  CHECK(status.converged());
  const std::vector<float> xs = x.download();
  double xMean = 0, scale = 0;
  for (float v : xs) {
    xMean += double(v) / double(xs.size());
    scale = std::max(scale, std::abs(double(v)));
  }
  CHECK(std::abs(xMean) <= 1e-5 * scale);
  CHECK(relativeError(xs, ref) < 1e-4);
  CHECK(test::trueGridResidual(A, xs, bp) < 1e-5);
  // Asking for more than float32 allows: the solve reports the stagnation.
  const auto floor = mg.solve(b, x, {.tolerance = 1e-9f});
  CHECK(floor.outcome == Outcome::MaxIterations);
  CHECK_THAT(floor.message, Catch::Contains("stagnated"));
}

TEST_CASE("Multigrid: full multigrid, b = 0, and both backends agree", "[multigrid][gl][compute][both-backends]") {
  test::context();
  // FMG on a smooth problem: one pass gets far closer to the discrete solution than a
  // V-cycle from zero (Briggs et al. 2000, ch. 3: FMG reaches the discretisation error).
  {
    const int n = 65;
    const GridStencil A = GridStencil::poisson(n, n, GridBoundaries::all(Boundary::Dirichlet), "fmg");
    std::vector<float> bs(A.nodes(), 0.0f);
    const double h = 1.0 / (n - 1), pi = 3.14159265358979;
    for (int j = 1; j + 1 < n; ++j)
      for (int i = 1; i + 1 < n; ++i)
        bs[std::size_t(j) * n + i] = float(h * h * std::sin(pi * i * h) * std::sin(2 * pi * j * h) * (1 + i * h));
    const std::vector<double> ref = test::solveGridReference(A, test::toDouble(bs));
    Multigrid mg(A);
    stream::Vector b = makeVector(bs, "b"), xf(A.nodes(), "xf"), xv(A.nodes(), "xv");
    mg.setOptions({.fullMultigrid = true});
    mg.solve(b, xf, {.tolerance = 0.0f, .maxIterations = 1});
    mg.setOptions({});
    mg.solve(b, xv, {.tolerance = 0.0f, .maxIterations = 1});
    const double ef = relativeError(xf.download(), ref), ev = relativeError(xv.download(), ref);
    INFO("error after FMG " << ef << ", after one V-cycle " << ev);
    CHECK(ef < 0.01);
    CHECK(ef < ev / 5);
  }
  const GridStencil A = test::randomSymmetricStencil(70, 51, 0.05, GridBoundaries::all(Boundary::Dirichlet), 8);
  const std::vector<float> bs = test::randomFloats(A.nodes(), 21);
  std::vector<std::vector<float>> results;
  for (stream::Backend backend : test::backends()) {
    stream::BackendScope scope(backend);
    Multigrid mg(A, {.cycle = CycleType::W, .fullMultigrid = true});
    stream::Vector b = makeVector(bs, "b"), x(A.nodes(), "x");
    const auto status = mg.solve(b, x, {.tolerance = 1e-5f, .maxIterations = 20});
    CHECK(status.converged());
    results.push_back(x.download());
  }
  // Both backends agree (a run restricted to one, TEXSTREAM_TEST_BACKENDS, has nothing to compare).
  if (results.size() == 2) CHECK(relativeError(results[1], test::toDouble(results[0])) < 1e-5);

  // b = 0 at free nodes: x = 0 there, b at fixed nodes, converged at once.
  GridStencil D = GridStencil::poisson(9, 9, GridBoundaries::all(Boundary::Dirichlet), "zero");
  Multigrid mg(D);
  stream::Vector b(D.nodes(), "b"), x = makeVector(test::randomFloats(D.nodes(), 4), "x");
  const auto status = mg.solve(b, x);
  CHECK(status.converged());
  CHECK(status.iterations == 0);
  for (float v : x.download()) CHECK(v == 0.0f);
}

TEST_CASE("Multigrid: MGPCG needs far fewer iterations than Jacobi-PCG", "[multigrid][gl]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const GridStencil A = GridStencil::poisson(129, 129, GridBoundaries::all(Boundary::Dirichlet), "poisson");
  std::vector<float> bs = test::randomFloats(A.nodes(), 31);
  for (int j = 0; j < A.ny(); ++j)
    for (int i = 0; i < A.nx(); ++i)
      if (A.isFixed(i, j)) bs[std::size_t(j) * A.nx() + i] = 0.0f;  // homogeneous: CG's A is SPD
  Multigrid mg(A, {.preSmoothing = 1, .postSmoothing = 1});
  solvers::MultigridPreconditioner M(mg);
  CHECK(M.name() == "multigrid V(1,1)");
  stream::Vector b = makeVector(bs, "b"), x(A.nodes(), "x"), xj(A.nodes(), "xj");
  // The iterations to the recurrence's 1e-6 are compared (the true residual's float floor is
  // near 1e-6 on this grid); the solution is checked against the double reference below.
  const auto mgpcg = solvers::cg(mg.op(), b, x, {.tolerance = 1e-6f, .maxIterations = 100, .checkEvery = 1, .checkTrueResidual = false}, &M);
  INFO(mgpcg.message);
  CHECK(mgpcg.converged());
  CHECK(mgpcg.iterations <= 12);
  solvers::JacobiPreconditioner J(mg.op());
  const auto jpcg = solvers::cg(mg.op(), b, xj, {.tolerance = 1e-6f, .maxIterations = 2000, .checkTrueResidual = false}, &J);
  CHECK(jpcg.converged());
  CHECK(jpcg.iterations > 10 * mgpcg.iterations);
  const std::vector<double> ref = test::solveGridReference(A, test::toDouble(bs));
  CHECK(relativeError(x.download(), ref) < 1e-4);
}

TEST_CASE("Multigrid: bad options and mismatched vectors are reported", "[multigrid][gl]") {
  test::context();
  const GridStencil A = GridStencil::poisson(17, 17, GridBoundaries::all(Boundary::Dirichlet), "A");
  CHECK_THROWS_WITH(Multigrid(A, {.omega = 2.5f}), Catch::Contains("omega must be in (0, 2)"));
  CHECK_THROWS_WITH(Multigrid(A, {.preSmoothing = -1}), Catch::Contains("preSmoothing"));
  CHECK_THROWS_WITH(Multigrid(A, {.coarseIterations = 0}), Catch::Contains("coarseIterations"));
  Multigrid mg(A, {.preSmoothing = 2, .postSmoothing = 1});
  CHECK_THROWS_WITH(solvers::MultigridPreconditioner(mg), Catch::Contains("symmetric cycle"));
  CHECK_THROWS_WITH(mg.setOptions({.coarsestNodes = 9}), Catch::Contains("fixed when the hierarchy is built"));
  stream::Vector b(100, "b"), x(A.nodes(), "x");
  CHECK_THROWS_AS(mg.solve(b, x), gl::Error);
  CHECK_THROWS_WITH(mg.solve(x, x, {.maxIterations = -1}), Catch::Contains("maxIterations"));
  GridStencil broken = A;
  broken.setCoefficient(0, 0, 1, 0, 1.0f);  // a fixed node with a coefficient
  CHECK_THROWS_WITH(Multigrid(broken), Catch::Contains("node (0, 0)"));
  // An operator built on the wrong grid.
  solvers::LayeredStencil wrong(solvers::LayeredGrid(17, 17, 4, 4), "wrong");
  CHECK_THROWS_WITH(Multigrid(std::move(wrong), false), Catch::Contains("Multigrid::fineGrid"));
}

TEST_CASE("Multigrid: borders kept in sync inside the kernels match the copy passes", "[multigrid][gl]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const GridBoundaries mixed{Boundary::Dirichlet, Boundary::Neumann, Boundary::Neumann, Boundary::Dirichlet};
  const GridStencil A = test::randomSymmetricStencil(70, 51, 0.02, mixed, 12);
  const std::vector<float> bs = test::randomFloats(A.nodes(), 13), xs = test::randomFloats(A.nodes(), 14);
  for (CycleType cycle : {CycleType::V, CycleType::W}) {
    std::vector<std::vector<float>> results;
    for (solvers::BorderUpdate border : {solvers::BorderUpdate::CopyPasses, solvers::BorderUpdate::InKernel}) {
      Multigrid mg(A, {.cycle = cycle, .preSmoothing = 2, .postSmoothing = 1, .border = border, .fullMultigrid = true});
      stream::Vector b = makeVector(bs, "b"), x = makeVector(xs, "x");
      const auto status = mg.solve(b, x, {.tolerance = 0.0f, .maxIterations = 3});
      CHECK(status.iterations == 3);
      // The layered solution border included: the in-kernel border equals the copied one.
      results.push_back(mg.solution().download());
      CHECK(mg.solution().download() == mg.grid(0).layerHost(mg.grid(0).unlayerHost(results.back())));
    }
    INFO(solvers::cycleName(cycle) << "-cycle");
    CHECK(relativeError(results[1], test::toDouble(results[0])) < 1e-6);
  }
}
