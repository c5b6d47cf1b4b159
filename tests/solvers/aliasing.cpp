// Tests aliased arguments of the solvers (src/stream/Aliasing.*): where an algorithm reads
// an input after writing an output (cg, jacobi, jacobiSmooth, a product) the call is
// refused with an error naming the function and both arguments, and nothing is written;
// where the inputs are copied in first (Multigrid::solve, enhancedBlockJacobi, every
// preconditioner's apply) the aliased call gives the same answer as distinct vectors.
#include <catch2/catch.hpp>

#include "solvers/Reference.h"
#include "solvers/multigrid/multigrid_reference.h"
#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/gl/Error.h>
#include <texstream/linalg/Csr.h>
#include <texstream/linalg/StencilMatrix.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/solvers/krylov/ConjugateGradient.h>
#include <texstream/codegen/EbjKernel.h>
#include <texstream/solvers/stationary/EnhancedBlockJacobi.h>
#include <texstream/solvers/multigrid/GridStencil.h>
#include <texstream/solvers/stationary/Jacobi.h>
#include <texstream/solvers/stationary/JacobiPreconditioner.h>
#include <texstream/solvers/multigrid/LayeredStencil.h>
#include <texstream/solvers/multigrid/Multigrid.h>
#include <texstream/solvers/multigrid/MultigridPreconditioner.h>
#include <texstream/stream/Aliasing.h>
#include <texstream/stream/Vector.h>

#include <cmath>

using namespace texstream;
using Catch::Contains;
using solvers::Boundary;
using solvers::GridBoundaries;
using solvers::GridStencil;
using solvers::Multigrid;

namespace {

stream::Vector makeVector(const std::vector<float>& values, const char* name) {
  stream::Vector v(values.size(), name);
  v.upload(values);
  return v;
}

double maxAbsDifference(const std::vector<float>& a, const std::vector<float>& b) {
  REQUIRE(a.size() == b.size());
  double d = 0;
  for (std::size_t i = 0; i < a.size(); ++i) d = std::max(d, std::abs(double(a[i]) - double(b[i])));
  return d;
}

}  // namespace

TEST_CASE("stream::requireDistinct names the function, both arguments and the vector", "[gl][solvers][aliasing]") {
  test::context();
  stream::Vector a(5, "alpha"), b(5, "beta"), empty1, empty2;
  REQUIRE(stream::sameVector(a, a));
  REQUIRE_FALSE(stream::sameVector(a, b));
  REQUIRE_FALSE(stream::sameVector(empty1, empty2));  // both texture 0, yet two vectors
  REQUIRE_NOTHROW(stream::requireDistinct("f", {"out", b}, {"in", a}, "why"));
  REQUIRE_THROWS_AS(stream::requireDistinct("f", {"out", a}, {"in", a}, "why"), gl::Error);
  REQUIRE_THROWS_WITH(stream::requireDistinct("f(\"M\")", {"out", a}, {"in", a}, "it reads in after writing out"),
                      "f(\"M\"): out must not be in (both are vector \"alpha\"): it reads in after writing out");
}

TEST_CASE("cg(A, b, b) is refused naming cg, x and b, and leaves b as it was", "[gl][solvers][cg][aliasing]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  // The 8x8 Poisson problem that "converged" with a true residual of 4.8 when b was x.
  const auto A = linalg::StencilMatrix::poisson2D(8, 8, "poisson8");
  const std::vector<float> bs = test::randomFloats(64, 8);
  stream::Vector b = makeVector(bs, "rhs");
  REQUIRE_THROWS_AS(solvers::cg(A, b, b), gl::Error);
  REQUIRE_THROWS_WITH(solvers::cg(A, b, b), Contains("cg(\"poisson8\")") && Contains("x must not be b") &&
                                                Contains("\"rhs\"") && Contains("separate vector"));
  const solvers::JacobiPreconditioner M(A);
  REQUIRE_THROWS_WITH(solvers::cg(A, b, b, {}, &M), Contains("x must not be b"));
  REQUIRE(b.download() == bs);

  // The same system with a separate x converges to the true solution (the refusal is the
  // only change to aliased calls; distinct vectors solve as before).
  stream::Vector x(64, "x");
  const auto s = solvers::cg(A, b, x, {.tolerance = 1e-6f});
  INFO(s.message);
  REQUIRE(s.converged());
  CHECK(test::trueRelativeResidual(linalg::Csr::poisson2D(8, 8), x.download(), test::toDouble(bs)) <= 1e-5);
}

