// Tests src/solvers/multigrid/GridTransfer.*: bilinear interpolation S, full-weighting projection
// P = 1/4 S^T and the Galerkin coarse operator P A S of Bolz et al. 2003, §4.2, against CPU
// double references written in global node coordinates, on both backends.
#include <catch2/catch.hpp>

#include "solvers/multigrid/multigrid_reference.h"
#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/solvers/multigrid/GridStencil.h>
#include <texstream/solvers/multigrid/GridTransfer.h>
#include <texstream/solvers/multigrid/LayeredGrid.h>
#include <texstream/solvers/multigrid/LayeredStencil.h>
#include <texstream/solvers/multigrid/Multigrid.h>
#include <texstream/stream/Vector.h>

#include <cmath>

using namespace texstream;
using solvers::Boundary;
using solvers::GridBoundaries;
using solvers::GridStencil;
using solvers::LayeredGrid;
using solvers::LayeredStencil;

namespace {

const GridBoundaries kMixed{Boundary::Dirichlet, Boundary::Neumann, Boundary::Dirichlet, Boundary::Neumann};
/// Odd and even sides (coarse node n/2 of an even side lies one node past the fine grid).
const std::vector<std::pair<int, int>> kShapes = {{5, 5}, {9, 6}, {17, 17}, {12, 21}, {33, 30}};

stream::Vector layered(const LayeredGrid& g, const std::vector<float>& nodeValues, const char* name) {
  stream::Vector v(g.layout(), name);
  v.upload(g.layerHost(nodeValues));
  return v;
}

double dotD(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

}  // namespace

TEST_CASE("Multigrid transfers: S and P match the CPU and are adjoint up to 4", "[multigrid][gl]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  for (const GridBoundaries& bc : {GridBoundaries::all(Boundary::Neumann), kMixed}) {
    for (auto [nx, ny] : kShapes) {
      INFO(nx << "x" << ny << ", west " << solvers::boundaryName(bc.west));
      const GridStencil A = GridStencil::poisson(nx, ny, bc, "A");
      solvers::Multigrid mg(A, {.maxLevels = 2, .coarsestNodes = 4});
      REQUIRE(mg.levels() == 2);
      const LayeredGrid& fine = mg.grid(0);
      const LayeredGrid& coarse = mg.grid(1);
      const GridStencil C = mg.op(1).download();
      std::vector<bool> coarseFixed(C.nodes());
      for (int j = 0; j < C.ny(); ++j)
        for (int i = 0; i < C.nx(); ++i) coarseFixed[std::size_t(j) * C.nx() + i] = C.isFixed(i, j);

      // Random vectors, zero at fixed nodes (what the cycle feeds these operators).
      std::vector<float> r = test::randomFloats(A.nodes(), 3 + std::size_t(nx)), v = test::randomFloats(C.nodes(), 4);
      for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i)
          if (A.isFixed(i, j)) r[std::size_t(j) * nx + i] = 0.0f;
      for (std::size_t k = 0; k < v.size(); ++k)
        if (coarseFixed[k]) v[k] = 0.0f;

      stream::Vector rl = layered(fine, r, "r"), vl = layered(coarse, v, "v");
      stream::Vector Pr(coarse.layout(), "Pr"), Sv(fine.layout(), "Sv");
      Pr.upload(std::vector<float>(coarse.layout().size(), 77.0f));
      Sv.upload(std::vector<float>(fine.layout().size(), 0.0f));
      solvers::projectFullWeighting(fine, coarse, rl, mg.op(1).centre(), Pr);
      solvers::interpolateBilinear(fine, coarse, vl, mg.op(0).centre(), Sv, /*add=*/false);

      const std::vector<float> gotP = coarse.unlayerHost(Pr.download());
      const std::vector<float> gotS = fine.unlayerHost(Sv.download());
      const std::vector<double> refP = test::projectReference(nx, ny, test::toDouble(r), coarseFixed);
      const std::vector<double> refS = test::interpolateReference(A, test::toDouble(v));
      CHECK(test::maxRelativeError(gotP, refP) < 1e-6);
      CHECK(test::maxRelativeError(gotS, refS) < 1e-6);
      // <P r, v> = 1/4 <r, S v>, from the GPU results.
      const double lhs = dotD(test::toDouble(gotP), test::toDouble(v));
      const double rhs = 0.25 * dotD(test::toDouble(r), test::toDouble(gotS));
      CHECK(std::abs(lhs - rhs) <= 1e-5 * (std::abs(lhs) + std::abs(rhs)));
      // The synced result equals the CPU layering of its node values (borders in sync).
      CHECK(Sv.download() == fine.layerHost(gotS));
    }
  }
}

