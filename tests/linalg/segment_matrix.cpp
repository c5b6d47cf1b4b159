// Tests src/linalg/SegmentMatrix.*: y = A x against CPU CSR products in double precision on
// random non-symmetric matrices with 0 to 300 off-diagonal non-zeros per row (long rows take
// several passes), empty rows and n = 1, both packings, both segment layouts (consecutive,
// interleaved; the default follows the backend), both backends, in user and internal order;
// A^T; values written through the documented texel mapping; CG on SPD systems.
#include <catch2/catch.hpp>

#include "linalg/LinalgTestSupport.h"
#include "support/Features.h"
#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/linalg/Csr.h>
#include <texstream/linalg/SegmentMatrix.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/solvers/krylov/ConjugateGradient.h>
#include <texstream/solvers/stationary/JacobiPreconditioner.h>
#include <texstream/stream/ElementCopy.h>
#include <texstream/stream/KernelCache.h>
#include <texstream/stream/Runtime.h>
#include <texstream/stream/Scalar.h>
#include <texstream/stream/Vector.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <set>
#include <stdexcept>

using namespace texstream;
using linalg::Csr;
using linalg::SegmentMatrix;
using linalg::SegmentOptions;
using linalg::SegmentPacking;
using stream::Vector;

namespace {

/// n x n, non-symmetric; row lengths drawn from {0 (empty row), 1..12 (mesh-like), up to
/// maxPerRow}, a diagonal entry in most rows only, duplicates summed.
Csr randomRows(std::size_t n, int maxPerRow, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::int64_t> r, c;
  for (std::size_t i = 0; i < n; ++i) {
    const int kind = int(rng() % 10);
    int k = kind == 0 ? 0 : kind < 8 ? 1 + int(rng() % 12) : int(rng() % std::uint64_t(maxPerRow + 1));
    if (i == 0) k = std::min<int>(maxPerRow, int(n));  // the longest row always present
    for (int j = 0; j < k; ++j) {
      r.push_back(std::int64_t(i));
      c.push_back(std::int64_t(rng() % n));
    }
    if (kind != 1) {
      r.push_back(std::int64_t(i));
      c.push_back(std::int64_t(i));
    }
  }
  const auto v = test::randomFloats(r.size() + 1, seed + 5);
  return Csr::fromTriplets(n, n, r, c, test::toDouble({v.begin(), v.begin() + std::ptrdiff_t(r.size())}));
}

int maxOffDiagonal(const Csr& a) {
  int most = 0;
  for (std::size_t i = 0; i < a.rows; ++i) {
    int k = 0;
    for (std::int64_t e = a.rowPtr[i]; e < a.rowPtr[i + 1]; ++e) k += std::size_t(a.colIdx[std::size_t(e)]) != i;
    most = std::max(most, k);
  }
  return most;
}

Csr transpose(const Csr& a) {
  std::vector<std::int64_t> r, c;
  for (std::size_t i = 0; i < a.rows; ++i) {
    for (std::int64_t e = a.rowPtr[i]; e < a.rowPtr[i + 1]; ++e) {
      r.push_back(a.colIdx[std::size_t(e)]);
      c.push_back(std::int64_t(i));
    }
  }
  return Csr::fromTriplets(a.cols, a.rows, r, c, a.values);
}

/// A symmetric positive definite mesh-like system: the graph Laplacian of a triangulated
/// nx x ny grid (6 neighbours inside, like a regular triangle mesh) plus a mass diagonal.
Csr meshLaplacian(std::size_t nx, std::size_t ny, double mass) {
  std::vector<std::int64_t> r, c;
  std::vector<double> v;
  auto edge = [&](std::size_t a, std::size_t b) {
    for (auto [i, j] : {std::pair{a, b}, std::pair{b, a}}) {
      r.push_back(std::int64_t(i)), c.push_back(std::int64_t(j)), v.push_back(-1.0);
      r.push_back(std::int64_t(i)), c.push_back(std::int64_t(i)), v.push_back(1.0);
    }
  };
  for (std::size_t y = 0; y < ny; ++y) {
    for (std::size_t x = 0; x < nx; ++x) {
      const std::size_t i = y * nx + x;
      r.push_back(std::int64_t(i)), c.push_back(std::int64_t(i)), v.push_back(mass);
      if (x + 1 < nx) edge(i, i + 1);
      if (y + 1 < ny) edge(i, i + nx);
      if (x + 1 < nx && y + 1 < ny) edge(i, i + nx + 1);
    }
  }
  return Csr::fromTriplets(nx * ny, nx * ny, r, c, v);
}

SegmentOptions packingOption(SegmentPacking p) {
  SegmentOptions o;
  o.packing = p;
  o.tileWidth = 4, o.tileHeight = 3;  // small tiles: several per test matrix, ragged ends
  return o;
}

void checkProduct(const SegmentMatrix& A, const Csr& csr, std::uint64_t seed) {
  const std::size_t n = csr.rows;
  const auto xs = test::randomFloats(n, seed);
  const auto ref = csr.multiply(test::toDouble(xs));
  const double scale = test::productScale(csr, test::toDouble(xs));
  // User order.
  Vector x(n, "x"), y(n, "y");
  x.upload(xs);
  linalg::fill(y, -7.0f);
  A.apply(x, y);
  CHECK(test::maxErrorOver(y.download(), ref, scale) <= 2e-6);
  CHECK(test::paddingIsZero(y));
  // Internal order: one product, vectors moved once.
  Vector xi = A.makeInternalVector("xi"), yi = A.makeInternalVector("yi");
  linalg::fill(xi, 3.0f);
  A.toInternal(x, xi);
  linalg::fill(yi, -5.0f);
  A.applyInternal(xi, yi);
  std::vector<float> got = yi.download();
  std::vector<double> gotDouble(got.begin(), got.end());
  const auto user = A.permutation().toUser(gotDouble);
  CHECK(test::maxErrorOver(std::vector<float>(user.begin(), user.end()), ref, scale) <= 2e-6);
  for (std::size_t p = 0; p < got.size(); ++p) {
    if (A.internalToUser()[p] < 0) CHECK(got[p] == 0.0f);  // dead slots stay zero
  }
  CHECK(test::paddingIsZero(yi));
}

}  // namespace