TEST_CASE("jacobi and jacobiSmooth refuse x = b and x = diag", "[gl][solvers][jacobi][aliasing]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const auto A = linalg::StencilMatrix::poisson2D(7, 5, "poisson7x5");
  const std::vector<float> bs = test::randomFloats(35, 75);
  stream::Vector b = makeVector(bs, "rhs"), x(35, "x"), diag(35, "diag");
  A.diagonal(diag);
  REQUIRE_THROWS_WITH(solvers::jacobi(A, b, b),
                      Contains("jacobi(\"poisson7x5\")") && Contains("x must not be b") && Contains("\"rhs\""));
  REQUIRE_THROWS_WITH(solvers::jacobiSmooth(A, diag, b, b, 3),
                      Contains("jacobiSmooth(\"poisson7x5\")") && Contains("x must not be b"));
  REQUIRE_THROWS_WITH(solvers::jacobiSmooth(A, diag, b, diag, 3),
                      Contains("jacobiSmooth(\"poisson7x5\")") && Contains("x must not be diag") &&
                          Contains("\"diag\""));
  REQUIRE(b.download() == bs);
  REQUIRE_NOTHROW(solvers::jacobiSmooth(A, diag, b, x, 3));
}

TEST_CASE("products refuse y = x: StencilMatrix, LayeredStencil", "[gl][solvers][aliasing]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const auto S = linalg::StencilMatrix::poisson2D(6, 5, "S");
  stream::Vector v = makeVector(test::randomFloats(30, 65), "v");
  REQUIRE_THROWS_WITH(S.apply(v, v), Contains("StencilMatrix(\"S\").apply") && Contains("y must not be x") &&
                                         Contains("\"v\""));
  const GridStencil G = GridStencil::poisson(9, 9, GridBoundaries::all(Boundary::Dirichlet), "G");
  Multigrid mg(G);
  const solvers::LayeredStencil& L = mg.op();
  stream::Vector u = makeVector(test::randomFloats(81, 81), "u");
  REQUIRE_THROWS_WITH(L.apply(u, u), Contains("::apply") && Contains("y must not be x") && Contains("\"u\""));
}

TEST_CASE("Multigrid::solve(b, b) solves in place: the answer of a separate x", "[gl][solvers][multigrid][aliasing]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const GridStencil A = GridStencil::poisson(17, 13, GridBoundaries::all(Boundary::Dirichlet), "mg17x13");
  const std::vector<float> bs = test::randomFloats(A.nodes(), 1713);
  Multigrid mg(A);
  const solvers::IterativeOptions opts{.tolerance = 1e-5f, .maxIterations = 30};
  // Distinct vectors, x starting from b: the aliased call's initial guess.
  stream::Vector b = makeVector(bs, "b"), x = makeVector(bs, "x");
  const auto separate = mg.solve(b, x, opts);
  INFO(separate.message);
  REQUIRE(separate.converged());
  stream::Vector inPlace = makeVector(bs, "inPlace");
  const auto aliased = mg.solve(inPlace, inPlace, opts);
  INFO(aliased.message);
  REQUIRE(aliased.converged());
  CHECK(aliased.iterations == separate.iterations);
  const std::vector<float> xs = inPlace.download();
  CHECK(maxAbsDifference(xs, x.download()) <= 1e-6);
  CHECK(test::trueGridResidual(A, xs, test::toDouble(bs)) <= 1e-4);
}

