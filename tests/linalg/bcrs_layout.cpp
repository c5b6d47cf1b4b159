// Tests src/linalg/BcrsLayout.*: each step of the BCRS layout on the CPU, no GL context:
// blocks that hold every entry once (duplicates summed) in increasing block columns; slots
// that never collide, in block-row order or interleaved by slices as the header says, with
// the fall-back when the interleaved padding does not fit; texture shapes; the value
// layers, block columns and row table at each block's slot; the plan's limits. The GPU
// side (the same layouts applied) is tests/linalg/bcrs_matrix.cpp.
#include <catch2/catch.hpp>

#include "linalg/LinalgTestSupport.h"

#include <texstream/gl/Error.h>
#include <texstream/linalg/BcrsLayout.h>
#include <texstream/linalg/Csr.h>
#include <texstream/linalg/TextureTiles.h>

#include <cstdint>
#include <map>
#include <set>
#include <utility>
#include <vector>

using namespace texstream;
using linalg::BcrsBlocks;
using linalg::BcrsPlacement;
using linalg::Csr;
using linalg::kBcrsInterleaveTexels;

namespace {

/// Output texels of a vector of n elements (Layout::usedTexels).
std::size_t usedTexels(std::size_t n) { return (n + 3) / 4; }

/// A square matrix with about perRow entries a row, a diagonal in every row.
Csr squareWithDiagonal(std::size_t n, double perRow, std::uint64_t seed) {
  const Csr r = test::randomCsr(n, n, perRow, seed);
  std::vector<std::int64_t> rows, cols;
  std::vector<double> values;
  for (std::size_t i = 0; i < n; ++i) {
    rows.push_back(std::int64_t(i)), cols.push_back(std::int64_t(i)), values.push_back(4.0 + double(i % 7));
    for (std::int64_t e = r.rowPtr[i]; e < r.rowPtr[i + 1]; ++e) {
      rows.push_back(std::int64_t(i)), cols.push_back(r.colIdx[std::size_t(e)]), values.push_back(r.values[std::size_t(e)]);
    }
  }
  return Csr::fromTriplets(n, n, rows, cols, values);
}

}  // namespace

TEST_CASE("BcrsLayout: blocks hold every entry once, by increasing block column", "[linalg][bcrs]") {
  const int B = GENERATE(2, 4);
  for (const std::size_t n : {std::size_t(1), std::size_t(5), std::size_t(97), std::size_t(1000)}) {
    INFO("B = " << B << ", n = " << n);
    const Csr A = squareWithDiagonal(n, 5.0, n + std::size_t(B));
    const BcrsBlocks blocks = linalg::blockRows(A, B);
    REQUIRE(blocks.blockSize == B);
    REQUIRE(blocks.blockRows == (n + std::size_t(B) - 1) / std::size_t(B));
    REQUIRE(blocks.start.size() == blocks.blockRows + 1);
    REQUIRE(blocks.values.size() == blocks.count() * std::size_t(B * B));
    // Block (I, J) for every entry, and no other.
    std::map<std::pair<std::size_t, std::int32_t>, std::size_t> blockOf;
    for (std::size_t I = 0; I < blocks.blockRows; ++I) {
      for (std::int64_t b = blocks.start[I]; b < blocks.start[I + 1]; ++b) {
        if (b > blocks.start[I]) REQUIRE(blocks.column[std::size_t(b)] > blocks.column[std::size_t(b - 1)]);
        blockOf[{I, blocks.column[std::size_t(b)]}] = std::size_t(b);
      }
    }
    std::vector<double> expected(blocks.values.size(), 0.0);
    for (std::size_t i = 0; i < n; ++i) {
      for (std::int64_t e = A.rowPtr[i]; e < A.rowPtr[i + 1]; ++e) {
        const std::int32_t j = A.colIdx[std::size_t(e)];
        const auto it = blockOf.find({i / std::size_t(B), j / B});
        REQUIRE(it != blockOf.end());
        expected[it->second * std::size_t(B * B) + (i % std::size_t(B)) * std::size_t(B) + std::size_t(j % B)] +=
            A.values[std::size_t(e)];
      }
    }
    std::set<std::size_t> touched;
    for (std::size_t k = 0; k < expected.size(); ++k) {
      REQUIRE(blocks.values[k] == Approx(expected[k]));
      if (expected[k] != 0.0) touched.insert(k / std::size_t(B * B));
    }
    REQUIRE(touched.size() == blocks.count());  // no block without an entry
    const std::vector<double> diagonal = A.diagonal();
    REQUIRE(blocks.diagonal.size() == n);
    for (std::size_t i = 0; i < n; ++i) REQUIRE(blocks.diagonal[i] == float(diagonal[i]));
  }
}

