// Tests src/linalg/SegmentLayout.*: each step of the segment layout on the CPU, no GL
// context: every row placed once, by decreasing count, tiles aligned, the last element kept
// as the zero; K per texel covering its rows (its tile's), bucketed, small groups merged;
// rectangles covering every texel once with their group's K; segments that never overlap;
// every entry in one slot and every slot's entry and column; the plan's shapes and errors.
// The GPU side (the same layouts applied) is tests/linalg/segment_matrix.cpp.
#include <catch2/catch.hpp>

#include "linalg/LinalgTestSupport.h"

#include <texstream/gl/Error.h>
#include <texstream/linalg/Csr.h>
#include <texstream/linalg/SegmentLayout.h>
#include <texstream/linalg/TextureTiles.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <stdexcept>
#include <vector>

using namespace texstream;
using linalg::Csr;
using linalg::RowPlacement;
using linalg::SegmentOptions;
using linalg::SegmentPacking;

namespace {

constexpr int kMaxTexture = 16384;

/// n x n with rows of 0 to maxPerRow off-diagonal entries (most short, some long, some
/// empty), a diagonal entry in most rows.
Csr unevenRows(std::size_t n, int maxPerRow, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::int64_t> r, c;
  for (std::size_t i = 0; i < n; ++i) {
    const int kind = int(rng() % 10);
    const int k = kind == 0 ? 0 : kind < 8 ? 1 + int(rng() % 12) : int(rng() % std::uint64_t(maxPerRow + 1));
    for (int j = 0; j < k; ++j) r.push_back(std::int64_t(i)), c.push_back(std::int64_t(rng() % n));
    if (kind != 1) r.push_back(std::int64_t(i)), c.push_back(std::int64_t(i));
  }
  const auto v = test::randomFloats(r.size() + 1, seed + 1);
  return Csr::fromTriplets(n, n, r, c, test::toDouble({v.begin(), v.begin() + std::ptrdiff_t(r.size())}));
}

SegmentOptions options(SegmentPacking packing, bool interleave) {
  SegmentOptions o;
  o.packing = packing;
  o.tileWidth = 4, o.tileHeight = 3;  // several tiles per test matrix, ragged ends
  o.interleave = interleave;
  return o;
}

/// The user row at each internal element (-1: a dead slot or padding).
std::vector<std::int32_t> internalToUser(const RowPlacement& rows) {
  std::vector<std::int32_t> out(4 * rows.texels(), -1);
  for (std::size_t u = 0; u < rows.userToInternal.size(); ++u) out[std::size_t(rows.userToInternal[u])] = std::int32_t(u);
  return out;
}

}  // namespace

TEST_CASE("SegmentLayout: off-diagonal counts per row", "[linalg][segment]") {
  // Row 0: diagonal and two others; row 1: empty; row 2: only the diagonal; row 3: three.
  const Csr A = Csr::fromTriplets(4, 4, {0, 0, 0, 2, 3, 3, 3}, {0, 1, 3, 2, 0, 1, 2}, {1, 2, 3, 4, 5, 6, 7});
  CHECK(linalg::offDiagonalCounts(A) == std::vector<int>{2, 0, 0, 3});
}