TEST_CASE("Multigrid Galerkin: P A S of the 5-point Laplacian is the known 9-point stencil", "[multigrid][gl]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  // Galerkin coarsening of -Δ_h {4, -1, -1, -1, -1} with bilinear S and P = 1/4 S^T gives
  // 1/16 {-1 -2 -1; -2 12 -2; -1 -2 -1} (= 1 / (4 H^2) [...] with H = 2h, Trottenberg et
  // al. 2001, §5.2) at every interior coarse node; coarsening that 9-point stencil once more
  // gives 1/256 {-5 -6 -5; -6 44 -6; -5 -6 -5} (exact rational arithmetic).
  const GridStencil A = GridStencil::poisson(33, 33, GridBoundaries::all(Boundary::Dirichlet), "lap");
  solvers::Multigrid mg(A, {.maxLevels = 3, .coarsestNodes = 4});
  REQUIRE(mg.levels() == 3);
  const double known[2][9] = {{-1 / 16., -2 / 16., -1 / 16., -2 / 16., 12 / 16., -2 / 16., -1 / 16., -2 / 16., -1 / 16.},
                              {-5 / 256., -6 / 256., -5 / 256., -6 / 256., 44 / 256., -6 / 256., -5 / 256., -6 / 256.,
                               -5 / 256.}};
  for (int level = 1; level < mg.levels(); ++level) {
    INFO("level " << level);
    const GridStencil C = mg.op(level).download();
    for (int j = 2; j + 2 < C.ny(); ++j)
      for (int i = 2; i + 2 < C.nx(); ++i)
        for (int e = 0; e < 9; ++e)
          REQUIRE(C.entry(e)[std::size_t(j) * C.nx() + i] == Approx(known[level - 1][e]).margin(1e-7));
    // Every coarse node's support holds a free fine node (even the corners: fine node
    // (1, 1)), so none is fixed, and S reproduces constants on the free fine nodes.
    CHECK(C.freeNodes() == C.nodes());
  }
  // Neumann: A 1 = 0 survives coarsening (the null space is kept).
  const GridStencil N = GridStencil::poisson(20, 17, GridBoundaries::all(Boundary::Neumann), "neu");
  solvers::Multigrid mn(N);
  for (int level = 0; level < mn.levels(); ++level) {
    const GridStencil C = mn.op(level).download();
    const std::vector<double> ones(C.nodes(), 1.0);
    const std::vector<double> a1 = C.apply(ones);
    double worst = 0;
    for (double v : a1) worst = std::max(worst, std::abs(v));
    INFO("level " << level << " " << mn.grid(level).describe());
    CHECK(worst < 1e-5);
  }
}

TEST_CASE("Multigrid Galerkin: variable coefficients and fixed nodes match P A S in double", "[multigrid][gl]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  for (const GridBoundaries& bc : {GridBoundaries::all(Boundary::Neumann), kMixed}) {
    for (auto [nx, ny] : kShapes) {
      INFO(nx << "x" << ny << ", west " << solvers::boundaryName(bc.west));
      const GridStencil A = test::randomSymmetricStencil(nx, ny, 0.1, bc, std::uint64_t(nx * 100 + ny));
      solvers::Multigrid mg(A, {.maxLevels = 2, .coarsestNodes = 4});
      const GridStencil C = mg.op(1).download();
      const auto ref = test::galerkinReference(A);
      double scale = 0;
      for (double v : ref[4]) scale = std::max(scale, std::abs(v));
      for (int e = 0; e < 9; ++e) {
        INFO("entry " << e);
        double worst = 0;
        for (std::size_t k = 0; k < C.nodes(); ++k)
          worst = std::max(worst, std::abs(double(C.entry(e)[k]) - ref[std::size_t(e)][k]));
        CHECK(worst <= 1e-6 * scale);
      }
    }
  }
}