TEST_CASE("SegmentMatrix: y = A x for rows of 0 to 300 non-zeros, both packings", "[gl][linalg][segment]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const SegmentPacking packing = GENERATE(SegmentPacking::GroupRectangles, SegmentPacking::IdenticalTiles);
  // Variants: defaults (the backend's segment layout); the other segment layout
  // (consecutive on compute, interleaved on fragment); no merging of small groups (one
  // program per bucketed count, Bolz's plain scheme).
  const int variant = GENERATE(0, 1, 2);
  SegmentOptions options = packingOption(packing);
  if (variant == 1) options.interleave = !linalg::resolveInterleave(options);
  if (variant == 2) options.mergeBelow = 0;
  INFO("packing: " << linalg::packingName(packing) << ", variant " << variant);
  for (std::size_t n : {std::size_t(1), std::size_t(2), std::size_t(7), std::size_t(97), std::size_t(1000),
                        std::size_t(4097)}) {
    INFO("n = " << n);
    const Csr csr = randomRows(n, n >= 1000 ? 300 : int(n), 31 * n + 7);
    const SegmentMatrix A(csr, "A", options);
    if (n >= 1000) {
      REQUIRE(maxOffDiagonal(csr) >= 250);
      REQUIRE(A.layout().passesPerApply() > int(A.layout().groups.size()));  // long rows took extra passes
    }
    REQUIRE(A.rows() == n);
    REQUIRE(A.internalLayout().size() >= n);
    REQUIRE(A.layout().paddingRatio() >= 1.0);
    checkProduct(A, csr, n + 3);
    Vector d(n, "d");
    A.diagonal(d);
    const std::vector<double> diag = csr.diagonal();
        CHECK(test::maxRelativeError(d.download(), diag) <= 1e-7);
  }
}

TEST_CASE("SegmentMatrix: the segment layout follows the backend unless chosen", "[gl][linalg][segment]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const bool compute = stream::Runtime::current().backend() == stream::Backend::Compute;
  const SegmentPacking packing = GENERATE(SegmentPacking::GroupRectangles, SegmentPacking::IdenticalTiles);
  const Csr csr = randomRows(2001, 20, 5);
  // Unset: interleaved on compute, consecutive on fragment; the layout then stays.
  const SegmentMatrix byBackend(csr, "byBackend", packingOption(packing));
  REQUIRE(byBackend.layout().interleaved == compute);
  REQUIRE(byBackend.transposed("t").layout().interleaved == compute);
  for (const bool interleave : {false, true}) {
    SegmentOptions options = packingOption(packing);
    options.interleave = interleave;
    const SegmentMatrix A(csr, "A", options);
    REQUIRE(A.layout().interleaved == interleave);
    for (const auto& g : A.layout().groups) {
      const int tile = options.tileWidth * options.tileHeight;
      if (!interleave) REQUIRE(g.stride == 1);
      else if (packing == SegmentPacking::IdenticalTiles) REQUIRE(g.stride == tile);
      else REQUIRE(std::size_t(g.stride) == g.texels);
    }
    checkProduct(A, csr, 14 + int(interleave));
  }
}

