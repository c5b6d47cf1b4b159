// Tests src/solvers/multigrid/LayeredGrid.* and LayeredStencil.*: the layered layout of Bolz et al.
// 2003, §4.2 (four parts in RGBA, one-texel borders kept in sync by copy passes), layering
// and un-layering on the GPU against the CPU, and the stencil product against GridStencil.
#include <catch2/catch.hpp>

#include "solvers/multigrid/multigrid_reference.h"
#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/gl/Error.h>
#include <texstream/solvers/multigrid/GridStencil.h>
#include <texstream/solvers/multigrid/LayeredGrid.h>
#include <texstream/solvers/multigrid/LayeredStencil.h>
#include <texstream/stream/Vector.h>

#include <stdexcept>

using namespace texstream;
using solvers::Boundary;
using solvers::GridBoundaries;
using solvers::GridStencil;
using solvers::LayeredGrid;
using solvers::LayeredStencil;

namespace {

/// Odd shapes: tiny, prime, thin, (2^j + 1), 2^j, and sizes whose splits leave padding.
const std::vector<std::pair<int, int>> kShapes = {{2, 2}, {3, 5}, {5, 5}, {17, 17}, {16, 9}, {37, 23}, {100, 7}, {65, 33}};

}  // namespace

TEST_CASE("LayeredGrid: hierarchy sizes, splits and node mapping", "[multigrid]") {
  const auto h = LayeredGrid::hierarchy(1025, 1025, 0, 64);
  REQUIRE(h.size() == 9);  // 1025, 513, ..., 5
  CHECK(h[0].splitX() == 512);
  CHECK(h[0].width() == 515);
  CHECK(h.back().nx() == 5);
  for (std::size_t l = 1; l < h.size(); ++l) {
    CHECK(h[l].nx() == h[l - 1].nx() / 2 + 1);
    CHECK(h[l].splitX() * 2 == h[l - 1].splitX());
  }
  const auto e = LayeredGrid::hierarchy(1024, 512, 0, 64);
  CHECK(e[0].splitX() == 512);
  CHECK(e[0].width() == 514);
  CHECK(e[1].nx() == 513);
  const auto thin = LayeredGrid::hierarchy(513, 129, 0, 64);
  CHECK(thin.back().ny() == 3);
  CHECK(thin.back().nodes() <= 64);

  for (auto [nx, ny] : kShapes) {
    INFO(nx << "x" << ny);
    for (const LayeredGrid& g : LayeredGrid::hierarchy(nx, ny, 0, 4)) {
      INFO(g.describe());
      CHECK(g.splitX() <= g.nx() - g.splitX());
      std::vector<int> seen(g.nodes(), 0);
      for (int ty = 0; ty < g.height(); ++ty)
        for (int tx = 0; tx < g.width(); ++tx)
          for (int c = 0; c < 4; ++c) {
            if (!g.owns(tx, ty, c)) continue;
            int i, j;
            g.node(tx, ty, c, i, j);
            REQUIRE(i >= 0);
            REQUIRE(i < g.nx());
            REQUIRE(j >= 0);
            REQUIRE(j < g.ny());
            ++seen[std::size_t(j) * g.nx() + i];
            const auto s = g.owner(i, j);
            CHECK(s.x == tx);
            CHECK(s.y == ty);
            CHECK(s.channel == c);
          }
      for (int count : seen) REQUIRE(count == 1);  // every node owned exactly once
    }
  }
}

TEST_CASE("LayeredGrid: bad sizes and splits are rejected", "[multigrid]") {
  CHECK_THROWS_WITH(LayeredGrid(1, 5, 1, 2), Catch::Contains("at least 2x2"));
  CHECK_THROWS_WITH(LayeredGrid(9, 9, 5, 4), Catch::Contains("split x = 5"));
  CHECK_THROWS_AS(LayeredGrid(9, 9, 0, 4), std::invalid_argument);
  CHECK_THROWS_WITH(LayeredGrid(9, 9, 3, 4).coarser(), Catch::Contains("odd split"));
  CHECK_THROWS_WITH(LayeredGrid(4, 4, 2, 2).layerHost(std::vector<float>(15)), Catch::Contains("15 values"));
}

TEST_CASE("LayeredGrid: layer and unlayer on the GPU match the CPU layout", "[multigrid][gl]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  for (auto [nx, ny] : kShapes) {
    for (const LayeredGrid& g : LayeredGrid::hierarchy(nx, ny, 0, 4)) {
      INFO(g.describe());
      const std::vector<float> values = test::randomFloats(g.nodes(), 11 + std::size_t(g.nx()) * 7 + g.ny());
      stream::Vector nodes(g.nodes(), "nodes"), back(g.nodes(), "back");
      nodes.upload(values);
      stream::Vector layered(g.layout(), "layered");
      layered.upload(std::vector<float>(g.layout().size(), 99.0f));  // poison
      g.layer(nodes, layered);
      CHECK(layered.download() == g.layerHost(values));  // exact: a copy
      back.upload(std::vector<float>(g.nodes(), -7.0f));
      g.unlayer(layered, back);
      CHECK(back.download() == values);
    }
  }
}