TEST_CASE("SegmentLayout: rows placed once, by decreasing count, the last element free", "[linalg][segment]") {
  const SegmentPacking packing = GENERATE(SegmentPacking::GroupRectangles, SegmentPacking::IdenticalTiles);
  for (const std::size_t n : {std::size_t(1), std::size_t(4), std::size_t(7), std::size_t(64), std::size_t(97),
                              std::size_t(1000), std::size_t(4097)}) {
    INFO(linalg::packingName(packing) << ", n = " << n);
    const std::vector<int> counts = linalg::offDiagonalCounts(unevenRows(n, 40, n));
    const SegmentOptions o = options(packing, false);
    const RowPlacement rows = linalg::placeRows(counts, o, kMaxTexture, "test");
    REQUIRE(rows.userToInternal.size() == n);
    REQUIRE((rows.width & (rows.width - 1)) == 0);
    REQUIRE(std::size_t(rows.width) * std::size_t(rows.width) >= (n + 3) / 4);  // near square: width >= sqrt
    REQUIRE(rows.size >= n);
    REQUIRE(rows.size < 4 * rows.texels());  // the texture's last element is padding: the zero
    const std::vector<std::int32_t> user = internalToUser(rows);
    std::set<std::int32_t> placed(rows.userToInternal.begin(), rows.userToInternal.end());
    REQUIRE(placed.size() == n);
    REQUIRE(std::size_t(*placed.rbegin()) < rows.size);
    if (packing == SegmentPacking::GroupRectangles) {
      REQUIRE(rows.tileWidth == 0);
      REQUIRE(rows.size - n <= 1);  // a dead slot when the rows fill the texture exactly
      for (std::size_t p = 1; p < n; ++p) REQUIRE(counts[std::size_t(user[p - 1])] >= counts[std::size_t(user[p])]);
    } else {
      REQUIRE(rows.tileWidth == o.tileWidth);
      REQUIRE(rows.width >= o.tileWidth);
      REQUIRE(rows.width % o.tileWidth == 0);
      // Tile by tile: the rows of a tile are the next 4 tw th of the sorted order, every
      // count in an earlier tile at least every count in a later one.
      const std::vector<int> tileOf = rows.tileOfTexels();
      REQUIRE(tileOf.size() == rows.texels());
      std::vector<int> lowest(tileOf.size(), 1 << 30), highest(tileOf.size(), -1);
      for (std::size_t u = 0; u < n; ++u) {
        const int tile = tileOf[std::size_t(rows.userToInternal[u]) / 4];
        lowest[std::size_t(tile)] = std::min(lowest[std::size_t(tile)], counts[u]);
        highest[std::size_t(tile)] = std::max(highest[std::size_t(tile)], counts[u]);
      }
      int previousLowest = 1 << 30;
      for (std::size_t tile = 0; tile < tileOf.size() && highest[tile] >= 0; ++tile) {
        REQUIRE(highest[tile] <= previousLowest);
        previousLowest = lowest[tile];
      }
      // Tiles are aligned rectangles of tw x th texels.
      for (std::size_t t = 0; t < tileOf.size(); ++t) {
        const int x = int(t % std::size_t(rows.width)), y = int(t / std::size_t(rows.width));
        REQUIRE(tileOf[t] == (y / o.tileHeight) * (rows.width / o.tileWidth) + x / o.tileWidth);
      }
    }
  }
}

TEST_CASE("SegmentLayout: rows too wide for the GPU are refused", "[linalg][segment]") {
  const std::vector<int> counts(100000, 3);
  REQUIRE_THROWS_AS(linalg::placeRows(counts, options(SegmentPacking::GroupRectangles, false), 64, "M"), gl::Error);
  REQUIRE_THROWS_WITH(linalg::placeRows(counts, options(SegmentPacking::GroupRectangles, false), 64, "M"),
                      Catch::StartsWith("M: internal layout 256 texels wide"));
}

TEST_CASE("SegmentLayout: segment lengths are bucketed, few programs", "[linalg][segment]") {
  for (int k = 0; k <= 16; ++k) CHECK(linalg::bucketSegmentLength(k) == k);
  CHECK(linalg::bucketSegmentLength(17) == 20);
  CHECK(linalg::bucketSegmentLength(32) == 32);
  CHECK(linalg::bucketSegmentLength(33) == 40);
  CHECK(linalg::bucketSegmentLength(64) == 64);
  CHECK(linalg::bucketSegmentLength(65) == 80);
  CHECK(linalg::bucketSegmentLength(300) == 304);
  int previous = 0;
  for (int k = 0; k < 1000; ++k) {
    const int b = linalg::bucketSegmentLength(k);
    REQUIRE(b >= k);
    REQUIRE(b >= previous);
    previous = b;
  }
}