TEST_CASE("SegmentMatrix: groups cover every internal texel once, rows sorted by count", "[gl][linalg][segment]") {
  test::context();
  const SegmentPacking packing = GENERATE(SegmentPacking::GroupRectangles, SegmentPacking::IdenticalTiles);
  const Csr csr = randomRows(3001, 40, 11);
  const SegmentMatrix A(csr, "A", packingOption(packing));
  const auto& layout = A.internalLayout();
  std::vector<int> covered(layout.texels(), 0);
  int previousK = 1 << 30;
  for (const auto& g : A.layout().groups) {
    REQUIRE(g.k < previousK);  // decreasing cost, one group per program
    previousK = g.k;
    for (const auto& r : g.rects) {
      for (int y = r.y; y < r.y + r.h; ++y) {
        for (int x = r.x; x < r.x + r.w; ++x) ++covered[std::size_t(y) * std::size_t(layout.width()) + std::size_t(x)];
      }
    }
  }
  for (int c : covered) REQUIRE(c == 1);
  if (packing == SegmentPacking::GroupRectangles) {
    // Internal order is by decreasing off-diagonal count.
    std::vector<int> count(csr.rows, 0);
    for (std::size_t i = 0; i < csr.rows; ++i) {
      for (std::int64_t e = csr.rowPtr[i]; e < csr.rowPtr[i + 1]; ++e) count[i] += std::size_t(csr.colIdx[std::size_t(e)]) != i;
    }
    for (std::size_t p = 1; p < csr.rows; ++p) {
      REQUIRE(count[std::size_t(A.internalToUser()[p - 1])] >= count[std::size_t(A.internalToUser()[p])]);
    }
    REQUIRE(A.layout().groups.size() <= 40);
    for (const auto& g : A.layout().groups) REQUIRE(g.rects.size() <= 3);  // one rectangle plus ragged rows
  }
}

TEST_CASE("SegmentMatrix: small groups join larger ones (one pass for a near-regular mesh)", "[gl][linalg][segment]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  // 6 neighbours per row (a ring of offsets), three rows with 5: like an icosphere.
  const std::size_t n = 3001;
  std::vector<std::int64_t> r, c;
  for (std::size_t i = 0; i < n; ++i) {
    r.push_back(std::int64_t(i)), c.push_back(std::int64_t(i));
    for (std::int64_t d : {1, 2, 40, -1, -2, -40}) {
      if ((i == 7 || i == 500 || i == 2999) && d == 40) continue;
      r.push_back(std::int64_t(i)), c.push_back((std::int64_t(i) + d + std::int64_t(n)) % std::int64_t(n));
    }
  }
  const auto v = test::randomFloats(r.size(), 41);
  const Csr csr = Csr::fromTriplets(n, n, r, c, test::toDouble(v));
  const SegmentPacking packing = GENERATE(SegmentPacking::GroupRectangles, SegmentPacking::IdenticalTiles);
  SegmentOptions merged = packingOption(packing), plain = packingOption(packing);
  plain.mergeBelow = 0;
  const SegmentMatrix A(csr, "merged", merged), B(csr, "plain", plain);
  REQUIRE(A.layout().groups.size() == 1);
  REQUIRE(A.layout().groups[0].k == 6);
  REQUIRE(B.layout().groups.size() >= 2);
  // On the compute backend one group of short rows runs one program per group, more
  // groups the span kernel: both are checked here.
  REQUIRE(A.computeProductPerGroup());
  REQUIRE_FALSE(B.computeProductPerGroup());
  checkProduct(A, csr, 12);
  checkProduct(B, csr, 13);
}

TEST_CASE("SegmentMatrix: one group of long rows keeps the span kernel's lanes", "[gl][linalg][segment]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  // 20 off-diagonal entries in every row of a cyclic band: one group, K = 20 (4 lanes).
  const std::size_t n = 997;
  std::vector<std::int64_t> r, c;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::int64_t d = -10; d <= 10; ++d) {
      r.push_back(std::int64_t(i)), c.push_back((std::int64_t(i) + d + std::int64_t(n)) % std::int64_t(n));
    }
  }
  const auto v = test::randomFloats(r.size(), 43);
  const Csr csr = Csr::fromTriplets(n, n, r, c, test::toDouble(v));
  const SegmentMatrix A(csr, "band20");
  REQUIRE(A.layout().groups.size() == 1);
  REQUIRE(A.layout().groups[0].k == 20);
  REQUIRE_FALSE(A.computeProductPerGroup());
  checkProduct(A, csr, 14);
}

TEST_CASE("SegmentMatrix: empty rows, zero matrix, n = 1, diagonal only", "[gl][linalg][segment]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  // n = 1 with a diagonal entry, and with none.
  for (double a : {2.5, 0.0}) {
    Csr one = a == 0.0 ? Csr::fromTriplets(1, 1, {}, {}, {}) : Csr::fromTriplets(1, 1, {0}, {0}, {a});
    const SegmentMatrix A(one, "one");
    checkProduct(A, one, 5);
  }
  // All rows empty.
  const Csr empty = Csr::fromTriplets(13, 13, {}, {}, {});
  checkProduct(SegmentMatrix(empty, "empty"), empty, 6);
  // Diagonal only.
  std::vector<std::int64_t> idx{0, 1, 2, 3, 4, 5, 6, 7, 8};
  const auto v = test::randomFloats(9, 3);
  const Csr diag = Csr::fromTriplets(9, 9, idx, idx, test::toDouble(v));
  checkProduct(SegmentMatrix(diag, "diag", packingOption(SegmentPacking::IdenticalTiles)), diag, 7);
}