TEST_CASE("BcrsLayout: block-row order places block b at slot b", "[linalg][bcrs]") {
  const int B = GENERATE(2, 4);
  const std::size_t n = 1001;
  const BcrsBlocks blocks = linalg::blockRows(squareWithDiagonal(n, 4.0, 3), B);
  const BcrsPlacement p = linalg::placeBlocks(blocks, usedTexels(n), false, false, 16384);
  REQUIRE_FALSE(p.interleaved);
  REQUIRE(p.stored == blocks.count());
  for (std::size_t b = 0; b < blocks.count(); ++b) REQUIRE(p.slotOfBlock[b] == b);
  const std::size_t rowsPerTexel = B == 4 ? 1 : 2;
  for (std::size_t t = 0; t < usedTexels(n); ++t) REQUIRE(p.texelFirst[t] == std::size_t(blocks.start[t * rowsPerTexel]));
}

TEST_CASE("BcrsLayout: interleaved 2x2 slots never collide and follow the slices", "[linalg][bcrs]") {
  const std::size_t n = GENERATE(std::size_t(3), std::size_t(1000), std::size_t(4 * kBcrsInterleaveTexels + 6));
  INFO("n = " << n);
  const BcrsBlocks blocks = linalg::blockRows(squareWithDiagonal(n, 6.0, n), 2);
  const std::size_t texels = usedTexels(n), S = kBcrsInterleaveTexels;
  const BcrsPlacement p = linalg::placeBlocks(blocks, texels, true, false, 16384);
  REQUIRE(p.interleaved);
  REQUIRE(p.stored >= blocks.count());
  REQUIRE(p.stored % (2 * S) == 0);
  std::set<std::size_t> slots(p.slotOfBlock.begin(), p.slotOfBlock.end());
  REQUIRE(slots.size() == blocks.count());
  REQUIRE(*slots.rbegin() < p.stored);
  for (std::size_t t = 0; t < texels; ++t) {
    // Block k of block row 2t + h at the texel's first slot + 2 k S + h S.
    for (std::size_t h = 0; h < 2 && 2 * t + h < blocks.blockRows; ++h) {
      const std::size_t I = 2 * t + h;
      for (std::size_t k = 0; k < blocks.inRow(I); ++k) {
        REQUIRE(p.slotOfBlock[std::size_t(blocks.start[I]) + k] == p.texelFirst[t] + 2 * k * S + h * S);
      }
    }
    // Neighbouring texels of a slice: neighbouring slots.
    if (t % S != 0) REQUIRE(p.texelFirst[t] == p.texelFirst[t - 1] + 1);
  }
}

TEST_CASE("BcrsLayout: interleaving falls back to block-row order when its padding does not fit", "[linalg][bcrs]") {
  // One long block row makes every slice as long as it: the padding needs a texture wider
  // than 64 texels, block-row order does not.
  std::vector<std::int64_t> r, c;
  const std::size_t n = 2 * 4 * kBcrsInterleaveTexels;
  for (std::size_t i = 0; i < n; ++i) r.push_back(std::int64_t(i)), c.push_back(std::int64_t(i));
  for (std::size_t j = 0; j < n; j += 2) r.push_back(0), c.push_back(std::int64_t(j));
  const Csr A = Csr::fromTriplets(n, n, r, c, std::vector<double>(r.size(), 1.0));
  const BcrsBlocks blocks = linalg::blockRows(A, 2);
  const int maxTexture = 64;
  REQUIRE(linalg::blockTextureShape(blocks.count(), false).width <= std::size_t(maxTexture));
  CHECK_FALSE(linalg::placeBlocks(blocks, usedTexels(n), true, true, maxTexture).interleaved);
  // Asked for explicitly, it stays (and planBcrs then says the texture is too large).
  CHECK(linalg::placeBlocks(blocks, usedTexels(n), true, false, maxTexture).interleaved);
  REQUIRE_THROWS_WITH(linalg::planBcrs(A, 2, usedTexels(n), true, true, maxTexture, "B"),
                      Catch::StartsWith("B: ") && Catch::Contains("beyond this GPU's maximum texture size 64"));
  // Unset, the default gives way; 4x4 blocks are never interleaved.
  CHECK_FALSE(linalg::planBcrs(A, 2, usedTexels(n), std::nullopt, true, maxTexture, "B").placement.interleaved);
  CHECK_FALSE(linalg::planBcrs(A, 4, usedTexels(n), true, true, 16384, "B").placement.interleaved);
}