TEST_CASE("SegmentLayout: small groups join the next larger one", "[linalg][segment]") {
  // 1000 texels of 6, 3 of 5 (an icosphere's valence-5 vertices), 2000 of 2.
  std::vector<int> texelK(1000, 6);
  texelK.insert(texelK.end(), 3, 5);
  texelK.insert(texelK.end(), 2000, 2);
  std::vector<int> merged = texelK;
  linalg::mergeSmallGroups(merged, 16384);
  // The 3 texels of 5 join 6 (3 value texels of padding); the 2000 of 2 would cost 8000
  // (to 6, their host being the merged group) and join too; with a smaller bound they stay.
  CHECK(std::count(merged.begin(), merged.end(), 6) == 3003);
  std::vector<int> bounded = texelK;
  linalg::mergeSmallGroups(bounded, 100);
  CHECK(std::count(bounded.begin(), bounded.end(), 6) == 1003);
  CHECK(std::count(bounded.begin(), bounded.end(), 2) == 2000);
  std::vector<int> plain = texelK;
  linalg::mergeSmallGroups(plain, 0);
  CHECK(plain == texelK);
}

TEST_CASE("SegmentLayout: K per texel covers its rows, constant over a tile", "[linalg][segment]") {
  const SegmentPacking packing = GENERATE(SegmentPacking::GroupRectangles, SegmentPacking::IdenticalTiles);
  const int mergeBelow = GENERATE(0, 16384);
  const std::vector<int> counts = linalg::offDiagonalCounts(unevenRows(3001, 90, 5));
  const RowPlacement rows = linalg::placeRows(counts, options(packing, false), kMaxTexture, "test");
  const std::vector<int> texelK = linalg::segmentLengths(rows, counts, mergeBelow);
  REQUIRE(texelK.size() == rows.texels());
  for (std::size_t u = 0; u < counts.size(); ++u) {
    REQUIRE(texelK[std::size_t(rows.userToInternal[u]) / 4] >= counts[u]);
  }
  if (mergeBelow == 0) {
    for (int k : texelK) REQUIRE(linalg::bucketSegmentLength(k) == k);
  }
  const std::vector<int> tileOf = rows.tileOfTexels();
  for (std::size_t t = 1; t < tileOf.size(); ++t) {
    for (std::size_t s = 0; s < t; ++s) {
      if (tileOf[s] == tileOf[t]) {
        REQUIRE(texelK[s] == texelK[t]);
        break;
      }
    }
  }
}

TEST_CASE("SegmentLayout: rectangles cover every texel once with their group's K", "[linalg][segment]") {
  const SegmentPacking packing = GENERATE(SegmentPacking::GroupRectangles, SegmentPacking::IdenticalTiles);
  const std::vector<int> counts = linalg::offDiagonalCounts(unevenRows(3001, 40, 11));
  const RowPlacement rows = linalg::placeRows(counts, options(packing, false), kMaxTexture, "test");
  const std::vector<int> texelK = linalg::segmentLengths(rows, counts, 16384);
  const int W = rows.width, H = int(rows.height());
  const std::vector<linalg::SegmentGroup> groups = linalg::groupRectangles(W, H, texelK);
  std::vector<int> covered(texelK.size(), 0);
  int previousK = 1 << 30;
  for (const linalg::SegmentGroup& g : groups) {
    REQUIRE(g.k < previousK);  // one group per K, decreasing
    previousK = g.k;
    REQUIRE(g.stride == 1);
    std::size_t texels = 0;
    for (const stream::Rect& r : g.rects) {
      REQUIRE(r.w > 0);
      REQUIRE(r.h > 0);
      for (int y = r.y; y < r.y + r.h; ++y) {
        for (int x = r.x; x < r.x + r.w; ++x) {
          const std::size_t t = std::size_t(y) * std::size_t(W) + std::size_t(x);
          ++covered[t];
          REQUIRE(texelK[t] == g.k);
        }
      }
      texels += std::size_t(r.w) * std::size_t(r.h);
    }
    REQUIRE(texels == g.texels);
    // Rows in reading order: each group is a run of texels, a rectangle and ragged ends.
    if (packing == SegmentPacking::GroupRectangles) REQUIRE(g.rects.size() <= 3);
  }
  for (int c : covered) REQUIRE(c == 1);
}