TEST_CASE("SegmentMatrix::transposed gives A^T x in the same internal order", "[gl][linalg][segment]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const SegmentPacking packing = GENERATE(SegmentPacking::GroupRectangles, SegmentPacking::IdenticalTiles);
  const bool interleave = GENERATE(false, true);
  const Csr csr = randomRows(501, 90, 77);
  SegmentOptions options = packingOption(packing);
  options.interleave = interleave;
  const SegmentMatrix A(csr, "A", options);
  const SegmentMatrix At = A.transposed("At");
  REQUIRE(At.internalLayout() == A.internalLayout());
  REQUIRE(At.userToInternal() == A.userToInternal());
  checkProduct(At, transpose(csr), 8);
}

TEST_CASE("SegmentMatrix: setValues with a separate diagonal on a pattern without one", "[gl][linalg][segment]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  for (const std::size_t n : {std::size_t(1), std::size_t(37), std::size_t(611)}) {
    INFO(n << " rows");
    // A mesh-like pattern: off-diagonal entries only; the diagonal comes on its own.
    Csr full = randomRows(n, 9, 41 + n);
    Csr offPattern;
    offPattern.rows = offPattern.cols = n;
    offPattern.rowPtr.assign(n + 1, 0);
    std::vector<double> diagonal(n, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
      for (auto e = full.rowPtr[i]; e < full.rowPtr[i + 1]; ++e) {
        const std::size_t j = std::size_t(full.colIdx[std::size_t(e)]);
        if (j == i) {
          diagonal[i] += full.values[std::size_t(e)];
          continue;
        }
        offPattern.colIdx.push_back(std::int32_t(j));
        offPattern.values.push_back(full.values[std::size_t(e)]);
      }
      offPattern.rowPtr[i + 1] = std::int64_t(offPattern.colIdx.size());
    }
    const auto extra = test::randomFloats(n, 43 + n);
    for (std::size_t i = 0; i < n; ++i) diagonal[i] += 2.0 + extra[i];
    // The expected matrix: the off-diagonal entries plus the diagonal, as one CSR.
    std::vector<std::int64_t> rows, cols;
    std::vector<double> values;
    for (std::size_t i = 0; i < n; ++i) {
      rows.push_back(std::int64_t(i)), cols.push_back(std::int64_t(i)), values.push_back(diagonal[i]);
      for (auto e = offPattern.rowPtr[i]; e < offPattern.rowPtr[i + 1]; ++e)
        rows.push_back(std::int64_t(i)), cols.push_back(offPattern.colIdx[std::size_t(e)]),
            values.push_back(offPattern.values[std::size_t(e)]);
    }
    const Csr expected = Csr::fromTriplets(n, n, rows, cols, values);
    SegmentMatrix A = SegmentMatrix::fromPattern(offPattern, "A");
    A.setValues(offPattern.values, diagonal);
    checkProduct(A, expected, 12);
    // Setting again replaces the diagonal rather than adding to the last one.
    A.setValues(offPattern.values, diagonal);
    checkProduct(A, expected, 13);
    REQUIRE_THROWS_WITH(A.setValues(offPattern.values, std::vector<double>(n + 1, 1.0)),
                        Catch::Contains("diagonal values for"));
    std::vector<double> bad = diagonal;
    bad[n / 2] = std::nan("");
    REQUIRE_THROWS_WITH(A.setValues(offPattern.values, bad), Catch::Contains("diagonal value " + std::to_string(n / 2)));
  }
}