TEST_CASE("LayeredGrid: border copies restore every duplicate", "[multigrid][gl]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  for (auto [nx, ny] : kShapes) {
    for (const LayeredGrid& g : LayeredGrid::hierarchy(nx, ny, 0, 4)) {
      INFO(g.describe());
      const std::vector<float> values = test::randomFloats(g.nodes(), 23 + std::size_t(g.nx()) * 5 + g.ny());
      const std::vector<float> full = g.layerHost(values);
      // Owned texels only; the border poisoned with values the copies must overwrite.
      std::vector<float> owned(full.size(), 0.0f);
      for (int ty = 0; ty < g.height(); ++ty)
        for (int tx = 0; tx < g.width(); ++tx)
          for (int c = 0; c < 4; ++c) {
            const std::size_t k = 4 * (std::size_t(ty) * g.width() + tx) + c;
            owned[k] = g.owns(tx, ty, c) ? full[k] : 1000.0f + float(k);
          }
      stream::Vector a(g.layout(), "a"), b(g.layout(), "b");
      a.upload(owned);
      b.upload(owned);
      g.syncBorder({&a, &b});
      CHECK(a.download() == full);
      CHECK(b.download() == full);
    }
  }
}

TEST_CASE("LayeredStencil: the layered product matches GridStencil::apply", "[multigrid][gl]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const GridBoundaries mixed{Boundary::Dirichlet, Boundary::Neumann, Boundary::Neumann, Boundary::Dirichlet};
  for (auto [nx, ny] : kShapes) {
    INFO(nx << "x" << ny);
    const GridStencil A = test::randomSymmetricStencil(nx, ny, 0.3, mixed, std::uint64_t(nx * 31 + ny));
    const LayeredGrid g = LayeredGrid::hierarchy(nx, ny, 0, 4)[0];
    const LayeredStencil L = LayeredStencil::upload(A, g);
    const std::vector<float> xs = test::randomFloats(A.nodes(), 5 + std::size_t(nx));
    stream::Vector x(A.nodes(), "x"), y(A.nodes(), "y");
    x.upload(xs);
    y.upload(std::vector<float>(A.nodes(), 123.0f));
    L.apply(x, y);
    CHECK(test::maxRelativeError(y.download(), A.apply(test::toDouble(xs))) < 1e-5);
    // diag(A): centres, 1 at fixed nodes.
    stream::Vector d(A.nodes(), "d");
    L.diagonal(d);
    const std::vector<float> ds = d.download();
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i)
        REQUIRE(ds[std::size_t(j) * nx + i] == (A.isFixed(i, j) ? 1.0f : A.coefficient(i, j, 0, 0)));
    // The round trip of the coefficients is exact.
    const GridStencil back = L.download();
    for (int e = 0; e < 9; ++e) REQUIRE(back.entry(e) == A.entry(e));
  }
}

TEST_CASE("GridStencil: builders and validation", "[multigrid]") {
  const GridStencil N = GridStencil::poisson(6, 5, GridBoundaries::all(Boundary::Neumann), "N");
  CHECK(N.hasConstantNullSpace());
  CHECK(N.coefficient(0, 0, 0, 0) == 1.0f);  // quarter cell: two half faces
  CHECK(N.coefficient(0, 2, 0, 0) == 2.0f);
  CHECK(N.coefficient(0, 2, 0, 1) == -0.5f);
  CHECK(N.coefficient(3, 2, 0, 0) == 4.0f);
  CHECK(N.cellWeight(0, 0) == 0.25);
  // Symmetric: A(p, q) = A(q, p).
  for (int j = 0; j < 5; ++j)
    for (int i = 0; i + 1 < 6; ++i) CHECK(N.coefficient(i, j, 1, 0) == N.coefficient(i + 1, j, -1, 0));
  const GridStencil D = GridStencil::poisson(6, 5, GridBoundaries::all(Boundary::Dirichlet), "D");
  CHECK_FALSE(D.hasConstantNullSpace());
  CHECK(D.isFixed(0, 3));
  CHECK(D.freeNodes() == 4 * 3);
  const GridStencil H = GridStencil::helmholtz(6, 5, 0.5, GridBoundaries::all(Boundary::Neumann), "H");
  CHECK_FALSE(H.hasConstantNullSpace());
  CHECK(H.coefficient(0, 0, 0, 0) == Approx(1.0 + 0.5 * 0.25));

  GridStencil bad = GridStencil::poisson(4, 4, GridBoundaries::all(Boundary::Neumann), "bad");
  bad.setCoefficient(0, 1, -1, 0, 0.5f);
  CHECK_THROWS_WITH(bad.validate(), Catch::Contains("node (0, 1)") && Catch::Contains("past the grid"));
  GridStencil bad2 = GridStencil::poisson(4, 4, GridBoundaries::all(Boundary::Dirichlet), "bad2");
  bad2.setCoefficient(0, 0, 1, 0, -1.0f);
  CHECK_THROWS_WITH(bad2.validate(), Catch::Contains("is fixed"));
  CHECK_THROWS_AS(GridStencil::helmholtz(4, 4, -1.0, {}, "neg"), std::invalid_argument);
}
