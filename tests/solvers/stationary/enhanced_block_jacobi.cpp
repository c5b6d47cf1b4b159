// Tests src/solvers/stationary/EnhancedBlockJacobi.* and EbjSlabKernel.* (Bajaj et al. 2004, §4.1),
// with the slab kernels src/codegen generates (tests/codegen/ebj_kernel.cpp tests those on
// the CPU): one GPU sweep against a CPU double sweep with the same slab order, convergence
// to the CPU double solution on Dirichlet, Neumann and mixed problems in 2D and 3D (pure
// Neumann modulo a constant), and errors.
#include <catch2/catch.hpp>

#include "solvers/Reference.h"
#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/codegen/EbjKernel.h>
#include <texstream/gl/Error.h>
#include <texstream/linalg/Csr.h>
#include <texstream/solvers/stationary/EnhancedBlockJacobi.h>
#include <texstream/solvers/stationary/Jacobi.h>
#include <texstream/stream/Vector.h>

#include <cmath>
#include <numeric>
#include <stdexcept>

using namespace texstream;
using solvers::EbjBoundary;
using solvers::EbjGrid;
using codegen::EbjKernel;
using codegen::EbjOrdering;
using solvers::EnhancedBlockJacobi;

namespace {

constexpr EbjBoundary D = EbjBoundary::Dirichlet;
constexpr EbjBoundary N = EbjBoundary::Neumann;

std::size_t cell(const EbjGrid& g, int i, int j, int k) {
  return std::size_t(i) + std::size_t(g.nx) * (std::size_t(j) + std::size_t(g.ny) * std::size_t(k));
}

/// The problem's operator, written from its definition: -Δ, h = 1; a missing neighbour is
/// 0 (Dirichlet) or the cell itself (Neumann, so the diagonal drops by one).
linalg::Csr poissonCsr(const EbjGrid& g) {
  std::vector<std::int64_t> r, c;
  std::vector<double> v;
  const int dims = g.nz == 1 ? 2 : 3;
  for (int k = 0; k < g.nz; ++k)
    for (int j = 0; j < g.ny; ++j)
      for (int i = 0; i < g.nx; ++i) {
        const std::size_t p = cell(g, i, j, k);
        double d = 2.0 * dims;
        auto neighbour = [&](int ii, int jj, int kk, EbjBoundary b) {
          if (ii < 0 || ii >= g.nx || jj < 0 || jj >= g.ny || kk < 0 || kk >= g.nz) {
            if (b == N) d -= 1.0;
            return;
          }
          r.push_back(std::int64_t(p));
          c.push_back(std::int64_t(cell(g, ii, jj, kk)));
          v.push_back(-1.0);
        };
        neighbour(i - 1, j, k, g.x);
        neighbour(i + 1, j, k, g.x);
        neighbour(i, j - 1, k, g.y);
        neighbour(i, j + 1, k, g.y);
        if (dims == 3) {
          neighbour(i, j, k - 1, g.z);
          neighbour(i, j, k + 1, g.z);
        }
        r.push_back(std::int64_t(p));
        c.push_back(std::int64_t(p));
        v.push_back(d);
      }
  return linalg::Csr::fromTriplets(g.cells(), g.cells(), r, c, v);
}

double norm(const std::vector<double>& v) { return std::sqrt(test::dotD(v, v)); }

double residualNorm(const linalg::Csr& A, const std::vector<double>& x, const std::vector<double>& f) {
  std::vector<double> r = A.multiply(x);
  for (std::size_t i = 0; i < r.size(); ++i) r[i] = f[i] - r[i];
  return norm(r);
}

std::vector<double> minusMean(std::vector<double> v) {
  const double mean = std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
  for (double& e : v) e -= mean;
  return v;
}

stream::Vector upload(const std::vector<float>& values, const char* name) {
  stream::Vector v(values.size(), name);
  v.upload(values);
  return v;
}

std::vector<double> download(const stream::Vector& v) { return test::toDouble(v.download()); }

double maxRelDiff(const std::vector<double>& got, const std::vector<double>& want) {
  double e = 0, scale = 1e-300;
  for (std::size_t i = 0; i < want.size(); ++i) {
    e = std::max(e, std::abs(got[i] - want[i]));
    scale = std::max(scale, std::abs(want[i]));
  }
  return e / scale;
}

codegen::AnnealingSchedule quickSchedule(std::uint64_t seed) {
  codegen::AnnealingSchedule s;
  s.seed = seed;
  s.iterations = 20000;
  s.initialTemperature = s.finalTemperature = 0.35;
  return s;
}

/// The solver for g with the kernel codegen writes for its lines.
EnhancedBlockJacobi makeEbj(const EbjGrid& g, const codegen::EbjOptions& options = {}, std::string name = "ebj") {
  return EnhancedBlockJacobi(g, codegen::ebjSlabKernel(g, options), std::move(name));
}

}  // namespace