TEST_CASE("SegmentMatrix: values from setValues and written through the texel mapping", "[gl][linalg][segment]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const Csr csr = randomRows(777, 30, 19);
  SegmentOptions options;
  options.interleave = GENERATE(false, true);
  SegmentMatrix A = SegmentMatrix::fromPattern(csr, "A", options);
  // Zero values: the product is zero.
  Csr zero = csr;
  std::fill(zero.values.begin(), zero.values.end(), 0.0);
  checkProduct(A, zero, 9);
  A.setValues(csr.values);
  checkProduct(A, csr, 10);
  const Csr back = A.toCsr();
  REQUIRE(back.values.size() == csr.values.size());
  for (std::size_t e = 0; e < csr.values.size(); ++e) REQUIRE(back.values[e] == Approx(float(csr.values[e])));

  // Write new values straight into the textures, as a GPU pass would: entry e lives at
  // layout().entrySlots[e], and layout().slotEntries inverts that for the off-diagonal values.
  Csr other = csr;
  const auto fresh = test::randomFloats(csr.values.size(), 23);
  for (std::size_t e = 0; e < fresh.size(); ++e) other.values[e] = fresh[e];
  std::vector<float> values(4 * std::size_t(A.offDiagonalValues().width()) * std::size_t(A.offDiagonalValues().height()), 0.0f);
  for (std::size_t s = 0; s < values.size(); ++s) {
    if (A.layout().slotEntries[s] >= 0) values[s] = fresh[std::size_t(A.layout().slotEntries[s])];
  }
  std::vector<float> diagonal(A.internalLayout().paddedSize(), 0.0f);
  for (std::size_t p = 0; p < A.internalLayout().size(); ++p) diagonal[p] = A.internalToUser()[p] < 0 ? 1.0f : 0.0f;
  for (std::size_t e = 0; e < fresh.size(); ++e) {
    const auto& slot = A.layout().entrySlots[e];
    if (!slot.diagonal) {
      const std::size_t s = 4 * (std::size_t(slot.y) * std::size_t(A.layout().valuesWidth) + std::size_t(slot.x)) + std::size_t(slot.channel);
      REQUIRE(A.layout().slotEntries[s] == std::int64_t(e));
      continue;
    }
    const std::size_t p = 4 * (std::size_t(slot.y) * std::size_t(A.internalLayout().width()) + std::size_t(slot.x)) +
                          std::size_t(slot.channel);
    const auto row = std::upper_bound(csr.rowPtr.begin(), csr.rowPtr.end(), std::int64_t(e)) - csr.rowPtr.begin() - 1;
    REQUIRE(A.internalToUser()[p] == std::int32_t(row));
    diagonal[p] += fresh[e];
  }
  A.mutableOffDiagonalValues().upload(values.data());
  A.mutableDiagonal().upload(diagonal.data());
  checkProduct(A, other, 11);

  // Off-diagonal row sums: (A - D) 1.
  Vector ones = A.makeInternalVector("ones"), sums = A.makeInternalVector("sums");
  Vector onesUser(csr.rows, "onesUser");
  linalg::fill(onesUser, 1.0f);
  A.toInternal(onesUser, ones);
  A.applyOffDiagonal(ones, sums);
  const auto got = sums.download();
  for (std::size_t i = 0; i < csr.rows; ++i) {
    double s = 0, scale = 1e-30;
    for (std::int64_t e = other.rowPtr[i]; e < other.rowPtr[i + 1]; ++e) {
      if (std::size_t(other.colIdx[std::size_t(e)]) == i) continue;
      s += other.values[std::size_t(e)], scale += std::abs(other.values[std::size_t(e)]);
    }
    REQUIRE(std::abs(got[std::size_t(A.userToInternal()[i])] - s) <= 1e-6 * scale + 1e-7);
  }
}

TEST_CASE("SegmentMatrix: CG on SPD mesh systems converges in internal order", "[gl][linalg][segment]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const SegmentPacking packing = GENERATE(SegmentPacking::GroupRectangles, SegmentPacking::IdenticalTiles);
  const Csr csr = meshLaplacian(61, 47, 0.05);
  const std::size_t n = csr.rows;
  SegmentOptions options = packingOption(packing);
  options.interleave = packing == SegmentPacking::IdenticalTiles;
  const SegmentMatrix A(csr, "L", options);
  const auto xs = test::randomFloats(n, 4);
  const auto bRef = csr.multiply(test::toDouble(xs));
  Vector bUser(n, "b"), xUser(n, "x");
  bUser.upload(bRef);
  Vector b = A.makeInternalVector("bi"), x = A.makeInternalVector("xi");
  A.toInternal(bUser, b);
  const auto Ai = A.internal();
  solvers::JacobiPreconditioner M(Ai, A.internalLayout());
  const bool precondition = GENERATE(false, true);
  solvers::SolverStatus status;
  const test::PassCounts internalPasses = test::countPasses([&] {
    status = solvers::cg(Ai, b, x, {.tolerance = 1e-5f, .maxIterations = 2000}, precondition ? &M : nullptr);
  });
  INFO(status.message);
  REQUIRE(status.converged());
  if (test::passCountsReadable()) {
    // On the compute backend every product after the first update gathers u from the
    // update's element copy (stream/ElementCopy.h); the fragment backend has none.
    const long long fromCopy = internalPasses.containing("x gathered from its element copy");
    INFO(fromCopy << " products gathered from the element copy");
    if (backend == stream::Backend::Compute) CHECK(fromCopy >= status.iterations - 1);
    else CHECK(fromCopy == 0);
  }
  A.toUser(x, xUser);
  CHECK(test::maxRelativeError(xUser.download(), test::toDouble(xs)) <= 1e-3);
  // The same through the user-order operator and a user-order preconditioner: cg() runs
  // it in the internal order (b, x and D^-1 gathered once before the loop, x once after),
  // so the iterates, and the iteration count, are the internal solve's, and the profiler
  // (where the context has timer queries) sees four gathers, not two per product.
  Vector x2(n, "x2");
  const solvers::JacobiPreconditioner userM(A);
  solvers::SolverStatus s2;
  std::vector<float> solution;
  const test::PassCounts passes = test::countPasses([&] {
    s2 = solvers::cg(A, bUser, x2, {.tolerance = 1e-5f, .maxIterations = 2000}, precondition ? &userM : nullptr);
    solution = x2.download();  // the last gather's query may land later than the solve's read-back
  });
  const long long toInternal = passes.of("permute to internal"), toUser = passes.of("permute to user");
  INFO(s2.message << "; gathers: " << toInternal << " to internal, " << toUser << " to user");
  REQUIRE(s2.converged());
  CHECK(s2.iterations == status.iterations);
  CHECK(test::maxRelativeError(solution, test::toDouble(xs)) <= 1e-3);
  if (test::passCountsReadable()) {
    CHECK(toInternal == (precondition ? 3 : 2));
    CHECK(toUser <= 1);
  }
}

