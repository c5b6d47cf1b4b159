// Tests src/stream/GridLayout3D.* and GridField3D.*: cells of a 3D grid in a flat 2D texture
// (slices as tiles), four cells a texel or one; round trips in x-fastest order; the tiles
// fit the texture limit; zero padding; wrong sizes and grids beyond the limit are refused
// naming the field; shaders/grid3d/grid.glsl's addressing on both backends against the
// CPU's, with the neighbours it returns beyond the grid.
#include <catch2/catch.hpp>

#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/gl/Error.h>
#include <texstream/stream/GridField3D.h>
#include <texstream/stream/KernelCache.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Runtime.h>

#include <cstdlib>
#include <tuple>
#include <vector>

using namespace texstream;
using stream::GridField3D;
using stream::GridLayout3D;
using Packing = stream::GridLayout3D::Packing;

namespace {

const std::vector<std::tuple<int, int, int>> kAwkwardGrids{{1, 1, 1}, {17, 5, 3}, {4, 4, 4}, {5, 1, 7},
                                                           {1, 13, 2}, {31, 7, 11}, {64, 3, 2}};

}  // namespace

TEST_CASE("GridLayout3D: every cell has its own texel and channel, inside the texture", "[gl][stream][grid3d]") {
  test::context();
  for (auto [nx, ny, nz] : kAwkwardGrids) {
    for (Packing p : {Packing::FourCellsAlongX, Packing::OneCellPerTexel}) {
      const GridLayout3D g(nx, ny, nz, p, "g");
      INFO(g.describe() << (p == Packing::FourCellsAlongX ? " packed" : " one cell a texel"));
      CHECK(g.tileWidth() == (p == Packing::FourCellsAlongX ? (nx + 3) / 4 : nx));
      CHECK(g.tilesX() * g.tilesY() >= nz);
      CHECK((g.tilesY() - 1) * g.tilesX() < nz);  // no empty tile row
      const stream::Layout layout = g.layout();
      CHECK(layout.width() == g.width());
      CHECK(layout.height() == g.height());
      CHECK(layout.size() == layout.paddedSize());
      std::vector<char> used(layout.paddedSize(), 0);
      for (int k = 0; k < nz; ++k) {
        for (int j = 0; j < ny; ++j) {
          for (int i = 0; i < nx; ++i) {
            const std::size_t s = g.scalarIndex(i, j, k);
            REQUIRE(s < used.size());
            CHECK(used[s] == 0);
            used[s] = 1;
          }
        }
      }
    }
  }
}

TEST_CASE("GridField3D: cells and channels round-trip in x-fastest order, padding zero", "[gl][stream][grid3d]") {
  test::context();
  for (auto [nx, ny, nz] : kAwkwardGrids) {
    const GridLayout3D packed(nx, ny, nz, Packing::FourCellsAlongX, "p");
    INFO(packed.describe());
    GridField3D p(packed, "p");
    CHECK(p.hasGrid(packed));
    const std::vector<float> values = test::randomFloats(packed.cells(), std::uint64_t(nx * 131 + ny * 7 + nz));
    p.uploadCells(values);
    CHECK(p.downloadCells() == values);
    // Everything that is not a cell is zero.
    const std::vector<float> all = p.download();
    std::vector<char> isCell(all.size(), 0);
    for (int k = 0; k < nz; ++k)
      for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) isCell[packed.scalarIndex(i, j, k)] = 1;
    for (std::size_t s = 0; s < all.size(); ++s) {
      if (!isCell[s]) CHECK(all[s] == 0.0f);
    }

    const GridLayout3D cells(nx, ny, nz, Packing::OneCellPerTexel, "c");
    GridField3D c(cells, "c");
    const std::vector<float> u = test::randomFloats(cells.cells(), 3), v = test::randomFloats(cells.cells(), 4);
    c.uploadChannels({u, v});
    CHECK(c.downloadChannel(0) == u);
    CHECK(c.downloadChannel(1) == v);
    CHECK(c.downloadChannel(3) == std::vector<float>(cells.cells(), 0.0f));
  }
}