TEST_CASE("EBJ: the generated slab kernels equal a plain double evaluation", "[gl][solvers][ebj]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  struct Case {
    EbjGrid grid;
    EbjOrdering ordering;
  };
  // Awkward j/k sizes (1, primes), every ordering, each boundary in each direction.
  const Case cases[] = {
      {{.nx = 8, .ny = 7, .nz = 1, .x = N, .y = D}, EbjOrdering::Natural},
      {{.nx = 12, .ny = 1, .nz = 1, .x = D, .y = N}, EbjOrdering::Stretches},
      {{.nx = 16, .ny = 5, .nz = 3, .x = N, .y = D, .z = N}, EbjOrdering::Stretches},
      {{.nx = 12, .ny = 3, .nz = 4, .x = D, .y = N, .z = D}, EbjOrdering::Annealed},
  };
  std::uint64_t seed = 100;
  for (const Case& c : cases) {
    const EbjGrid& g = c.grid;
    INFO(g.describe() << ", " << codegen::ebjOrderingName(c.ordering));
    EnhancedBlockJacobi ebj = makeEbj(g, {.ordering = c.ordering, .schedule = quickSchedule(seed)}, "test.ebj");
    const std::size_t n = g.cells();
    const std::vector<float> fs = test::randomFloats(n, ++seed), xs = test::randomFloats(n, ++seed);
    const stream::Vector f = upload(fs, "test.ebj.f");
    stream::Vector x = upload(xs, "test.ebj.x");
    const linalg::Csr A = poissonCsr(g);

    // Pack and unpack are inverse.
    ebj.load(f, &x);
    stream::Vector out(n, "test.ebj.out");
    ebj.store(out);
    CHECK(out.download() == xs);

    // The residual of the packed state.
    CHECK(ebj.residualNorm() == Approx(residualNorm(A, test::toDouble(xs), test::toDouble(fs))).epsilon(1e-5));

    // Two sweeps through the smoother, against two plain double sweeps.
    std::vector<double> want = test::toDouble(xs);
    solvers::ebjReferenceSweep(g, ebj.kernel().permutation, test::toDouble(fs), want);
    solvers::ebjReferenceSweep(g, ebj.kernel().permutation, test::toDouble(fs), want);
    solvers::enhancedBlockJacobiSmooth(ebj, f, x, 2);
    CHECK(maxRelDiff(download(x), want) < 2e-6);

    // matrix() and ebjPoissonCsr() are the same operator.
    CHECK(maxRelDiff(solvers::ebjPoissonCsr(g).multiply(test::toDouble(xs)), A.multiply(test::toDouble(xs))) == 0.0);
    const linalg::StencilMatrix S = ebj.matrix("test.ebj.A");
    stream::Vector ax(n, "test.ebj.Ax");
    S.apply(upload(xs, "test.ebj.x0"), ax);
    CHECK(maxRelDiff(download(ax), A.multiply(test::toDouble(xs))) < 1e-6);
  }
}

