// Tests src/linalg/TextureTiles.h: the tiled texel numbering of the sparse matrices' values
// textures places every index inside the texture once, 32 consecutive indices fill one
// aligned 4 x 8 tile, and the rows are whole tiles. The shaders' side (tiledTexelAtShift)
// is checked through the products of BcrsMatrix and SegmentMatrix against CPU references.
#include <catch2/catch.hpp>

#include <texstream/linalg/TextureTiles.h>

#include <cstddef>
#include <set>
#include <utility>

using namespace texstream;

TEST_CASE("TextureTiles: every index lands inside the texture once, 32 a tile", "[linalg]") {
  for (std::size_t width : {std::size_t(4), std::size_t(8), std::size_t(64), std::size_t(2048)}) {
    for (std::size_t count : {std::size_t(1), std::size_t(31), std::size_t(32), std::size_t(33), std::size_t(97),
                              std::size_t(1000), 8 * width + 1, 37 * width + 5}) {
      INFO("width " << width << ", count " << count);
      const std::size_t rows = linalg::tiledRows(count, width);
      REQUIRE(rows % 8 == 0);
      REQUIRE(rows * width >= count);
      REQUIRE((rows - 8) * width < count);  // no more than one partly filled tile row
      std::set<std::pair<std::size_t, std::size_t>> seen;
      for (std::size_t i = 0; i < count; ++i) {
        const linalg::TexelPosition at = linalg::tiledTexel(i, width);
        REQUIRE(at.x < width);
        REQUIRE(at.y < rows);
        REQUIRE(seen.insert({at.x, at.y}).second);
      }
    }
  }
  // Indices 32 t .. 32 t + 31 fill the aligned 4 x 8 tile t, row by row.
  const std::size_t width = 16;
  for (std::size_t tile = 0; tile < 9; ++tile) {
    const linalg::TexelPosition corner = linalg::tiledTexel(32 * tile, width);
    CHECK(corner.x == (tile % 4) * 4);
    CHECK(corner.y == (tile / 4) * 8);
    for (std::size_t k = 0; k < 32; ++k) {
      const linalg::TexelPosition at = linalg::tiledTexel(32 * tile + k, width);
      CHECK(at.x == corner.x + k % 4);
      CHECK(at.y == corner.y + k / 4);
    }
  }
}
