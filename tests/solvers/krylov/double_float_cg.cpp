// Tests src/solvers/krylov/DoubleFloatCg.*: CG whose vectors, products and dot products are all
// double-float pairs reaches true relative residuals of 1e-10 (checked in double on the CPU
// against the exact matrix) on a nearly singular system (condition number about 1e9) whose
// entries use all 53 bits; at awkward sizes, with and without Jacobi, reordered or not, on
// both backends; failures and misuse by name. Where a float inner solve cannot do the same
// (a pinching mesh): tests/geometry/curvature_flow.cpp.
#include <catch2/catch.hpp>

#include "solvers/krylov/RefinementSystems.h"
#include "support/Gl.h"

#include <texstream/gl/Error.h>
#include <texstream/linalg/Csr.h>
#include <texstream/linalg/DoubleFloatVector.h>
#include <texstream/linalg/SegmentMatrix.h>
#include <texstream/linalg/StencilMatrix.h>
#include <texstream/solvers/krylov/ConjugateGradient.h>
#include <texstream/solvers/krylov/DoubleFloatCg.h>
#include <texstream/solvers/stationary/JacobiPreconditioner.h>
#include <texstream/stream/Vector.h>

#include <cmath>
#include <numeric>
#include <stdexcept>

using namespace texstream;
using linalg::DoubleFloatVector;
using solvers::Outcome;
using test::randomRhs;
using test::relativeResidual;

namespace {
linalg::SegmentMatrix withTails(const linalg::Csr& csr, const std::string& name) {
  linalg::SegmentOptions options;
  options.entryTails = true;
  return linalg::SegmentMatrix(csr, name, options);
}
}  // namespace

TEST_CASE("Double-float CG reaches 1e-10 on a nearly singular system whose entries float cannot hold",
          "[gl][solvers][refinement][double-float]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const bool jacobi = GENERATE(false, true);
  for (const auto& grid : {std::pair<std::size_t, std::size_t>{1, 1}, {13, 11}, {31, 29}}) {
    const std::size_t nx = grid.first, ny = grid.second, n = nx * ny;
    INFO(nx << " x " << ny << (jacobi ? ", Jacobi" : ", plain"));
    const linalg::Csr exact = test::nearlySingularLaplacian(nx, ny, 1e-9);
    const linalg::SegmentMatrix A = withTails(exact, "laplacian");
    REQUIRE(A.hasEntryTails() == (n > 1));  // one vertex: no edges, the diagonal 1
    const solvers::JacobiPreconditioner M(A, stream::Layout::forSize(n));
    // b = A x* for a random x*: the solution is not dominated by the nearly singular
    // constant vector, so pairs can hold a residual of 1e-10 (for a solution 1e9 times b's
    // mean, no 48 or 53 bits could).
    const auto rhs = exact.multiply(randomRhs(n, 31 + n));
    DoubleFloatVector b(n, "b"), x(n, "x");
    b.upload(rhs);
    const auto status = solvers::doubleFloatCg(A, b, x, {.tolerance = 1e-10f, .maxIterations = 4000},
                                               jacobi ? M.inverseDiagonal() : nullptr);
    INFO(status.message);
    REQUIRE(status.converged());
    REQUIRE(status.relativeResidual <= 1e-10);
    REQUIRE(relativeResidual(exact, x.download(), rhs) <= 1.5e-10);
    if (n == 1) continue;

    // Float CG on the same system stops far above that (its floor is about 1e-7).
    stream::Vector bf(n, "bf"), xf(n, "xf");
    std::vector<float> rhsFloat(rhs.begin(), rhs.end());
    bf.upload(rhsFloat);
    const auto single = solvers::cg(A, bf, xf, {.tolerance = 1e-10f, .maxIterations = 4000},
                                    jacobi ? &M : nullptr);
    const auto xSingle = xf.download();
    INFO("float CG: " << single.message);
    REQUIRE(relativeResidual(exact, std::vector<double>(xSingle.begin(), xSingle.end()), rhs) > 1e-8);
  }
}