TEST_CASE("SegmentMatrix: CG gathers from the texture where the context's storage blocks cannot hold u's copy",
          "[gl][linalg][segment][compute]") {
  test::context();
  stream::BackendScope compute(stream::Backend::Compute);
  const Csr csr = meshLaplacian(61, 47, 0.05);
  const SegmentMatrix A(csr, "L");
  const std::size_t n = csr.rows;
  const auto xs = test::randomFloats(n, 4);
  Vector bUser(n, "b");
  bUser.upload(csr.multiply(test::toDouble(xs)));
  // A limit one texel short of the internal layout's copy.
  test::StorageBlockLimit limit(std::int64_t(A.internalLayout().texels()) * 16 - 16);
  REQUIRE_FALSE(stream::ElementCopy::fits(A.internalLayout()));
  Vector b = A.makeInternalVector("bi"), x = A.makeInternalVector("xi");
  A.toInternal(bUser, b);
  const auto Ai = A.internal();
  solvers::SolverStatus status;
  const test::PassCounts passes = test::countPasses(
      [&] { status = solvers::cg(Ai, b, x, {.tolerance = 1e-5f, .maxIterations = 2000}); });
  INFO(status.message);
  REQUIRE(status.converged());
  Vector xUser(n, "x");
  A.toUser(x, xUser);
  CHECK(test::maxRelativeError(xUser.download(), test::toDouble(xs)) <= 1e-3);
  if (test::passCountsReadable()) CHECK(passes.containing("x gathered from its element copy") == 0);
}

TEST_CASE("SegmentMatrix: bad input gives clear errors", "[gl][linalg][segment]") {
  test::context();
  REQUIRE_THROWS_WITH(SegmentMatrix(Csr::fromTriplets(3, 4, {0}, {3}, {1.0}), "rect"),
                      Catch::Contains("SegmentMatrix(\"rect\")") && Catch::Contains("not square"));
  Csr bad = Csr::fromTriplets(3, 3, {0}, {1}, {1.0});
  bad.colIdx[0] = 7;
  REQUIRE_THROWS_AS(SegmentMatrix(bad, "bad"), std::invalid_argument);
  SegmentMatrix A(randomRows(20, 5, 1), "A");
  REQUIRE_THROWS_WITH(A.setValues({1.0, 2.0}), Catch::Contains("values for"));
  Vector wrong(20, "wrong"), y(20, "y");
  REQUIRE_THROWS_WITH(A.applyInternal(wrong, y), Catch::Contains("internal layout"));
  Vector small(19, "small");
  REQUIRE_THROWS_WITH(A.apply(small, y), Catch::Contains("small"));
  REQUIRE_THROWS_WITH(A.apply(y, y), Catch::Contains("must not be x"));
  SegmentOptions tiles;
  tiles.packing = SegmentPacking::IdenticalTiles;
  tiles.tileWidth = 3;
  REQUIRE_THROWS_WITH(SegmentMatrix(randomRows(20, 5, 1), "T", tiles), Catch::Contains("power of two"));
}