TEST_CASE("SegmentLayout: segments never overlap, strides as the layout says", "[linalg][segment]") {
  const SegmentPacking packing = GENERATE(SegmentPacking::GroupRectangles, SegmentPacking::IdenticalTiles);
  const bool interleave = GENERATE(false, true);
  INFO(linalg::packingName(packing) << (interleave ? ", interleaved" : ", consecutive"));
  const SegmentOptions o = options(packing, interleave);
  const std::vector<int> counts = linalg::offDiagonalCounts(unevenRows(2001, 70, 17));
  const RowPlacement rows = linalg::placeRows(counts, o, kMaxTexture, "test");
  const std::vector<int> texelK = linalg::segmentLengths(rows, counts, 16384);
  std::vector<linalg::SegmentGroup> groups = linalg::groupRectangles(rows.width, int(rows.height()), texelK);
  const linalg::SegmentStarts s = linalg::placeSegments(rows, texelK, interleave, groups);
  REQUIRE(s.start.size() == texelK.size());
  REQUIRE(s.stride.size() == texelK.size());
  std::vector<char> used(s.total, 0);
  std::size_t entries = 0;
  for (std::size_t t = 0; t < texelK.size(); ++t) {
    for (int c = 0; c < texelK[t]; ++c) {
      const std::size_t at = s.start[t] + std::size_t(c) * std::size_t(s.stride[t]);
      REQUIRE(at < s.total);
      REQUIRE(used[at] == 0);
      used[at] = 1;
      ++entries;
    }
  }
  // No gaps, but for the texels a partly covered last row of tiles lacks.
  if (packing == SegmentPacking::GroupRectangles || !interleave) REQUIRE(entries == s.total);
  for (const linalg::SegmentGroup& g : groups) {
    if (!interleave) REQUIRE(g.stride == 1);
    else if (packing == SegmentPacking::IdenticalTiles) REQUIRE(g.stride == o.tileWidth * o.tileHeight);
    else REQUIRE(std::size_t(g.stride) == g.texels);
  }
  // Neighbouring texels of one group read neighbouring values texels when interleaved.
  if (interleave && packing == SegmentPacking::GroupRectangles) {
    for (std::size_t t = 1; t < texelK.size(); ++t) {
      if (texelK[t] == texelK[t - 1]) REQUIRE(s.start[t] == s.start[t - 1] + 1);
    }
  }
}