TEST_CASE("Defect correction with double-float CG reaches 1e-12 from a host defect and keeps its iteration cap",
          "[gl][solvers][refinement][double-float]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  for (const auto& grid : {std::pair<std::size_t, std::size_t>{1, 1}, {7, 5}, {29, 23}}) {
    const std::size_t n = grid.first * grid.second;
    INFO(grid.first << " x " << grid.second);
    const linalg::Csr exact = test::nearlySingularLaplacian(grid.first, grid.second, 1e-9);
    const linalg::SegmentMatrix A = withTails(exact, "laplacian");
    const solvers::JacobiPreconditioner M(A, stream::Layout::forSize(n));
    const auto rhs = exact.multiply(randomRhs(n, 7 + n));
    std::vector<double> x(n, 0.0);
    solvers::PairDefectCorrection host;
    host.rightHandSideNorm = std::sqrt(std::inner_product(rhs.begin(), rhs.end(), rhs.begin(), 0.0));
    host.defect = [&](DoubleFloatVector& r) {
      const std::vector<double> Ax = exact.multiply(x);
      std::vector<double> d(n);
      for (std::size_t i = 0; i < n; ++i) d[i] = rhs[i] - Ax[i];
      r.upload(d);
      return std::sqrt(std::inner_product(d.begin(), d.end(), d.begin(), 0.0));
    };
    auto correct = [&](const DoubleFloatVector& c, double sign) {
      const std::vector<double> cd = c.download();
      for (std::size_t i = 0; i < n; ++i) x[i] += sign * cd[i];
    };
    host.addCorrection = [&](const DoubleFloatVector& c) { correct(c, 1.0); };
    host.subtractCorrection = [&](const DoubleFloatVector& c) { correct(c, -1.0); };
    const stream::Layout layout = stream::Layout::forSize(n);

    // The cap counts the inner solves' iterations together: a small one ends the refinement
    // as MaxIterations within it, with x moved towards the solution.
    if (n > 1) {
      const auto capped = solvers::refineWithDoubleFloatCg(layout, host, A, {.tolerance = 1e-12f, .maxIterations = 20}, {},
                                                           M.inverseDiagonal());
      INFO(capped.message);
      REQUIRE(capped.outcome == Outcome::MaxIterations);
      REQUIRE(capped.iterations <= 20);
      REQUIRE(relativeResidual(exact, x, rhs) == Approx(capped.relativeResidual).epsilon(1e-6));
      REQUIRE(capped.relativeResidual < 1.0);
    }
    const auto status = solvers::refineWithDoubleFloatCg(layout, host, A, {.tolerance = 1e-12f, .maxIterations = 20000}, {},
                                                         M.inverseDiagonal());
    INFO(status.message);
    REQUIRE(status.converged());
    REQUIRE(relativeResidual(exact, x, rhs) <= 1e-12);
    REQUIRE(status.iterations <= 20000);
  }
}

TEST_CASE("Double-float CG solves a reordered matrix and keeps the initial guess", "[gl][solvers][refinement][double-float]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const std::size_t nx = 23, ny = 17, n = nx * ny;
  const linalg::Csr exact = test::nearlySingularLaplacian(nx, ny, 1e-3);
  linalg::SegmentOptions options;
  options.entryTails = true;
  options.packing = linalg::SegmentPacking::IdenticalTiles;
  const linalg::SegmentMatrix A(exact, "tiles", options);
  const auto rhs = randomRhs(n, 5);
  DoubleFloatVector b(n, "b"), x(n, "x");
  b.upload(rhs);
  const auto first = solvers::doubleFloatCg(A, b, x, {.tolerance = 1e-6f});
  REQUIRE(first.converged());
  // From that guess the next solve starts at its residual and needs fewer iterations.
  const auto second = solvers::doubleFloatCg(A, b, x, {.tolerance = 1e-10f});
  INFO(first.message << " / " << second.message);
  REQUIRE(second.converged());
  REQUIRE(second.residualHistory.front() <= 1e-6);
  REQUIRE(relativeResidual(exact, x.download(), rhs) <= 1.5e-10);
}

TEST_CASE("Double-float CG reports breakdown, zero right-hand sides and misuse by name", "[gl][solvers][refinement][double-float]") {
  test::context();
  const std::size_t n = 12;
  const linalg::Csr laplacian = test::nearlySingularLaplacian(4, 3, 1e-3);
  linalg::Csr negative = laplacian;
  for (double& v : negative.values) v = -v;
  const linalg::SegmentMatrix A(laplacian, "A"), N(negative, "negated");
  DoubleFloatVector b(n, "b"), x(n, "x"), x11(11, "x11");
  b.upload(randomRhs(n, 3));

  const auto broken = solvers::doubleFloatCg(N, b, x, {.tolerance = 1e-10f, .checkEvery = 1});
  INFO(broken.message);
  REQUIRE(broken.outcome == Outcome::Breakdown);
  REQUIRE_THAT(broken.message, Catch::Contains("negated") && Catch::Contains("positive definite"));

  DoubleFloatVector zero(n, "zero");
  x.upload(randomRhs(n, 4));
  const auto trivial = solvers::doubleFloatCg(A, zero, x);
  REQUIRE(trivial.converged());
  for (double v : x.download()) REQUIRE(v == 0.0);

  const auto stencil = linalg::StencilMatrix::poisson2D(4, 3, "stencil");
  REQUIRE_THROWS_WITH(solvers::doubleFloatCg(stencil, b, x), Catch::Contains("stencil") && Catch::Contains("no double-float product"));
  REQUIRE_THROWS_WITH(solvers::doubleFloatCg(A, b, x11), Catch::Contains("x11"));
  stream::Vector weight(11, "weight11");
  REQUIRE_THROWS_WITH(solvers::doubleFloatCg(A, b, x, {}, &weight), Catch::Contains("weight11"));
  REQUIRE_THROWS_AS(solvers::doubleFloatCg(A, b, x, {.tolerance = 0.0f}), std::invalid_argument);
  REQUIRE_THROWS_AS(solvers::doubleFloatCg(A, b, x, {.maxIterations = 10, .fixedIterations = true}), std::invalid_argument);
}