/// A.applyAndDot against CPU double: y and the epilogue's y . x, twice (the counter must be
/// ready for a second product), in internal and in user order; bad vectors are refused.
void checkFusedDot(const SegmentMatrix& A, const Csr& csr, std::uint64_t seed) {
  // An epilogue that stores its value, the way CG's alpha/beta step consumes w . u.
  stream::registerKernelSource("test/store_dot",
                               "void epilogue(float value) { imageStore(EPILOGUE_IMAGE0, ivec2(0), vec4(value)); }\n");
  const std::size_t n = csr.rows;
  const auto xs = test::randomFloats(n, seed);
  const auto yRef = csr.multiply(test::toDouble(xs));
  double dotRef = 0;
  for (std::size_t i = 0; i < n; ++i) dotRef += yRef[i] * double(xs[i]);
  double scale = 0;  // the size of the terms, for a relative tolerance that cancellation cannot break
  for (std::size_t i = 0; i < n; ++i) scale += std::abs(yRef[i] * double(xs[i]));

  Vector xUser(n, "x"), yUser(n, "y");
  xUser.upload(xs);
  Vector x = A.makeInternalVector("xi"), y = A.makeInternalVector("yi");
  A.toInternal(xUser, x);
  stream::Scalar result("dot", std::nanf(""));
  for (int repeat = 0; repeat < 2; ++repeat) {
    result.write(std::nanf(""));
    A.internal().applyAndDot(x, y, {"test/store_dot.glsl", [&](stream::Pass& p) { p.output(result); }});
    A.toUser(y, yUser);
    CHECK(test::maxRelativeError(yUser.download(), yRef) <= 1e-5);
    const double got = result.read();
    INFO("dot " << got << ", reference " << dotRef);
    CHECK(std::abs(got - dotRef) <= 1e-5 * scale + 1e-30);
  }
  {
    // The same in user order (PermutedMatrix: the fused product between two gathers).
    INFO("user order");
    result.write(std::nanf(""));
    linalg::fill(yUser, -7.0f);
    A.applyAndDot(xUser, yUser, {"test/store_dot.glsl", [&](stream::Pass& p) { p.output(result); }});
    CHECK(test::maxRelativeError(yUser.download(), yRef) <= 1e-5);
    const double got = result.read();
    INFO("dot " << got << ", reference " << dotRef);
    CHECK(std::abs(got - dotRef) <= 1e-5 * scale + 1e-30);
  }
  {
    // The gathers from an element copy (stream/ElementCopy.h): a copy of x gives the same y
    // and dot. A copy of another vector z shows which reads it serves: the off-diagonal
    // gathers take z, the diagonal term and the dot keep x.
    INFO("gathers from an element copy");
    stream::ElementCopy copy(A.internalLayout(), "x elements");
    copy.copyFrom(x);
    REQUIRE(A.internal().gathersElements());
    result.write(std::nanf(""));
    A.internal().applyAndDotWithCopy(x, copy, y, {"test/store_dot.glsl", [&](stream::Pass& p) { p.output(result); }});
    A.toUser(y, yUser);
    CHECK(test::maxRelativeError(yUser.download(), yRef) <= 1e-5);
    CHECK(std::abs(double(result.read()) - dotRef) <= 1e-5 * scale + 1e-30);

    const auto zs = test::randomFloats(n, seed + 1);
    Vector zUser(n, "z"), z = A.makeInternalVector("zi");
    zUser.upload(zs);
    A.toInternal(zUser, z);
    copy.copyFrom(z);
    std::vector<double> mixedRef(n, 0.0);
    double mixedDot = 0, mixedScale = 0;
    for (std::size_t i = 0; i < n; ++i) {
      for (std::int64_t e = csr.rowPtr[i]; e < csr.rowPtr[i + 1]; ++e) {
        const std::size_t j = std::size_t(csr.colIdx[std::size_t(e)]);
        mixedRef[i] += csr.values[std::size_t(e)] * double(j == i ? xs[i] : zs[j]);
      }
      mixedDot += mixedRef[i] * double(xs[i]);
      mixedScale += std::abs(mixedRef[i] * double(xs[i]));
    }
    result.write(std::nanf(""));
    A.internal().applyAndDotWithCopy(x, copy, y, {"test/store_dot.glsl", [&](stream::Pass& p) { p.output(result); }});
    A.toUser(y, yUser);
    CHECK(test::maxRelativeError(yUser.download(), mixedRef) <= 1e-5);
    CHECK(std::abs(double(result.read()) - mixedDot) <= 1e-5 * mixedScale + 1e-30);

    // A copy of another layout is refused by name.
    stream::ElementCopy wrong(stream::Layout::forSize(n + 5), "wrong copy");
    REQUIRE_THROWS_WITH(A.internal().applyAndDotWithCopy(x, wrong, y, {"test/store_dot.glsl", [&](stream::Pass& p) {
                          p.output(result);
                        }}),
                        Catch::Contains("\"wrong copy\"") && Catch::Contains("\"xi\""));
  }
  // Vectors in the user's layout (n elements, not the internal layout) and y = x are refused.
  if (A.internalLayout() != xUser.layout()) {
    REQUIRE_THROWS_WITH(A.internal().applyAndDot(xUser, y, {"test/store_dot.glsl", [&](stream::Pass& p) { p.output(result); }}),
                        Catch::Contains("internal layout"));
  }
  REQUIRE_THROWS_WITH(A.internal().applyAndDot(x, x, {"test/store_dot.glsl", [&](stream::Pass& p) { p.output(result); }}),
                      Catch::Contains("y must not be x"));
}