TEST_CASE("GridField3D refuses wrong counts, the wrong packing and grids beyond the texture limit",
          "[gl][stream][grid3d]") {
  test::context();
  const GridLayout3D packed(5, 4, 3, Packing::FourCellsAlongX, "p");
  GridField3D p(packed, "pressure");
  CHECK_THROWS_WITH(p.uploadCells(std::vector<float>(59)),
                    Catch::Contains("pressure") && Catch::Contains("59 values for the 5x4x3 grid (60 cells)"));
  CHECK_THROWS_WITH(p.uploadChannels({std::vector<float>(60)}), Catch::Contains("packs four cells"));
  GridField3D c(GridLayout3D(5, 4, 3, Packing::OneCellPerTexel, "c"), "velocity");
  CHECK_THROWS_WITH(c.uploadCells(std::vector<float>(60)), Catch::Contains("one cell a texel"));
  CHECK_THROWS_WITH(c.downloadChannel(4), Catch::Contains("channel 4"));
  CHECK_THROWS_WITH(GridLayout3D(0, 4, 4, Packing::FourCellsAlongX, "flat"),
                    Catch::Contains("flat") && Catch::Contains("0x4x4"));
  const int maxSide = stream::Runtime::current().caps().maxTextureSize;
  CHECK_THROWS_WITH(GridLayout3D(4, maxSide + 1, 1, Packing::FourCellsAlongX, "tall"),
                    Catch::Contains("tall") && Catch::Contains("does not fit a texture") &&
                        Catch::Contains("GL_MAX_TEXTURE_SIZE"));
  CHECK_THROWS_WITH(GridLayout3D(maxSide, maxSide, maxSide, Packing::OneCellPerTexel, "huge"),
                    Catch::Contains("huge") && Catch::Contains("does not fit a texture"));
  stream::requireGrid("test", p, packed);
  CHECK_THROWS_WITH(stream::requireGrid("solve", c, packed),
                    Catch::Contains("solve") && Catch::Contains("\"velocity\"") && Catch::Contains("another packing"));
}

TEST_CASE("grid3d/grid.glsl: blocks, texels and neighbours beyond the grid, on both backends", "[gl][stream][grid3d]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  // Each texel writes the x-1 and x+1 neighbours of its four cells (packed) read through the
  // helper, and the block it decodes; the CPU checks both.
  stream::registerKernelSource("test/grid3d_neighbours", R"(
#include "grid3d/grid.glsl"
uniform Grid3 u_grid;
uniform sampler2D u_f;
void kernel(ivec2 texel) {
  ivec3 b = gridBlock(u_grid, texel);
  vec4 here = gridFetch(u_f, u_grid, b);
  o_out0 = gridWestCells(u_f, u_grid, b, here) + 1000.0 * gridEastCells(u_f, u_grid, b, here);
  o_out1 = vec4(b, 0.0);
}
)");
  for (const auto& [gridX, gridY, gridZ] : kAwkwardGrids) {
    // Named copies: clang before 16 (emscripten's) refuses structured bindings in lambdas.
    const int nx = gridX, ny = gridY, nz = gridZ;
    const GridLayout3D g(nx, ny, nz, Packing::FourCellsAlongX, "g");
    INFO(g.describe());
    GridField3D f(g, "f"), out(g, "out"), blocks(g, "blocks");
    std::vector<float> values = test::randomFloats(g.cells(), 11, 0.0f, 0.9f);
    f.uploadCells(values);
    stream::Pass pass("test/grid3d_neighbours");
    pass.input("u_f", f).output(out).output(blocks);
    stream::bindGrid(pass, "u_grid", g).run();
    const std::vector<float> got = out.download(), b = blocks.download();
    auto at = [&](int i, int j, int k) { return i < 0 || i >= nx ? 0.0f : values[std::size_t(i + nx * (j + ny * k))]; };
    for (int k = 0; k < nz; ++k) {
      for (int j = 0; j < ny; ++j) {
        for (int i = 0; i < nx; ++i) {
          const std::size_t s = g.scalarIndex(i, j, k);
          CHECK(got[s] == Approx(at(i - 1, j, k) + 1000.0f * at(i + 1, j, k)).margin(1e-3));
          const std::size_t t = s / 4 * 4;
          CHECK(b[t] == float(i / 4));
          CHECK(b[t + 1] == float(j));
          CHECK(b[t + 2] == float(k));
        }
      }
    }
  }
}
