// Tests BandedMatrix::applyAndDot and StencilMatrix::applyAndDot (src/linalg/BandedMatrix.*,
// shaders/linalg/spmv_banded_dot.glsl): y = A x and epilogue(y . x) in one dispatch against
// CPU double references at awkward sizes, with diagonals at unaligned and far offsets; more
// workgroups than one fold step covers; the fragment backend's refusal; the layout check;
// CG on 3D Poisson through the fused product (the compute backend's Chronopoulos-Gear loop)
// in as many iterations as through the product and a separate reduction.
#include <catch2/catch.hpp>

#include "linalg/FusedDotSupport.h"
#include "linalg/LinalgTestSupport.h"
#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/linalg/BandedMatrix.h>
#include <texstream/linalg/Csr.h>
#include <texstream/linalg/StencilMatrix.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/solvers/krylov/ConjugateGradient.h>
#include <texstream/stream/KernelCache.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Scalar.h>
#include <texstream/stream/Vector.h>

#include <cmath>

using namespace texstream;
using linalg::BandedMatrix;
using linalg::Csr;
using stream::Vector;
using test::storeDot;
using test::Unfused;

namespace {

/// A with random diagonals at `offsets` (those inside the matrix), as BandedMatrix and CSR.
struct RandomBanded {
  BandedMatrix gpu;
  Csr csr;
};

RandomBanded randomBanded(std::size_t n, std::uint64_t seed) {
  std::vector<int> offsets;
  for (int off : {0, -1, 1, 2, -3, 5, -8, 33, -61, 1000, -4000}) {
    if (std::abs(off) < int(n)) offsets.push_back(off);
  }
  std::vector<std::vector<float>> diagonals;
  std::vector<std::int64_t> r, c;
  std::vector<double> v;
  for (std::size_t k = 0; k < offsets.size(); ++k) {
    diagonals.push_back(test::randomFloats(n, seed + k));
    for (std::size_t i = 0; i < n; ++i) {
      const long long j = (long long)i + offsets[k];
      if (j < 0 || j >= (long long)n) continue;
      r.push_back(std::int64_t(i)), c.push_back(j), v.push_back(diagonals[k][i]);
    }
  }
  return {BandedMatrix(n, offsets, diagonals, "A"), Csr::fromTriplets(n, n, r, c, v)};
}

/// Checks y = A x and the dot, twice (the scratch counter must be ready again), on a
/// poisoned y and result.
void checkFused(const linalg::LinearOperator& A, const Csr& csr, std::size_t n, std::uint64_t seed) {
  const auto xs = test::randomFloats(n, seed);
  const std::vector<double> ref = csr.multiply(test::toDouble(xs));
  const double yScale = test::productScale(csr, test::toDouble(xs));
  double dot = 0, dotScale = 0;
  for (std::size_t i = 0; i < n; ++i) dot += ref[i] * double(xs[i]), dotScale += std::abs(ref[i] * double(xs[i]));
  Vector x(n, "x"), y(n, "y");
  x.upload(xs);
  stream::Scalar result("dot", std::nanf(""));
  for (int repeat = 0; repeat < 2; ++repeat) {
    INFO("repeat " << repeat);
    linalg::fill(y, -7.0f);
    result.write(std::nanf(""));
    A.applyAndDot(x, y, storeDot(result));
    CHECK(test::maxErrorOver(y.download(), ref, yScale) <= 2e-6);
    CHECK(test::paddingIsZero(y));
    const double got = result.read();
    INFO("dot " << got << ", reference " << dot << ", terms " << dotScale);
    CHECK(std::abs(got - dot) <= 1e-5 * dotScale + 1e-30);
  }
}


}  // namespace

TEST_CASE("BandedMatrix: y = A x with a fused dot (epilogue(y . x)) matches CPU double", "[gl][linalg][banded]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  std::vector<std::size_t> sizes = test::awkwardSizes();
  sizes.push_back(20011);  // 71 x 71 texels: 25 workgroups, folded by the last one
  for (std::size_t n : sizes) {
    INFO("n = " << n);
    const RandomBanded A = randomBanded(n, 7 * n + 3);
    if (backend == stream::Backend::Fragment) {
      // Epilogues run on the compute backend only: the base class's path says so, after
      // the product.
      Vector x(n, "x"), y(n, "y");
      x.upload(test::randomFloats(n, n));
      stream::Scalar result("dot");
      REQUIRE_THROWS_WITH(A.gpu.applyAndDot(x, y, storeDot(result)), Catch::Contains("compute backend only"));
      continue;
    }
    checkFused(A.gpu, A.csr, n, n + 1);
  }
}

