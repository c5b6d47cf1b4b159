// Tests BcrsMatrix::applyAndDot and applyInternalAndDot (src/linalg/BcrsMatrix.*,
// shaders/sparse/spmv_bcrs_dot.glsl): y = A x and epilogue(y . x) against CPU double
// references for 2x2 and 4x4 blocks, with and without RCM, at n = 1, primes and sizes that
// leave partial blocks, on matrices with empty block rows and block rows of many blocks;
// more workgroups than one fold step covers; the fragment backend's refusal; CG on SPD
// systems through the fused product converging to the known solution, in as many
// iterations as through the unfused one.
#include <catch2/catch.hpp>

#include "linalg/FusedDotSupport.h"
#include "linalg/LinalgTestSupport.h"
#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/linalg/BcrsMatrix.h>
#include <texstream/linalg/Csr.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/solvers/krylov/ConjugateGradient.h>
#include <texstream/solvers/stationary/JacobiPreconditioner.h>
#include <texstream/stream/KernelCache.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Scalar.h>
#include <texstream/stream/Vector.h>

#include <cmath>
#include <random>

using namespace texstream;
using linalg::BcrsMatrix;
using linalg::Csr;
using stream::Vector;
using test::storeDot;
using test::Unfused;

namespace {

// Rows mostly near the diagonal (so blocks fill a little), 1 in 10 empty, a few of up to
// maxPerRow entries spread over the whole row (many blocks), and for n >= 24 the rows
// [n/2 rounded down to 4, + 8) empty: whole block rows without a block for B = 2 and 4.
Csr randomBlocky(std::size_t n, int maxPerRow, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::size_t emptyBegin = n >= 24 ? n / 2 / 4 * 4 : n, emptyEnd = emptyBegin + 8;
  std::vector<std::int64_t> r, c;
  for (std::size_t i = 0; i < n; ++i) {
    if (i >= emptyBegin && i < emptyEnd) continue;
    const int kind = int(rng() % 10);
    if (kind == 0) continue;
    const int k = i == 0 || kind == 9 ? maxPerRow : 1 + int(rng() % 8);
    for (int j = 0; j < k; ++j) {
      r.push_back(std::int64_t(i));
      const std::int64_t near = std::int64_t(i) + std::int64_t(rng() % 9) - 4;
      c.push_back(kind == 9 || near < 0 || near >= std::int64_t(n) ? std::int64_t(rng() % n) : near);
    }
  }
  const auto v = test::randomFloats(r.size() + 1, seed + 5);
  return Csr::fromTriplets(n, n, r, c, test::toDouble({v.begin(), v.begin() + std::ptrdiff_t(r.size())}));
}

// A symmetric matrix with a positive diagonal above the sum of |off-diagonals| of its row
// (SPD by Gershgorin): random neighbours near and far, every block size partly filled.
Csr randomSpd(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::vector<std::int64_t> r, c;
  std::vector<double> v, rowSum(n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    const int k = int(rng() % 6);
    for (int e = 0; e < k; ++e) {
      const std::size_t j = rng() % 4 == 0 ? std::size_t(rng() % n) : std::min(n - 1, i + 1 + std::size_t(rng() % 6));
      if (j == i) continue;
      const double a = value(rng);
      r.push_back(std::int64_t(i)), c.push_back(std::int64_t(j)), v.push_back(a);
      r.push_back(std::int64_t(j)), c.push_back(std::int64_t(i)), v.push_back(a);
      rowSum[i] += std::abs(a);
      rowSum[j] += std::abs(a);
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    r.push_back(std::int64_t(i)), c.push_back(std::int64_t(i)), v.push_back(rowSum[i] + 0.05 + 0.5 * (value(rng) + 1.0));
  }
  return Csr::fromTriplets(n, n, r, c, v);
}

struct Reference {
  std::vector<double> y;
  double yScale = 0;        // the largest sum_j |a_ij x_j|, the scale of y's rounding errors
  double dot = 0, dotScale = 0;  // dotScale: sum |y_i x_i|, the size of the dot's terms
};

Reference reference(const Csr& csr, const std::vector<float>& xs) {
  Reference ref;
  ref.y = csr.multiply(test::toDouble(xs));
  ref.yScale = test::productScale(csr, test::toDouble(xs));
  for (std::size_t i = 0; i < xs.size(); ++i) {
    ref.dot += ref.y[i] * double(xs[i]);
    ref.dotScale += std::abs(ref.y[i] * double(xs[i]));
  }
  return ref;
}

// Runs `product` (y = A x into y, the dot into result) twice, the scratch counter having to
// be ready for the second, on a poisoned y and result, and checks both.
template <class Product>
void checkFused(const Reference& ref, Vector& y, stream::Scalar& result, Product product) {
  for (int repeat = 0; repeat < 2; ++repeat) {
    INFO("repeat " << repeat);
    linalg::fill(y, -7.0f);
    result.write(std::nanf(""));
    product();
    CHECK(test::maxErrorOver(y.download(), ref.y, ref.yScale) <= 2e-6);
    CHECK(test::paddingIsZero(y));
    const double got = result.read();
    INFO("dot " << got << ", reference " << ref.dot << ", terms " << ref.dotScale);
    CHECK(std::abs(got - ref.dot) <= 1e-5 * ref.dotScale + 1e-30);
  }
}

}  // namespace

TEST_CASE("BcrsMatrix: y = A x with a fused dot (epilogue(y . x)) matches CPU double", "[gl][linalg][bcrs]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const int block = GENERATE(2, 4);
  const bool rcm = GENERATE(false, true);
  const bool interleave = GENERATE(false, true);
  INFO("block " << block << ", rcm " << rcm << ", interleave " << interleave);
  stream::Scalar result("dot", std::nanf(""));
  const stream::Epilogue epilogue = storeDot(result);
  // 4099 and 20011: several workgroups (33 x 32 and 71 x 71 texels), so the last one folds
  // the others' partials.
  for (std::size_t n : {std::size_t(1), std::size_t(2), std::size_t(3), std::size_t(5), std::size_t(7),
                        std::size_t(97), std::size_t(1031), std::size_t(4099), std::size_t(20011)}) {
    INFO("n = " << n);
    const Csr csr = randomBlocky(n, std::min<int>(150, int(n)), 31 * n + 7);
    const BcrsMatrix A(csr, "A", {.blockSize = block, .reverseCuthillMcKee = rcm, .interleave = interleave});
    const auto xs = test::randomFloats(n, n + 11);
    const Reference ref = reference(csr, xs);
    Vector x(n, "x"), y(n, "y");
    x.upload(xs);
    if (backend == stream::Backend::Fragment) {
      // Epilogues run on the compute backend only: the base class's path says so, after
      // the product.
      linalg::fill(y, -7.0f);
      REQUIRE_THROWS_WITH(A.applyAndDot(x, y, epilogue), Catch::Contains("compute backend only"));
      CHECK(test::maxErrorOver(y.download(), ref.y, ref.yScale) <= 2e-6);
      continue;
    }
    {
      INFO("user order");
      checkFused(ref, y, result, [&] { A.applyAndDot(x, y, epilogue); });
    }
    {
      INFO("internal order");
      Vector xi = A.makeInternalVector("xi"), yi = A.makeInternalVector("yi");
      A.toInternal(x, xi);
      checkFused(ref, y, result, [&] {
        linalg::fill(yi, -7.0f);
        A.internal().applyAndDot(xi, yi, epilogue);
        A.toUser(yi, y);
      });
    }
  }
}

TEST_CASE("BcrsMatrix: the fused dot folds more workgroups than one fold step", "[gl][linalg][bcrs][compute]") {
  // 262147 rows: 257 x 256 texels, 17 x 16 = 272 workgroups, so the last workgroup's
  // invocations each fold more than one partial (the fold steps by 256). Larger than the
  // other tests' vectors for that reason; a sparse, cheap matrix.
  test::context();
  stream::BackendScope compute(stream::Backend::Compute);
  const int block = GENERATE(2, 4);
  const std::size_t n = 262147;
  const Csr csr = randomBlocky(n, 12, 5);
  const BcrsMatrix A(csr, "A", {.blockSize = block});
  REQUIRE(A.internalLayout().width() == 257);
  stream::Scalar result("dot", std::nanf(""));
  const auto xs = test::randomFloats(n, 6);
  Vector x(n, "x"), y(n, "y");
  x.upload(xs);
  checkFused(reference(csr, xs), y, result, [&] { A.internal().applyAndDot(x, y, storeDot(result)); });
}

TEST_CASE("BcrsMatrix: applyAndDot refuses vectors it cannot pair", "[gl][linalg][bcrs][compute]") {
  test::context();
  stream::BackendScope compute(stream::Backend::Compute);
  const Csr csr = randomBlocky(301, 20, 3);
  const BcrsMatrix A(csr, "A", {.blockSize = 4});
  stream::Scalar result("dot");
  Vector xw(stream::Layout::withWidth(301, 7), "xw"), y(301, "y");
  linalg::fill(xw, 1.0f);
  // apply() reads x in any layout; y . x needs x in y's.
  REQUIRE_THROWS_WITH(A.applyAndDot(xw, y, storeDot(result)), Catch::Contains("xw") && Catch::Contains("y's layout"));
  REQUIRE_THROWS_WITH(A.internal().applyAndDot(y, y, storeDot(result)), Catch::Contains("y must not be x"));
  Vector shortX(300, "short");
  REQUIRE_THROWS_WITH(A.applyAndDot(shortX, y, storeDot(result)), Catch::Contains("short"));
}

TEST_CASE("BcrsMatrix: CG through the fused product converges to the solution", "[gl][linalg][bcrs]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const int block = GENERATE(2, 4);
  const bool rcm = GENERATE(false, true);
  const std::size_t n = GENERATE(std::size_t(1), std::size_t(1009), std::size_t(2003));
  INFO("block " << block << ", rcm " << rcm << ", n = " << n);
  const Csr spd = randomSpd(n, 17 * n + 1);
  const BcrsMatrix A(spd, "A", {.blockSize = block, .reverseCuthillMcKee = rcm});
  const auto sol = test::randomFloats(n, n + 3);
  Vector b(n, "b");
  b.upload(spd.multiply(test::toDouble(sol)));
  const solvers::CgOptions options{.tolerance = 1e-6f, .maxIterations = 500, .checkEvery = 1};

  // User order, unpreconditioned (with RCM: the fused product between the two gathers).
  Vector u(n, "u");
  const auto status = solvers::cg(A, b, u, options);
  INFO(status.message);
  REQUIRE(status.converged());
  CHECK(test::maxRelativeError(u.download(), test::toDouble(sol)) <= 1e-4);

  // The same solve through the base class's product + reduction takes as many iterations
  // (a wrong w . u changes alpha and beta, and with them the iteration count).
  Vector v(n, "v");
  const Unfused unfused(A);
  const auto reference = solvers::cg(unfused, b, v, options);
  INFO(reference.message);
  REQUIRE(reference.converged());
  CHECK(std::abs(status.iterations - reference.iterations) <= 1 + reference.iterations / 20);

  // Internal order with Jacobi, as the apps run it; the profiler counts the passes: on the
  // compute backend every iteration's w = A u carries its dot (no separate reduction).
  Vector bi = A.makeInternalVector("bi"), xi = A.makeInternalVector("xi"), x(n, "x");
  A.toInternal(b, bi);
  const auto Ai = A.internal();
  solvers::JacobiPreconditioner M(Ai, A.internalLayout());
  solvers::SolverStatus jacobi;
  // cg ends with a read-back: every query has landed.
  const test::PassCounts passes = test::countPasses([&] { jacobi = solvers::cg(Ai, bi, xi, options, &M); });
  const std::string fusedLabel = block == 4 ? "spmv_bcrs 4x4 + dot" : "spmv_bcrs 2x2 + dot";
  const long long fusedPasses = passes.of(fusedLabel), dotPasses = passes.of("reduce OP_DOT");
  INFO(jacobi.message << "; " << fusedPasses << " fused products, " << dotPasses << " separate dot reductions");
  REQUIRE(jacobi.converged());
  A.toUser(xi, x);
  CHECK(test::maxRelativeError(x.download(), test::toDouble(sol)) <= 1e-4);
  if (backend == stream::Backend::Compute) {
    CHECK(fusedPasses >= jacobi.iterations);
    CHECK(dotPasses <= 4);  // the set-up's b.b and r.r, the converged solve's true residual (and a restart's)
  } else {
    CHECK(fusedPasses == 0);
  }
}