TEST_CASE("SegmentMatrix: the product with a fused dot (y = A x, epilogue(y . x)) matches CPU double",
          "[gl][linalg][segment][compute]") {
  test::context();
  stream::BackendScope compute(stream::Backend::Compute);  // fused reductions are compute-only
  const std::size_t n = GENERATE(1, 7, 97, 1000, 4099);
  // The dot is folded into the product's one dispatch: rows of up to 40 entries (one
  // invocation or 4 or 8 lanes a texel) and up to 150 (longer than a fragment pass takes).
  // Both packings, both segment layouts.
  const int maxPerRow = GENERATE(40, 150);
  const SegmentPacking packing = GENERATE(SegmentPacking::GroupRectangles, SegmentPacking::IdenticalTiles);
  const bool interleave = GENERATE(false, true);
  INFO("n = " << n << ", rows up to " << maxPerRow << " entries, " << linalg::packingName(packing)
              << (interleave ? ", interleaved" : ", consecutive"));
  const Csr csr = randomRows(n, maxPerRow, 900 + n);
  SegmentOptions options = packingOption(packing);
  options.interleave = interleave;
  const SegmentMatrix A(csr, "A", options);
  checkFusedDot(A, csr, 901);
}

TEST_CASE("SegmentMatrix: a mesh's one group takes the per-group program's fused product and dot",
          "[gl][linalg][segment][compute]") {
  test::context();
  stream::BackendScope compute(stream::Backend::Compute);
  // Triangulated grids (6 neighbours inside, fewer on the border: merged into one group of
  // K = 6 over the whole texture), at sizes whose texture has a partial last workgroup.
  const auto [nx, ny] = GENERATE(std::pair<std::size_t, std::size_t>{2, 2}, std::pair<std::size_t, std::size_t>{13, 11},
                                 std::pair<std::size_t, std::size_t>{67, 61});
  const SegmentPacking packing = GENERATE(SegmentPacking::GroupRectangles, SegmentPacking::IdenticalTiles);
  const bool interleave = GENERATE(false, true);
  INFO(nx << " x " << ny << " grid, " << linalg::packingName(packing) << (interleave ? ", interleaved" : ", consecutive"));
  Csr csr = meshLaplacian(nx, ny, 0.5);
  const auto v = test::randomFloats(csr.values.size(), 905);
  for (std::size_t e = 0; e < v.size(); ++e) csr.values[e] = double(v[e]);  // unsymmetric values, same pattern
  SegmentOptions options = packingOption(packing);
  options.interleave = interleave;
  const SegmentMatrix A(csr, "mesh", options);
  REQUIRE(A.layout().groups.size() == 1);
  REQUIRE(A.layout().groups[0].texels == A.internalLayout().texels());
  REQUIRE(A.computeProductPerGroup());
  checkFusedDot(A, csr, 906);
}

TEST_CASE("SegmentMatrix: a compute product of more than one row of workgroups (2D dispatch)",
          "[gl][linalg][segment][compute]") {
  test::context();
  stream::BackendScope compute(stream::Backend::Compute);
  stream::registerKernelSource("test/store_dot",
                               "void epilogue(float value) { imageStore(EPILOGUE_IMAGE0, ivec2(0), vec4(value)); }\n");
  // A tridiagonal matrix of 540,007 rows: 135,002 texels of short segments at 256 texels a
  // workgroup, 528 workgroups, more than the 512 of one row of the dispatch grid (the span
  // kernel's fused product and dot; the product alone of this one group is the per-group
  // program's).
  const std::size_t n = 540007;
  std::vector<std::int64_t> r, c;
  std::vector<double> v;
  const auto values = test::randomFloats(3 * n, 905);
  for (std::size_t i = 0; i < n; ++i) {
    for (int d = -1; d <= 1; ++d) {
      const std::int64_t j = std::int64_t(i) + d;
      if (j < 0 || j >= std::int64_t(n)) continue;
      r.push_back(std::int64_t(i));
      c.push_back(j);
      v.push_back(d == 0 ? 4.0 + values[3 * i] : double(values[3 * i + std::size_t(d + 1)]));
    }
  }
  const Csr csr = Csr::fromTriplets(n, n, r, c, v);
  const SegmentMatrix A(csr, "tridiagonal");
  const auto xs = test::randomFloats(n, 906);
  const auto yRef = csr.multiply(test::toDouble(xs));
  double dotRef = 0, scale = 0;
  for (std::size_t i = 0; i < n; ++i) dotRef += yRef[i] * double(xs[i]), scale += std::abs(yRef[i] * double(xs[i]));
  Vector xUser(n, "x"), yUser(n, "y");
  xUser.upload(xs);
  linalg::fill(yUser, -7.0f);
  A.apply(xUser, yUser);
  CHECK(test::maxRelativeError(yUser.download(), yRef) <= 1e-5);
  stream::Scalar result("dot", std::nanf(""));
  linalg::fill(yUser, -7.0f);
  A.applyAndDot(xUser, yUser, {"test/store_dot.glsl", [&](stream::Pass& p) { p.output(result); }});
  CHECK(test::maxRelativeError(yUser.download(), yRef) <= 1e-5);
  CHECK(std::abs(double(result.read()) - dotRef) <= 1e-5 * scale);
}