TEST_CASE("EBJ converges to the double solution (Dirichlet, Neumann, mixed; 2D and 3D)", "[gl][solvers][ebj]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  struct Case {
    EbjGrid grid;
    EbjOrdering ordering;
  };
  const Case cases[] = {
      {{.nx = 16, .ny = 13, .nz = 1, .x = D, .y = D}, EbjOrdering::Stretches},
      {{.nx = 12, .ny = 10, .nz = 7, .x = D, .y = N, .z = N}, EbjOrdering::Stretches},  // Table 3's conditions
      {{.nx = 8, .ny = 11, .nz = 1, .x = N, .y = N}, EbjOrdering::Natural},             // singular
      {{.nx = 8, .ny = 6, .nz = 5, .x = N, .y = N, .z = N}, EbjOrdering::Stretches},    // singular
  };
  std::uint64_t seed = 200;
  for (const Case& c : cases) {
    const EbjGrid& g = c.grid;
    INFO(g.describe());
    const std::size_t n = g.cells();
    std::vector<double> f = test::toDouble(test::randomFloats(n, ++seed));
    if (g.singular()) f = minusMean(f);  // consistent right-hand side
    const linalg::Csr A = poissonCsr(g);
    const std::vector<double> reference = test::solveReference(A, f);

    EnhancedBlockJacobi ebj = makeEbj(g, {.ordering = c.ordering}, "test.ebj");
    const stream::Vector fv = upload(std::vector<float>(f.begin(), f.end()), "test.ebj.f");
    stream::Vector x(n, "test.ebj.x");
    const solvers::SolverStatus status =
        solvers::enhancedBlockJacobi(ebj, fv, x, {.tolerance = 1e-6f, .maxIterations = 4000, .checkEvery = 16});
    INFO(status.message);
    REQUIRE(status.converged());
    CHECK(status.checkedAt.back() == status.iterations);
    CHECK(status.residualHistory.back() <= 1e-6);
    CHECK(status.residualHistory.front() == Approx(1.0).epsilon(1e-5));  // from x = 0
    const std::vector<double> got = download(x);
    CHECK(residualNorm(A, got, f) / norm(f) < 2e-6);
    // The error is at most cond(A) times the residual; these grids have cond(A) < 400.
    if (g.singular()) CHECK(maxRelDiff(minusMean(got), minusMean(reference)) < 1e-3);
    else CHECK(maxRelDiff(got, reference) < 1e-3);
  }
}

TEST_CASE("EBJ beats plain Jacobi, and the optimised ordering beats the natural one", "[gl][solvers][ebj]") {
  // §4.1.2: the slab-by-slab updates "enhance the convergence speed of the standard Jacobi
  // method remarkably"; §4.1.3: the optimised ordering needed fewer iterations (253 vs 291).
  // Dirichlet all round: at a Neumann j/k side EBJ keeps the paper's clamp-to-edge with the
  // interior D (an under-relaxed row), which there can cost the natural ordering its small
  // lead over Jacobi (measured on 16x16x8, y and z Neumann: 598 against 596 iterations).
  test::context();
  const EbjGrid g{.nx = 16, .ny = 16, .nz = 8, .x = D, .y = D, .z = D};
  const std::size_t n = g.cells();
  const std::vector<float> fs = test::randomFloats(n, 301);
  const stream::Vector f = upload(fs, "test.ebj.f");
  auto iterations = [&](EbjOrdering o) {
    EnhancedBlockJacobi ebj = makeEbj(g, {.ordering = o}, "test.ebj");
    stream::Vector x(n, "test.ebj.x");
    const auto s = solvers::enhancedBlockJacobi(ebj, f, x, {.tolerance = 1e-3f, .maxIterations = 3000, .checkEvery = 1});
    REQUIRE(s.converged());
    return s.iterations;
  };
  const int natural = iterations(EbjOrdering::Natural), stretches = iterations(EbjOrdering::Stretches);
  EnhancedBlockJacobi ebj = makeEbj(g, {}, "test.ebj");
  stream::Vector x(n, "test.ebj.x");
  const auto jacobi =
      solvers::jacobi(ebj.matrix("test.ebj.A"), f, x, {.tolerance = 1e-3f, .maxIterations = 5000, .checkEvery = 1});
  REQUIRE(jacobi.converged());
  INFO("iterations to 1e-3: Jacobi " << jacobi.iterations << ", EBJ natural " << natural << ", EBJ stretches "
                                      << stretches);
  CHECK(natural < jacobi.iterations);
  CHECK(stretches < natural);
}

