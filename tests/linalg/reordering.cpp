// Tests src/linalg/Reordering.*: reverse Cuthill–McKee is a permutation that reduces the
// bandwidth of scrambled banded and mesh matrices, handles disconnected graphs and empty
// rows; permuteSymmetric; RowPermutation's gather passes against the CPU, both backends.
#include <catch2/catch.hpp>

#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/linalg/Csr.h>
#include <texstream/linalg/Reordering.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/stream/Vector.h>

#include <algorithm>
#include <numeric>
#include <random>

using namespace texstream;
using linalg::Csr;

namespace {
std::vector<std::int32_t> shuffled(std::size_t n, std::uint64_t seed) {
  std::vector<std::int32_t> p(n);
  std::iota(p.begin(), p.end(), 0);
  std::shuffle(p.begin(), p.end(), std::mt19937_64(seed));
  return p;
}
bool isPermutation(std::vector<std::int32_t> p) {
  std::sort(p.begin(), p.end());
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i] != std::int32_t(i)) return false;
  }
  return true;
}
}  // namespace

TEST_CASE("reverseCuthillMcKee recovers a small bandwidth from a scrambled grid", "[linalg][reordering]") {
  const Csr grid = Csr::poisson2D(40, 25);  // bandwidth 40
  const Csr scrambled = linalg::permuteSymmetric(grid, shuffled(grid.rows, 3));
  REQUIRE(linalg::bandwidth(scrambled) > 500);
  const auto order = linalg::reverseCuthillMcKee(scrambled);
  REQUIRE(order.size() == grid.rows);
  REQUIRE(isPermutation(order));
  const std::size_t band = linalg::bandwidth(scrambled, order);
  CHECK(band <= 30);  // RCM on a 40x25 grid: about the short side
  // The permuted matrix is the same operator: P A P^T (P x) = P (A x).
  const Csr P = linalg::permuteSymmetric(scrambled, order);
  REQUIRE(linalg::bandwidth(P) == band);
  std::vector<double> x(grid.rows);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::sin(double(i));
  const auto y = scrambled.multiply(x);
  std::vector<double> px(x.size());
  for (std::size_t k = 0; k < x.size(); ++k) px[k] = x[std::size_t(order[k])];
  const auto py = P.multiply(px);
  for (std::size_t k = 0; k < x.size(); ++k) REQUIRE(py[k] == Approx(y[std::size_t(order[k])]).margin(1e-12));
}

TEST_CASE("reverseCuthillMcKee: disconnected parts, empty rows, non-symmetric patterns, n = 1", "[linalg][reordering]") {
  const Csr one = Csr::fromTriplets(1, 1, {}, {}, {});
  REQUIRE(linalg::reverseCuthillMcKee(one) == std::vector<std::int32_t>{0});
  // Two chains and isolated vertices, edges only one way (the pattern is symmetrised).
  std::vector<std::int64_t> r, c;
  for (std::int64_t i = 0; i + 2 < 30; i += 2) r.push_back(i), c.push_back(i + 2);
  for (std::int64_t i = 1; i + 2 < 20; i += 2) r.push_back(i + 2), c.push_back(i);
  const Csr a = Csr::fromTriplets(35, 35, r, c, std::vector<double>(r.size(), 1.0));
  const auto order = linalg::reverseCuthillMcKee(a);
  REQUIRE(isPermutation(order));
  CHECK(linalg::bandwidth(a, order) == 1);
  REQUIRE_THROWS_AS(linalg::reverseCuthillMcKee(Csr::fromTriplets(2, 3, {}, {}, {})), std::invalid_argument);
}

TEST_CASE("RowPermutation moves vectors between user and internal order on the GPU", "[gl][linalg][reordering]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  for (std::size_t n : test::awkwardSizes()) {
    INFO("n = " << n);
    // Internal layout larger than n: dead slots read as zero.
    const std::size_t m = n + n / 3 + 1;
    auto slots = shuffled(m, n);
    slots.resize(n);
    const linalg::RowPermutation perm(slots, stream::Layout::withWidth(m, 5), "P");
    const auto xs = test::randomFloats(n, n + 9);
    stream::Vector user(n, "user"), back(n, "back"), internal(perm.internalLayout(), "internal");
    user.upload(xs);
    linalg::fill(internal, 9.0f);
    perm.toInternal(user, internal);
    const auto got = internal.download();
    const auto ref = perm.toInternal(std::vector<double>(xs.begin(), xs.end()));
    for (std::size_t p = 0; p < m; ++p) REQUIRE(got[p] == float(ref[p]));
    linalg::fill(back, 9.0f);
    perm.toUser(internal, back);
    REQUIRE(back.download() == xs);
  }
  REQUIRE_THROWS_AS(linalg::RowPermutation({0, 0}, stream::Layout::forSize(2), "dup"), std::invalid_argument);
}