TEST_CASE("StencilMatrix: the fused product and dot, over more workgroups than one fold step",
          "[gl][linalg][banded][compute]") {
  // 66 x 65 x 61 = 261690 unknowns: 256 x 256 texels, 256 workgroups, and a 2D Poisson
  // system of 1031 x 1 beside it (one workgroup, a partial one).
  test::context();
  stream::BackendScope compute(stream::Backend::Compute);
  {
    const linalg::StencilMatrix A = linalg::StencilMatrix::poisson3D(66, 65, 61, "P3");
    checkFused(A, Csr::poisson3D(66, 65, 61), A.rows(), 5);
  }
  {
    const linalg::StencilMatrix A = linalg::StencilMatrix::poisson2D(1031, 1, "P2");
    checkFused(A, Csr::poisson2D(1031, 1), A.rows(), 6);
  }
  // 262147 unknowns (257 x 256 texels, 17 x 16 = 272 workgroups): the last workgroup's
  // invocations each fold more than one partial.
  const RandomBanded big = randomBanded(262147, 9);
  checkFused(big.gpu, big.csr, 262147, 10);
  // A grid of fewer workgroups than tiles (Runtime::reductionGroups caps it): each
  // workgroup steps over several tiles, rows of them and, with one group row, all of them.
  stream::Runtime& rt = stream::Runtime::current();
  struct RestoreGroups {
    stream::Runtime& rt;
    int groups;
    ~RestoreGroups() { rt.setReductionGroups(groups); }
  } restore{rt, rt.reductionGroups()};
  for (int cap : {40, 1}) {
    INFO("reductionGroups " << cap);
    rt.setReductionGroups(cap);
    checkFused(big.gpu, big.csr, 262147, 11);
    const linalg::StencilMatrix A = linalg::StencilMatrix::poisson3D(13, 7, 5, "P3small");
    checkFused(A, Csr::poisson3D(13, 7, 5), A.rows(), 12);
  }
}

TEST_CASE("BandedMatrix: applyAndDot refuses vectors it cannot pair", "[gl][linalg][banded][compute]") {
  test::context();
  stream::BackendScope compute(stream::Backend::Compute);
  const RandomBanded A = randomBanded(301, 3);
  stream::Scalar result("dot");
  Vector xw(stream::Layout::withWidth(301, 7), "xw"), y(301, "y");
  linalg::fill(xw, 1.0f);
  // apply() reads x in any layout; y . x needs x in y's.
  REQUIRE_THROWS_WITH(A.gpu.applyAndDot(xw, y, storeDot(result)), Catch::Contains("xw") && Catch::Contains("y's layout"));
  Vector shortX(300, "short");
  REQUIRE_THROWS_WITH(A.gpu.applyAndDot(shortX, y, storeDot(result)), Catch::Contains("short"));
  const linalg::StencilMatrix S = linalg::StencilMatrix::poisson2D(7, 43, "S");
  REQUIRE_THROWS_WITH(S.applyAndDot(xw, y, storeDot(result)), Catch::Contains("StencilMatrix") && Catch::Contains("xw"));
}

TEST_CASE("StencilMatrix: CG through the fused product converges as through the unfused one",
          "[gl][linalg][banded][compute]") {
  test::context();
  stream::BackendScope compute(stream::Backend::Compute);
  const std::size_t nx = GENERATE(std::size_t(1), std::size_t(13), std::size_t(29));
  const std::size_t ny = nx == 1 ? 1 : 11, nz = nx == 1 ? 1 : 7;
  INFO(nx << " x " << ny << " x " << nz);
  const linalg::StencilMatrix A = linalg::StencilMatrix::poisson3D(nx, ny, nz, "P");
  const Csr csr = Csr::poisson3D(nx, ny, nz);
  const std::size_t n = A.rows();
  const auto sol = test::randomFloats(n, n + 3);
  Vector b(n, "b"), x(n, "x"), v(n, "v");
  b.upload(csr.multiply(test::toDouble(sol)));
  const solvers::CgOptions options{.tolerance = 1e-6f, .maxIterations = 500, .checkEvery = 1};
  solvers::SolverStatus fused;
  std::vector<float> solution;
  const test::PassCounts passes = test::countPasses([&] {
    fused = solvers::cg(A, b, x, options);
    solution = x.download();
  });
  const long long fusedPasses = passes.of("StencilMatrix(\"P\").apply + dot");
  INFO(fused.message << "; " << fusedPasses << " fused products");
  REQUIRE(fused.converged());
  CHECK(test::maxRelativeError(solution, test::toDouble(sol)) <= 1e-4);
  if (test::passCountsReadable()) CHECK(fusedPasses >= fused.iterations);
  const auto reference = solvers::cg(Unfused(A), b, v, options);
  INFO(reference.message);
  REQUIRE(reference.converged());
  CHECK(std::abs(fused.iterations - reference.iterations) <= 1 + reference.iterations / 20);
}
