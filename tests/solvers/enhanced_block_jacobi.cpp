// Tests src/solvers/EnhancedBlockJacobi.* and EbjKernel.* (Bajaj et al. 2004, §4.1): the
// generated S-block code against the plain stencil, one GPU sweep against a CPU double
// sweep with the same slab order, convergence to the CPU double solution on Dirichlet,
// Neumann and mixed problems in 2D and 3D (pure Neumann modulo a constant), and errors.
#include <catch2/catch.hpp>

#include "solvers/Reference.h"
#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/codegen/SimdProgram.h>
#include <texstream/gl/Error.h>
#include <texstream/linalg/Csr.h>
#include <texstream/solvers/EnhancedBlockJacobi.h>
#include <texstream/solvers/Jacobi.h>
#include <texstream/stream/Vector.h>

#include <cmath>
#include <numeric>
#include <stdexcept>

using namespace texstream;
using solvers::EbjBoundary;
using solvers::EbjGrid;
using solvers::EbjKernel;
using solvers::EbjOrdering;
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

}  // namespace

TEST_CASE("EbjKernel: the S block, its orderings and their costs", "[solvers][ebj]") {
  SECTION("the paper's costs: 2D line of 8 (6 -> 4), 3D line of 40 (38 -> 20)") {
    const EbjKernel k2(8, 2, N, EbjOrdering::Stretches), k3(40, 3, N, EbjOrdering::Stretches);
    CHECK(k2.naturalCost() == 6);
    CHECK(k2.cost() == 4);
    CHECK(k3.naturalCost() == 38);
    CHECK(k3.cost() == 20);
    CHECK(EbjKernel(40, 3, N, EbjOrdering::Natural).cost() == 38);
    // The paper's a and b: -1/5 on the end rows, -1/6 inside (their sign convention).
    CHECK(k3.sBlock().at(0, 1) == Approx(1.0 / 5.0));
    CHECK(k3.sBlock().at(1, 0) == Approx(1.0 / 6.0));
    CHECK(k3.sBlock().at(39, 38) == Approx(1.0 / 5.0));
    CHECK(EbjKernel(40, 3, D, EbjOrdering::Natural).sBlock().at(0, 1) == Approx(1.0 / 6.0));
  }
  SECTION("annealed: a valid ordering never costlier than the natural one") {
    const EbjKernel k(24, 3, N, EbjOrdering::Annealed, quickSchedule(3));
    CHECK(k.cost() <= k.naturalCost());
    CHECK(k.cost() >= int((k.sBlock().nonzeros() + 3) / 4));
    std::vector<int> sorted = k.permutation();
    std::sort(sorted.begin(), sorted.end());
    for (int i = 0; i < 24; ++i) REQUIRE(sorted[std::size_t(i)] == i);
  }
  SECTION("the compiled program of every ordering computes S x") {
    for (const EbjOrdering o : {EbjOrdering::Natural, EbjOrdering::Stretches, EbjOrdering::Annealed}) {
      for (const int length : {4, 12, 40}) {
        INFO(solvers::ebjOrderingName(o) << ", length " << length);
        const EbjKernel k(length, 3, length == 12 ? D : N, o, quickSchedule(5));
        const std::vector<double> x = test::toDouble(test::randomFloats(std::size_t(length), 11));
        const std::vector<double> want = k.sBlock().evaluate(x);
        const std::vector<double> got =
            codegen::unpermuteVector(codegen::interpret(k.program(), codegen::permuteVector(x, k.permutation())),
                                     k.permutation(), length);
        CHECK(maxRelDiff(got, want) < 1e-14);
        for (int s = 0; s < k.slabs(); ++s) {
          for (int p = 0; p < 4; ++p) {
            const int i = k.permutation()[std::size_t(4 * s + p)];
            CHECK(k.position()[std::size_t(i)] == 4 * s + p);
            CHECK(k.diagonal(s)[std::size_t(p)] == k.diagonalAt(i));
          }
        }
      }
    }
  }
  SECTION("unsupported lines are refused clearly") {
    for (const int bad : {0, 2, 6, 41, 260}) {
      INFO("length " << bad);
      CHECK_THROWS_WITH(EbjKernel(bad, 3, D, EbjOrdering::Natural),
                        Catch::Contains("multiple of 4") && Catch::Contains(std::to_string(bad)));
    }
    CHECK_THROWS_WITH(EbjKernel(8, 4, D, EbjOrdering::Natural), Catch::Contains("dimensions must be 2 or 3"));
    codegen::AnnealingSchedule s;
    s.restarts = 0;
    CHECK_THROWS_WITH(EbjKernel(8, 2, D, EbjOrdering::Annealed, s), Catch::Contains("restarts"));
  }
}

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
    INFO(g.describe() << ", " << solvers::ebjOrderingName(c.ordering));
    EnhancedBlockJacobi ebj(g, {.ordering = c.ordering, .schedule = quickSchedule(seed)}, "test.ebj");
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
    solvers::ebjReferenceSweep(g, ebj.kernel().permutation(), test::toDouble(fs), want);
    solvers::ebjReferenceSweep(g, ebj.kernel().permutation(), test::toDouble(fs), want);
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

    EnhancedBlockJacobi ebj(g, {.ordering = c.ordering}, "test.ebj");
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
    EnhancedBlockJacobi ebj(g, {.ordering = o}, "test.ebj");
    stream::Vector x(n, "test.ebj.x");
    const auto s = solvers::enhancedBlockJacobi(ebj, f, x, {.tolerance = 1e-3f, .maxIterations = 3000, .checkEvery = 1});
    REQUIRE(s.converged());
    return s.iterations;
  };
  const int natural = iterations(EbjOrdering::Natural), stretches = iterations(EbjOrdering::Stretches);
  EnhancedBlockJacobi ebj(g, {}, "test.ebj");
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
    CHECK_THROWS_WITH(EnhancedBlockJacobi(EbjGrid{.nx = 10, .ny = 4}),
                      Catch::Contains("nx = 10") && Catch::Contains("multiple of 4"));
    CHECK_THROWS_WITH(EnhancedBlockJacobi(EbjGrid{.nx = 260, .ny = 4}), Catch::Contains("nx = 260"));
    CHECK_THROWS_WITH(EnhancedBlockJacobi(EbjGrid{.nx = 8, .ny = 0}), Catch::Contains("empty"));
    CHECK_THROWS_WITH(EnhancedBlockJacobi(EbjGrid{.nx = 8, .ny = 4, .nz = 0}), Catch::Contains("empty"));
  }
  EnhancedBlockJacobi ebj(EbjGrid{.nx = 8, .ny = 5, .nz = 3}, {}, "test.ebj");
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
    EnhancedBlockJacobi neumann(EbjGrid{.nx = 8, .ny = 5, .x = N, .y = N}, {}, "test.ebj.neumann");
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