TEST_CASE("enhancedBlockJacobi(f, f) solves in place: the answer of a separate x", "[gl][solvers][ebj][aliasing]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const solvers::EbjGrid g{.nx = 8, .ny = 6, .nz = 4};
  const std::size_t n = g.cells();
  const std::vector<float> fs = test::randomFloats(n, 864);
  const solvers::IterativeOptions opts{.tolerance = 1e-4f, .maxIterations = 2000, .checkEvery = 8};
  solvers::EnhancedBlockJacobi ebj(g, codegen::ebjSlabKernel(g), "ebj");
  stream::Vector f = makeVector(fs, "f"), x = makeVector(fs, "x");
  const auto separate = solvers::enhancedBlockJacobi(ebj, f, x, opts);
  INFO(separate.message);
  REQUIRE(separate.converged());
  stream::Vector inPlace = makeVector(fs, "inPlace");
  const auto aliased = solvers::enhancedBlockJacobi(ebj, inPlace, inPlace, opts);
  INFO(aliased.message);
  REQUIRE(aliased.converged());
  CHECK(aliased.iterations == separate.iterations);
  const std::vector<float> xs = inPlace.download();
  CHECK(maxAbsDifference(xs, x.download()) <= 1e-6);
  // The true residual in double against the grid's own matrix.
  const auto A = ebj.matrix("ebj.A");
  stream::Vector ax(n, "ax");
  A.apply(inPlace, ax);
  const std::vector<float> axs = ax.download();
  double rr = 0, ff = 0;
  for (std::size_t i = 0; i < n; ++i) {
    rr += (double(fs[i]) - axs[i]) * (double(fs[i]) - axs[i]);
    ff += double(fs[i]) * fs[i];
  }
  CHECK(std::sqrt(rr / ff) <= 2e-4);

  stream::Vector smoothed = makeVector(fs, "smoothed"), smoothedInPlace = makeVector(fs, "smoothedInPlace");
  solvers::enhancedBlockJacobiSmooth(ebj, f, smoothed, 3);
  solvers::enhancedBlockJacobiSmooth(ebj, smoothedInPlace, smoothedInPlace, 3);
  CHECK(maxAbsDifference(smoothedInPlace.download(), smoothed.download()) == 0.0);
}

TEST_CASE("preconditioners apply in place: z = r gives M^-1 r", "[gl][solvers][preconditioner][aliasing]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const GridStencil G = GridStencil::poisson(9, 11, GridBoundaries::all(Boundary::Dirichlet), "G");
  const std::size_t n = G.nodes();
  const std::vector<float> rs = test::randomFloats(n, 911);
  const auto A = linalg::StencilMatrix::poisson2D(9, 11, "A");

  const solvers::IdentityPreconditioner identity;
  stream::Vector r = makeVector(rs, "r");
  identity.apply(r, r);
  CHECK(r.download() == rs);

  const solvers::JacobiPreconditioner jacobi(A);
  stream::Vector z(n, "z");
  r.upload(rs);
  jacobi.apply(r, z);
  jacobi.apply(r, r);
  const std::vector<float> scaled = z.download();
  CHECK(maxAbsDifference(r.download(), scaled) == 0.0);
  for (std::size_t i = 0; i < n; ++i) REQUIRE(double(scaled[i]) == double(rs[i]) / 4.0);

  Multigrid mg(G);
  const solvers::MultigridPreconditioner multigrid(mg, 1);
  r.upload(rs);
  multigrid.apply(r, z);
  multigrid.apply(r, r);
  const std::vector<float> zs = z.download();
  CHECK(maxAbsDifference(r.download(), zs) == 0.0);
  // M^-1 r approximates A^-1 r: one V-cycle reduces the residual of A z = r well below 1.
  CHECK(test::trueGridResidual(G, zs, test::toDouble(rs)) < 0.5);
}