TEST_CASE("BcrsLayout: texture shapes: 2^k wide, near square, tiles when interleaved", "[linalg][bcrs]") {
  for (const std::size_t stored : {std::size_t(0), std::size_t(1), std::size_t(15), std::size_t(17),
                                   std::size_t(1000), std::size_t(123457)}) {
    for (const bool interleaved : {false, true}) {
      INFO(stored << " slots, interleaved " << interleaved);
      const linalg::BcrsTextureShape s = linalg::blockTextureShape(stored, interleaved);
      REQUIRE((s.width & (s.width - 1)) == 0);
      REQUIRE(s.width >= 4);
      REQUIRE(s.width * s.width >= stored);
      REQUIRE(s.height >= 1);
      REQUIRE(s.width * s.height >= stored);
      REQUIRE(s.valuesHeight >= s.height);
      if (interleaved) REQUIRE(s.valuesHeight % 8 == 0);
      else REQUIRE(s.valuesHeight == s.height);
    }
  }
}

TEST_CASE("BcrsLayout: value layers, block columns and the row table hold each block at its slot",
          "[linalg][bcrs]") {
  const int B = GENERATE(2, 4);
  const bool interleave = GENERATE(false, true);
  if (interleave && B == 4) return;  // 4x4 blocks are never interleaved
  INFO("B = " << B << (interleave ? ", interleaved" : ""));
  const std::size_t n = 777;
  const linalg::BcrsPlan plan =
      linalg::planBcrs(squareWithDiagonal(n, 5.0, 9), B, usedTexels(n), interleave, false, 16384, "B");
  const BcrsBlocks& blocks = plan.blocks;
  const BcrsPlacement& p = plan.placement;
  REQUIRE(p.interleaved == interleave);
  const std::size_t W = plan.shape.width;
  std::vector<float> layer;
  for (int l = 0; l < (B == 4 ? 4 : 1); ++l) {
    linalg::valueLayer(blocks, p, plan.shape, l, layer);
    REQUIRE(layer.size() == 4 * W * plan.shape.valuesHeight);
    std::vector<char> isBlock(layer.size() / 4, 0);
    for (std::size_t b = 0; b < blocks.count(); ++b) {
      std::size_t texel = p.slotOfBlock[b];
      if (interleave) {
        const linalg::TexelPosition at = linalg::tiledTexel(texel, W);
        texel = at.y * W + at.x;
      }
      isBlock[texel] = 1;
      for (std::size_t k = 0; k < 4; ++k) {
        REQUIRE(layer[4 * texel + k] == blocks.values[b * std::size_t(B * B) + std::size_t(l) * 4 + k]);
      }
    }
    for (std::size_t texel = 0; texel < isBlock.size(); ++texel) {
      if (!isBlock[texel]) REQUIRE(layer[4 * texel] == 0.0f);
    }
  }
  const std::vector<float> columns = linalg::blockColumnTexels(blocks, p, plan.shape);
  REQUIRE(columns.size() == W * plan.shape.height);
  for (std::size_t b = 0; b < blocks.count(); ++b) REQUIRE(columns[p.slotOfBlock[b]] == float(blocks.column[b]));
  const std::vector<float> rows = linalg::rowBlockTexels(blocks, p, usedTexels(n));
  REQUIRE(rows.size() == 4 * usedTexels(n));
  const std::size_t rowsPerTexel = B == 4 ? 1 : 2;
  for (std::size_t t = 0; t < usedTexels(n); ++t) {
    const std::size_t I = t * rowsPerTexel;
    REQUIRE(rows[4 * t] == float(p.texelFirst[t]));
    REQUIRE(rows[4 * t + 1] == float(blocks.inRow(I)));
    REQUIRE(rows[4 * t + 2] == (rowsPerTexel == 2 && I + 1 < blocks.blockRows ? float(blocks.inRow(I + 1)) : 0.0f));
    REQUIRE(rows[4 * t + 3] == 0.0f);
  }
}

TEST_CASE("BcrsLayout: bad matrices and block sizes are refused by name", "[linalg][bcrs]") {
  CHECK_THROWS_WITH(linalg::requireBcrsInput(Csr::fromTriplets(2, 3, {0}, {2}, {1.0}), 2, "B(\"R\")"),
                    Catch::Equals("B(\"R\"): the matrix is 2x3, not square"));
  CHECK_THROWS_WITH(linalg::requireBcrsInput(Csr::fromTriplets(0, 0, {}, {}, {}), 2, "B"), Catch::Contains("no rows"));
  CHECK_THROWS_WITH(linalg::requireBcrsInput(squareWithDiagonal(8, 1.0, 1), 3, "B"), Catch::Contains("block size 3"));
  CHECK_NOTHROW(linalg::requireBcrsInput(squareWithDiagonal(8, 1.0, 1), 4, "B"));
}