TEST_CASE("SegmentLayout: every entry in one slot, slots know their entry and column", "[linalg][segment]") {
  const SegmentPacking packing = GENERATE(SegmentPacking::GroupRectangles, SegmentPacking::IdenticalTiles);
  const bool interleave = GENERATE(false, true);
  const Csr A = unevenRows(1501, 60, 23);
  const linalg::SegmentPlan plan = linalg::planSegments(A, options(packing, interleave), kMaxTexture, "A");
  const linalg::SegmentLayout& L = plan.layout;
  const RowPlacement& rows = plan.rows;
  const std::size_t W = std::size_t(rows.width), Wv = std::size_t(L.valuesWidth);
  REQUIRE(L.entrySlots.size() == A.nonZeros());
  REQUIRE(L.slotEntries.size() == 4 * Wv * std::size_t(L.valuesHeight));
  REQUIRE(plan.columns.size() == L.slotEntries.size());
  REQUIRE(plan.segmentStarts.size() == rows.texels());
  std::size_t offDiagonal = 0;
  for (std::size_t i = 0; i < A.rows; ++i) {
    const std::size_t p = std::size_t(rows.userToInternal[i]);
    for (std::int64_t e = A.rowPtr[i]; e < A.rowPtr[i + 1]; ++e) {
      const linalg::SegmentSlot& slot = L.entrySlots[std::size_t(e)];
      const std::size_t j = std::size_t(A.colIdx[std::size_t(e)]);
      REQUIRE(slot.diagonal == (j == i));
      REQUIRE(std::size_t(slot.channel) == p % 4);
      if (slot.diagonal) {
        REQUIRE(std::size_t(slot.y) * W + std::size_t(slot.x) == p / 4);
        continue;
      }
      ++offDiagonal;
      const std::size_t at = 4 * (std::size_t(slot.y) * Wv + std::size_t(slot.x)) + std::size_t(slot.channel);
      REQUIRE(L.slotEntries[at] == e);
      REQUIRE(plan.columns[at] == float(rows.userToInternal[j]));
    }
  }
  REQUIRE(offDiagonal == L.offDiagonalNonZeros);
  // The rest is padding: no entry, the zero element as its column.
  std::size_t padding = 0;
  for (std::size_t at = 0; at < L.slotEntries.size(); ++at) {
    if (L.slotEntries[at] >= 0) continue;
    ++padding;
    REQUIRE(plan.columns[at] == float(L.zeroElement));
  }
  REQUIRE(padding + offDiagonal == L.slotEntries.size());
  REQUIRE(std::size_t(L.zeroElement) == 4 * rows.texels() - 1);
  // Texture shapes: shift-addressable, whole 4 x 8 tiles, holding every segment texel.
  REQUIRE(L.valuesWidth == 1 << L.valuesShift);
  REQUIRE(L.valuesWidth >= 4);
  REQUIRE(L.valuesHeight % 8 == 0);
  REQUIRE(L.valueTexels <= Wv * std::size_t(L.valuesHeight));
  REQUIRE(rows.width == 1 << L.internalShift);
  REQUIRE(L.paddingRatio() >= 1.0);
  REQUIRE(L.passesPerApply() >= int(L.groups.size()));
  REQUIRE(L.interleaved == interleave);
  for (float start : plan.segmentStarts) REQUIRE(std::size_t(start) <= L.valueTexels);
}

TEST_CASE("SegmentLayout: a plan in a given order keeps it", "[linalg][segment]") {
  const Csr A = unevenRows(777, 30, 29);
  const linalg::SegmentPlan first = linalg::planSegments(A, options(SegmentPacking::IdenticalTiles, true), kMaxTexture, "A");
  const linalg::SegmentPlan again =
      linalg::planSegments(A, options(SegmentPacking::IdenticalTiles, true), kMaxTexture, "A", &first.rows);
  REQUIRE(again.rows.userToInternal == first.rows.userToInternal);
  REQUIRE(again.rows.width == first.rows.width);
  REQUIRE(again.rows.size == first.rows.size);
}

TEST_CASE("SegmentLayout: bad matrices and options are refused by name", "[linalg][segment]") {
  const SegmentOptions o = options(SegmentPacking::GroupRectangles, false);
  REQUIRE_THROWS_WITH(linalg::planSegments(Csr::fromTriplets(3, 4, {0}, {3}, {1.0}), o, kMaxTexture, "M(\"rect\")"),
                      Catch::Equals("M(\"rect\"): the matrix is 3x4, not square"));
  REQUIRE_THROWS_WITH(linalg::planSegments(Csr::fromTriplets(0, 0, {}, {}, {}), o, kMaxTexture, "M"),
                      Catch::Contains("no rows"));
  SegmentOptions tiles = options(SegmentPacking::IdenticalTiles, false);
  tiles.tileWidth = 3;
  REQUIRE_THROWS_AS(linalg::planSegments(unevenRows(20, 5, 1), tiles, kMaxTexture, "M"), std::invalid_argument);
  // A values texture beyond the GPU's limit.
  REQUIRE_THROWS_WITH(linalg::planSegments(unevenRows(2000, 300, 3), o, 64, "M"),
                      Catch::Contains("beyond this GPU's maximum texture size 64"));
}
