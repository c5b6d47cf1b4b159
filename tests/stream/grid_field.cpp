// Tests src/stream/GridField.*: a field of nx x ny nodes in image form, one RGBA texel a
// node, channels uploaded in node order; wrong sizes are refused naming the field.
#include <catch2/catch.hpp>

#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/gl/Error.h>
#include <texstream/stream/GridField.h>

#include <vector>

using namespace texstream;
using stream::GridField;

TEST_CASE("GridField: texel (i, j) holds node (i, j), channels in node order", "[gl][stream]") {
  test::context();
  for (auto [nx, ny] : std::vector<std::pair<int, int>>{{1, 1}, {5, 3}, {7, 13}, {64, 1}}) {
    INFO(nx << "x" << ny);
    GridField f(nx, ny, "field");
    CHECK(f.nx() == nx);
    CHECK(f.ny() == ny);
    CHECK(f.nodes() == std::size_t(nx) * std::size_t(ny));
    CHECK(f.layout().width() == nx);
    CHECK(f.layout().height() == ny);
    CHECK(f.hasSize(nx, ny));
    CHECK_FALSE(f.hasSize(nx + 1, ny));
    const std::vector<float> u = test::randomFloats(f.nodes(), 3), v = test::randomFloats(f.nodes(), 4);
    f.uploadChannels({u, v});
    const std::vector<float> texels = f.download();
    REQUIRE(texels.size() == 4 * f.nodes());
    for (std::size_t k = 0; k < f.nodes(); ++k) {
      CHECK(texels[4 * k] == u[k]);
      CHECK(texels[4 * k + 1] == v[k]);
      CHECK(texels[4 * k + 2] == 0.0f);
      CHECK(texels[4 * k + 3] == 0.0f);
    }
    GridField t = GridField::temporary(nx, ny, "temporary");
    CHECK(t.hasSize(nx, ny));
  }
  CHECK_FALSE(GridField().hasSize(0, 0));
}

TEST_CASE("GridField refuses empty grids and channels of the wrong size", "[gl][stream]") {
  test::context();
  CHECK_THROWS_WITH(GridField(0, 4, "flat"), Catch::Contains("flat") && Catch::Contains("nx = 0"));
  CHECK_THROWS_WITH(GridField::temporary(3, -1, "negative"), Catch::Contains("ny = -1"));
  GridField f(4, 3, "velocity");
  const std::vector<float> right(12, 1.0f), wrong(11, 1.0f);
  CHECK_THROWS_WITH(f.uploadChannels({right, wrong}),
                    Catch::Contains("velocity") && Catch::Contains("channel 1 has 11 values for 4x3 nodes"));
  CHECK_THROWS_WITH(f.uploadChannels({right, right, right, right, right}), Catch::Contains("5 channels"));
}