TEST_CASE("EBJ reports bad inputs and failures clearly", "[gl][solvers][ebj]") {
  test::context();
  SECTION("grids it does not support") {
    CHECK_THROWS_WITH(makeEbj(EbjGrid{.nx = 10, .ny = 4}), Catch::Contains("nx = 10") && Catch::Contains("multiple of 4"));
    CHECK_THROWS_WITH(makeEbj(EbjGrid{.nx = 260, .ny = 4}), Catch::Contains("nx = 260"));
    CHECK_THROWS_WITH(makeEbj(EbjGrid{.nx = 8, .ny = 0}), Catch::Contains("empty"));
    CHECK_THROWS_WITH(makeEbj(EbjGrid{.nx = 8, .ny = 4, .nz = 0}), Catch::Contains("empty"));
    // The solver itself checks the grid, and that the kernel is for its lines.
    const solvers::EbjSlabKernel k8 = codegen::ebjSlabKernel({.nx = 8, .ny = 4});
    CHECK_THROWS_WITH(EnhancedBlockJacobi(EbjGrid{.nx = 10, .ny = 4}, k8), Catch::Contains("nx = 10"));
    CHECK_THROWS_WITH(EnhancedBlockJacobi(EbjGrid{.nx = 12, .ny = 4}, k8),
                      Catch::Contains("lines of 8 unknowns") && Catch::Contains("12x4"));
    CHECK_THROWS_WITH(EnhancedBlockJacobi(EbjGrid{.nx = 8, .ny = 4, .nz = 2}, k8), Catch::Contains("in 2D"));
    CHECK_THROWS_WITH(EnhancedBlockJacobi(EbjGrid{.nx = 8, .ny = 4, .x = N}, k8), Catch::Contains("dirichlet ends"));
    solvers::EbjSlabKernel twice = k8;
    twice.permutation[0] = twice.permutation[1];
    CHECK_THROWS_AS(EnhancedBlockJacobi(EbjGrid{.nx = 8, .ny = 4}, twice), std::invalid_argument);
  }
  EnhancedBlockJacobi ebj = makeEbj(EbjGrid{.nx = 8, .ny = 5, .nz = 3}, {}, "test.ebj");
  SECTION("vectors that do not match the grid") {
    const stream::Vector f(120, "test.ebj.f"), small(119, "test.ebj.small");
    stream::Vector x(120, "test.ebj.x"), big(121, "test.ebj.big");
    CHECK_THROWS_WITH(solvers::enhancedBlockJacobi(ebj, small, x),
                      Catch::Contains("test.ebj.small") && Catch::Contains("n=119") && Catch::Contains("120 cells"));
    CHECK_THROWS_AS(solvers::enhancedBlockJacobi(ebj, f, big), gl::Error);
    CHECK_THROWS_WITH(solvers::enhancedBlockJacobiSmooth(ebj, f, big, 2), Catch::Contains("test.ebj.big"));
    CHECK_THROWS_WITH(solvers::enhancedBlockJacobiSmooth(ebj, f, x, -1), Catch::Contains("sweeps"));
  }
  SECTION("bad options") {
    const stream::Vector f(120, "test.ebj.f");
    stream::Vector x(120, "test.ebj.x");
    CHECK_THROWS_WITH(solvers::enhancedBlockJacobi(ebj, f, x, {.tolerance = -1.0f}), Catch::Contains("tolerance"));
    CHECK_THROWS_WITH(solvers::enhancedBlockJacobi(ebj, f, x, {.maxIterations = -2}), Catch::Contains("maxIterations"));
    CHECK_THROWS_WITH(solvers::enhancedBlockJacobi(ebj, f, x, {.checkEvery = 0}), Catch::Contains("checkEvery"));
  }
  SECTION("non-finite input, the iteration cap, f = 0") {
    std::vector<float> fs = test::randomFloats(120, 401);
    stream::Vector x(120, "test.ebj.x");
    fs[17] = NAN;
    auto s = solvers::enhancedBlockJacobi(ebj, upload(fs, "test.ebj.f"), x);
    CHECK(s.outcome == solvers::Outcome::NonFinite);
    fs[17] = 0.5f;
    s = solvers::enhancedBlockJacobi(ebj, upload(fs, "test.ebj.f"), x, {.tolerance = 1e-6f, .maxIterations = 3});
    CHECK(s.outcome == solvers::Outcome::MaxIterations);
    CHECK(s.iterations == 3);
    CHECK(s.checkedAt.back() == 3);
    x.upload(test::randomFloats(120, 402));
    s = solvers::enhancedBlockJacobi(ebj, stream::Vector(120, "test.ebj.zero"), x);
    CHECK(s.converged());
    CHECK(s.iterations == 0);
    for (float v : x.download()) REQUIRE(v == 0.0f);
  }
  SECTION("a singular grid with an inconsistent f says why it stalls") {
    EnhancedBlockJacobi neumann = makeEbj(EbjGrid{.nx = 8, .ny = 5, .x = N, .y = N}, {}, "test.ebj.neumann");
    std::vector<float> fs(40, 1.0f);
    stream::Vector x(40, "test.ebj.x");
    const auto s = solvers::enhancedBlockJacobi(neumann, upload(fs, "test.ebj.f"), x, {.maxIterations = 20});
    CHECK(s.outcome == solvers::Outcome::MaxIterations);
    CHECK_THAT(s.message, Catch::Contains("zero mean"));
  }
}

