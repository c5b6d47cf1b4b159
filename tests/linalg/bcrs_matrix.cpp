// Tests src/linalg/BcrsMatrix.*: y = A x against CPU CSR products in double precision for
// 2x2 and 4x4 blocks, with and without reverse Cuthill–McKee, on random non-symmetric
// matrices with 0 to 300 non-zeros per row, empty rows, n = 1 and sizes that leave partial
// blocks, both backends; diag(A); CG on an SPD mesh-like system.
#include <catch2/catch.hpp>

#include "linalg/LinalgTestSupport.h"
#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/linalg/BcrsMatrix.h>
#include <texstream/linalg/Csr.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/solvers/krylov/ConjugateGradient.h>
#include <texstream/solvers/stationary/JacobiPreconditioner.h>
#include <texstream/stream/Vector.h>

#include <random>
#include <stdexcept>

using namespace texstream;
using linalg::BcrsMatrix;
using linalg::BcrsOptions;
using linalg::Csr;
using stream::Vector;

namespace {

Csr randomRows(std::size_t n, int maxPerRow, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::int64_t> r, c;
  for (std::size_t i = 0; i < n; ++i) {
    const int kind = int(rng() % 10);
    int k = kind == 0 ? 0 : kind < 8 ? 1 + int(rng() % 12) : int(rng() % std::uint64_t(maxPerRow + 1));
    if (i == 0) k = maxPerRow;
    for (int j = 0; j < k; ++j) {
      r.push_back(std::int64_t(i));
      // Mostly near the diagonal (so blocks fill a little), some far.
      const std::int64_t near = std::int64_t(i) + std::int64_t(rng() % 9) - 4;
      c.push_back(rng() % 3 == 0 || near < 0 || near >= std::int64_t(n) ? std::int64_t(rng() % n) : near);
    }
    if (kind != 1) r.push_back(std::int64_t(i)), c.push_back(std::int64_t(i));
  }
  const auto v = test::randomFloats(r.size() + 1, seed + 5);
  return Csr::fromTriplets(n, n, r, c, test::toDouble({v.begin(), v.begin() + std::ptrdiff_t(r.size())}));
}

}  // namespace

TEST_CASE("BcrsMatrix: y = A x for 2x2 and 4x4 blocks, with and without RCM", "[gl][linalg][bcrs]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const int block = GENERATE(2, 4);
  const bool rcm = GENERATE(false, true);
  // Both 2x2 layouts on both backends (each backend builds its own by default).
  const bool interleave = GENERATE(false, true);
  INFO("block " << block << ", rcm " << rcm << ", interleave " << interleave);
  for (std::size_t n : {std::size_t(1), std::size_t(2), std::size_t(3), std::size_t(5), std::size_t(97),
                        std::size_t(1000), std::size_t(4097)}) {
    INFO("n = " << n);
    const Csr csr = randomRows(n, std::min<int>(300, int(n)), 13 * n + 1);
    const BcrsMatrix A(csr, "A", {.blockSize = block, .reverseCuthillMcKee = rcm, .interleave = interleave});
    REQUIRE(A.interleaved() == (interleave && block == 2));
    REQUIRE(A.storedBlocks() >= A.blocks());
    if (!rcm) REQUIRE(!A.reordered());
    REQUIRE(A.fillRatio() > 0.0);
    REQUIRE(A.fillRatio() <= 1.0);
    const auto xs = test::randomFloats(n, n + 2);
    const auto ref = csr.multiply(test::toDouble(xs));
    const double scale = test::productScale(csr, test::toDouble(xs));
    Vector x(n, "x"), y(n, "y");
    x.upload(xs);
    linalg::fill(y, -7.0f);
    A.apply(x, y);
    CHECK(test::maxErrorOver(y.download(), ref, scale) <= 2e-6);
    CHECK(test::paddingIsZero(y));
    Vector d(n, "d");
    A.diagonal(d);
    const std::vector<double> diag = csr.diagonal();
    CHECK(test::maxRelativeError(d.download(), diag) <= 1e-7);
  }
}

TEST_CASE("BcrsMatrix: empty matrix, x in another layout, CG on an SPD system", "[gl][linalg][bcrs]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const Csr empty = Csr::fromTriplets(9, 9, {}, {}, {});
  const BcrsMatrix E(empty, "E");
  Vector x(9, "x"), y(9, "y");
  linalg::fill(x, 1.0f);
  linalg::fill(y, 5.0f);
  E.apply(x, y);
  for (float v : y.download()) REQUIRE(v == 0.0f);

  // x in a layout of its own (the kernel reads it with x's width).
  const Csr csr = randomRows(301, 40, 3);
  const BcrsMatrix A(csr, "A", {.blockSize = 4});
  Vector xw(stream::Layout::withWidth(301, 7), "xw"), yw(301, "yw");
  const auto xs = test::randomFloats(301, 17);
  xw.upload(xs);
  A.apply(xw, yw);
  CHECK(test::maxErrorOver(yw.download(), csr.multiply(test::toDouble(xs)), test::productScale(csr, test::toDouble(xs))) <= 2e-6);

  const int block = GENERATE(2, 4);
  const bool rcm = GENERATE(false, true);
  const Csr spd = Csr::poisson2D(37, 29);
  const BcrsMatrix P(spd, "P", {.blockSize = block, .reverseCuthillMcKee = rcm});
  const auto sol = test::randomFloats(spd.rows, 8);
  Vector b(spd.rows, "b"), u(spd.rows, "u");
  b.upload(spd.multiply(test::toDouble(sol)));
  Vector bi = P.makeInternalVector("bi"), ui = P.makeInternalVector("ui");
  P.toInternal(b, bi);
  const auto Pi = P.internal();
  solvers::JacobiPreconditioner M(Pi, P.internalLayout());
  const auto status = solvers::cg(Pi, bi, ui, {.tolerance = 1e-5f, .maxIterations = 2000}, &M);
  INFO(status.message);
  REQUIRE(status.converged());
  P.toUser(ui, u);
  CHECK(test::maxRelativeError(u.download(), test::toDouble(sol)) <= 1e-3);
}

TEST_CASE("BcrsMatrix: bad input gives clear errors", "[gl][linalg][bcrs]") {
  test::context();
  REQUIRE_THROWS_WITH(BcrsMatrix(Csr::poisson2D(3, 3), "A", {.blockSize = 3}), Catch::Contains("block size 3"));
  REQUIRE_THROWS_WITH(BcrsMatrix(Csr::fromTriplets(2, 3, {0}, {2}, {1.0}), "R"), Catch::Contains("not square"));
  const BcrsMatrix A(Csr::poisson2D(3, 3), "A");
  Vector x(8, "short"), y(9, "y");
  REQUIRE_THROWS_WITH(A.apply(x, y), Catch::Contains("short"));
}