TEST_CASE("ebjReferenceSweep: the exact solution is its fixed point, and it rejects bad input", "[solvers][ebj]") {
  // Checked against this file's own operator, not the GPU kernel it serves as reference for:
  // a sweep of a (block) Jacobi splitting leaves A x = f's solution where it is.
  for (const EbjGrid g : {EbjGrid{.nx = 8, .ny = 5, .nz = 1, .x = D, .y = N}, EbjGrid{.nx = 12, .ny = 3, .nz = 4, .x = N, .y = D, .z = N},
                          EbjGrid{.nx = 4, .ny = 7, .nz = 1, .x = D, .y = D}}) {
    INFO(g.describe());
    const std::vector<double> f = test::toDouble(test::randomFloats(g.cells(), 31));
    const std::vector<double> solution = test::solveReference(poissonCsr(g), f);
    const EbjKernel kernel(g.nx, g.dimensions(), g.x, EbjOrdering::Stretches);
    std::vector<double> x = solution;
    solvers::ebjReferenceSweep(g, kernel.permutation(), f, x);
    CHECK(maxRelDiff(x, solution) < 1e-9);
    // And a point away from it moves towards it.
    std::vector<double> y(g.cells(), 0.0);
    solvers::ebjReferenceSweep(g, kernel.permutation(), f, y);
    double before = 0, after = 0;
    for (std::size_t i = 0; i < y.size(); ++i) {
      before += solution[i] * solution[i];
      after += (y[i] - solution[i]) * (y[i] - solution[i]);
    }
    CHECK(after < before);
  }
  const EbjGrid g{.nx = 8, .ny = 2, .nz = 1, .x = D, .y = D};
  const EbjKernel kernel(8, 2, D, EbjOrdering::Stretches);
  std::vector<double> x(g.cells(), 0.0), f(g.cells(), 1.0), shortF(3, 1.0);
  CHECK_THROWS_WITH(solvers::ebjReferenceSweep(g, kernel.permutation(), shortF, x), Catch::Contains("f has 3"));
  std::vector<int> bad = kernel.permutation();
  bad[0] = bad[1];
  CHECK_THROWS_WITH(solvers::ebjReferenceSweep(g, bad, f, x), Catch::Contains("not one of the line positions"));
  CHECK_THROWS_WITH(solvers::ebjReferenceSweep({.nx = 6, .ny = 2, .nz = 1}, kernel.permutation(), f, x),
                    Catch::Contains("multiple of 4"));
}
