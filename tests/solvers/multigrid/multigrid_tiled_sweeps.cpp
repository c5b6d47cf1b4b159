// The tiled sweeps of the compute backend (multigrid/sweep_tile.glsl): several Jacobi sweeps
// of a tile in shared memory, fused with the coarse-grid correction or with the residual and
// its projection, against the fragment backend's pass-per-sweep kernels (the same
// mathematics), at awkward grid sizes (tiles cut by the texture's edges and by the splits of
// the layered layout), for every smoothing schedule that takes a different dispatch
// sequence; and the borders they write, which must be in sync bit for bit.
#include <catch2/catch.hpp>

#include "solvers/multigrid/multigrid_reference.h"
#include "support/Features.h"
#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/solvers/multigrid/GridStencil.h>
#include <texstream/solvers/multigrid/LayeredGrid.h>
#include <texstream/solvers/multigrid/LayeredStencil.h>
#include <texstream/solvers/multigrid/Multigrid.h>
#include <texstream/stream/Runtime.h>
#include <texstream/stream/Vector.h>

#include <limits>
#include <string>
#include <vector>

using namespace texstream;
using solvers::Boundary;
using solvers::BorderUpdate;
using solvers::CoarseSolve;
using solvers::CycleType;
using solvers::GridBoundaries;
using solvers::GridStencil;
using solvers::LayeredStencil;
using solvers::Multigrid;
using solvers::MultigridOptions;

namespace {

/// x after `cycles` cycles from (xs, bs), layered (border included).
std::vector<float> cycled(Multigrid& mg, const std::vector<float>& xs, const std::vector<float>& bs, int cycles) {
  const solvers::LayeredGrid& g = mg.grid(0);
  stream::Vector x(g.nodes(), "x"), b(g.nodes(), "b");
  x.upload(xs);
  b.upload(bs);
  g.layer(b, mg.rhs());
  g.layer(x, mg.solution());
  mg.imposeFixed();
  for (int c = 0; c < cycles; ++c) mg.cycle();
  return mg.solution().download();
}

struct Schedule {
  const char* what;
  MultigridOptions options;
};

}  // namespace

TEST_CASE("Multigrid tiled sweeps: cycles match the pass-per-sweep kernels, borders in sync",
          "[multigrid][gl][compute]") {
  test::context();
  if (!test::testsCompute()) return;  // no compute backend in this run
  const std::vector<Schedule> schedules = {
      {"V(2,2)", {}},
      {"V(0,3): residual and projection only", {.preSmoothing = 0, .postSmoothing = 3}},
      {"V(6,1): a sweeps-only dispatch first", {.preSmoothing = 6, .postSmoothing = 1}},
      {"V(1,0): interpolation without post-sweeps", {.preSmoothing = 1, .postSmoothing = 0}},
      {"W(2,5), Jacobi coarsest", {.cycle = CycleType::W, .postSmoothing = 5, .coarseSolve = CoarseSolve::Jacobi,
                                    .coarseIterations = 7}},
      {"V(2,2), constant stencils on every level", {.constantStencilTexels = 0}},
  };
  // Tiles of 20 to 30 texels: textures of 2 to 70 texels a side cut them anywhere.
  for (auto [nx, ny] : std::vector<std::pair<int, int>>{{5, 7}, {17, 13}, {31, 31}, {100, 37}, {131, 67}}) {
    for (int problem = 0; problem < 2; ++problem) {
      const GridStencil A =
          problem == 0 ? GridStencil::poisson(nx, ny, GridBoundaries{Boundary::Dirichlet, Boundary::Neumann,
                                                                     Boundary::Neumann, Boundary::Dirichlet},
                                              "mixed")
                       : test::randomSymmetricStencil(nx, ny, 0.05, GridBoundaries::all(Boundary::Dirichlet), 17);
      const std::vector<float> xs = test::randomFloats(A.nodes(), 31), bs = test::randomFloats(A.nodes(), 32);
      for (const Schedule& s : schedules) {
        INFO(nx << "x" << ny << ", " << (problem == 0 ? "mixed Poisson" : "random coefficients") << ", " << s.what);
        MultigridOptions o = s.options;
        o.border = BorderUpdate::InKernel;
        Multigrid mg(LayeredStencil::upload(A, Multigrid::fineGrid(nx, ny, o)), false, o);
        std::vector<float> got, ref;
        {
          stream::BackendScope compute(stream::Backend::Compute);
          REQUIRE(mg.tiledSweeps());
          got = cycled(mg, xs, bs, 2);
        }
        {
          stream::BackendScope fragment(stream::Backend::Fragment);
          REQUIRE(!mg.tiledSweeps());
          ref = cycled(mg, xs, bs, 2);
        }
        CHECK(test::maxRelativeError(got, test::toDouble(ref)) < 2e-5);
        // Every border duplicate holds its owner's value, padding is zero.
        CHECK(got == mg.grid(0).layerHost(mg.grid(0).unlayerHost(got)));
      }
    }
  }
}

TEST_CASE("Multigrid tiled sweeps: a V(2,2) cycle takes two dispatches a level above the block cycle",
          "[multigrid][gl][compute]") {
  test::context();
  if (!test::testsCompute() || !test::passCountsReadable()) return;
  stream::BackendScope compute(stream::Backend::Compute);
  const GridStencil A = GridStencil::poisson(257, 257, GridBoundaries::all(Boundary::Dirichlet), "poisson");
  Multigrid mg(A);
  const std::vector<float> xs = test::randomFloats(A.nodes(), 51), bs = test::randomFloats(A.nodes(), 52);
  const int above = mg.blockCycleInfo().level;
  REQUIRE(above > 0);
  const test::PassCounts passes = test::countPasses([&] {
    cycled(mg, xs, bs, 1);
    mg.rhsNorm();  // a read-back after the cycle's last pass
  });
  CHECK(passes.of("mg sweeps+restrict") == above);
  CHECK(passes.of("mg correct+sweeps") == above);
  CHECK(passes.of("mg block cycle") == 1);
  CHECK(passes.of("mg smooth") + passes.of("mg residual") + passes.of("mg restrict") + passes.of("mg sweeps") == 0);
}

TEST_CASE("Multigrid tiled sweeps: 16 x 16 workgroups on levels too small to fill a GPU with 32 x 32 ones, "
          "where the smoothing fits two sweeps a dispatch",
          "[multigrid][gl][compute]") {
  test::context();
  if (!test::testsCompute() || stream::Runtime::current().caps().maxComputeInvocations < 1024) return;
  // 540^2 nodes: 271^2 texels on the finest level, 12^2 tiles of 32 x 32 workgroups (24 texels
  // each with two sweeps and the projection's halo), then 136^2 texels, 6^2 tiles.
  const GridStencil A = GridStencil::poisson(540, 540, GridBoundaries::all(Boundary::Dirichlet), "poisson");
  Multigrid v22(A);
  REQUIRE(v22.levels() > 2);
  CHECK(v22.tileThreads(0) == 32);
  CHECK(v22.maxTileSweeps(0) == 4);
  for (int l = 1; l < v22.levels(); ++l) {
    INFO("level " << l);
    CHECK(v22.tileThreads(l) == 16);
    CHECK(v22.maxTileSweeps(l) == 2);
  }
  // The fluid's V(4,2) would need two dispatches for its pre-sweeps with 16 x 16 ones.
  Multigrid v42(A, {.preSmoothing = 4, .postSmoothing = 2});
  for (int l = 0; l < v42.levels(); ++l) CHECK(v42.tileThreads(l) == 32);
}

TEST_CASE("Multigrid tiled sweeps: relax and full multigrid match the fragment backend", "[multigrid][gl][compute]") {
  test::context();
  if (!test::testsCompute()) return;  // no compute backend in this run
  const GridStencil A = test::randomSymmetricStencil(53, 29, 0.1, GridBoundaries::all(Boundary::Dirichlet), 5);
  const std::vector<float> xs = test::randomFloats(A.nodes(), 41), bs = test::randomFloats(A.nodes(), 42);
  Multigrid mg(A, {.fullMultigrid = true});
  for (const int sweeps : {1, 4, 9}) {
    INFO(sweeps << " Jacobi sweeps");
    std::vector<float> got, ref;
    for (stream::Backend backend : {stream::Backend::Compute, stream::Backend::Fragment}) {
      stream::BackendScope scope(backend);
      const solvers::LayeredGrid& g = mg.grid(0);
      stream::Vector x(g.nodes(), "x"), b(g.nodes(), "b");
      x.upload(xs);
      b.upload(bs);
      g.layer(b, mg.rhs());
      g.layer(x, mg.solution());
      mg.relax(sweeps);
      (backend == stream::Backend::Compute ? got : ref) = mg.solution().download();
    }
    CHECK(test::maxRelativeError(got, test::toDouble(ref)) < 1e-5);
    CHECK(got == mg.grid(0).layerHost(mg.grid(0).unlayerHost(got)));
  }
  std::vector<float> got, ref;
  for (stream::Backend backend : {stream::Backend::Compute, stream::Backend::Fragment}) {
    stream::BackendScope scope(backend);
    stream::Vector b(A.nodes(), "b"), x(A.nodes(), "x");
    b.upload(bs);
    const auto status = mg.solve(b, x, {.tolerance = 0.0f, .maxIterations = 2});
    CHECK(status.iterations == 2);
    (backend == stream::Backend::Compute ? got : ref) = x.download();
  }
  CHECK(test::maxRelativeError(got, test::toDouble(ref)) < 2e-5);
}

TEST_CASE("Multigrid tiled sweeps: the 5-point flag that lets them skip the corner entries", "[multigrid][gl]") {
  test::context();
  const GridStencil poisson = GridStencil::poisson(17, 13, GridBoundaries::all(Boundary::Dirichlet), "poisson");
  const GridStencil nine = test::randomSymmetricStencil(17, 13, 0.1, GridBoundaries::all(Boundary::Dirichlet), 7);
  const solvers::LayeredGrid g = Multigrid::fineGrid(17, 13);
  // From the uploaded corners.
  LayeredStencil five = LayeredStencil::upload(poisson, g);
  CHECK(five.fivePoint());
  CHECK_FALSE(LayeredStencil::upload(nine, g).fivePoint());
  // All zero from construction; writable edges and centre keep it, a writable corner ends it.
  LayeredStencil zero(g, "zero");
  CHECK(zero.fivePoint());
  for (int e : {1, 3, 4, 5, 7}) (void)zero.entry(e);
  CHECK(zero.fivePoint());
  (void)zero.entry(6);
  CHECK_FALSE(zero.fivePoint());
  // A hierarchy: the fine Poisson level is 5-point, its Galerkin coarse operators are not.
  Multigrid mg(poisson);
  CHECK(mg.op(0).fivePoint());
  CHECK_FALSE(mg.op(1).fivePoint());
}

TEST_CASE("Multigrid tiled sweeps: 16 x 16 tiles and no block cycle on GLs of 256 and 512 invocations a workgroup",
          "[multigrid][gl][compute]") {
  test::context();
  if (!test::testsCompute()) return;  // no compute backend in this run
  for (const int invocations : {256, 512}) {
    test::ComputeLimit limit(invocations);  // as GLES 3.1 devices with smaller workgroups
    REQUIRE(stream::Runtime::current().caps().compute);
    for (auto [nx, ny] : std::vector<std::pair<int, int>>{{17, 13}, {100, 37}}) {
      const GridStencil A = test::randomSymmetricStencil(nx, ny, 0.05, GridBoundaries::all(Boundary::Dirichlet), 23);
      const std::vector<float> xs = test::randomFloats(A.nodes(), 33), bs = test::randomFloats(A.nodes(), 34);
      // V(5,1): the pre-smoothing takes two sweeps-only dispatches before the restricting one.
      for (const Schedule& s : {Schedule{"V(2,2)", {}}, Schedule{"V(5,1)", {.preSmoothing = 5, .postSmoothing = 1}}}) {
        INFO(invocations << " invocations, " << nx << "x" << ny << ", " << s.what);
        MultigridOptions o = s.options;
        o.border = BorderUpdate::InKernel;
        Multigrid mg(LayeredStencil::upload(A, Multigrid::fineGrid(nx, ny, o)), false, o);
        std::vector<float> got, ref;
        {
          stream::BackendScope compute(stream::Backend::Compute);
          REQUIRE(mg.tiledSweeps());
          CHECK(mg.maxTileSweeps() == 2);                // 16 x 16 tiles
          CHECK(mg.blockCycleInfo().level == -1);         // it needs 1024 invocations
          got = cycled(mg, xs, bs, 2);
        }
        {
          stream::BackendScope fragment(stream::Backend::Fragment);
          ref = cycled(mg, xs, bs, 2);
        }
        CHECK(test::maxRelativeError(got, test::toDouble(ref)) < 2e-5);
        CHECK(got == mg.grid(0).layerHost(mg.grid(0).unlayerHost(got)));
      }
    }
  }
}

TEST_CASE("Multigrid tiled sweeps: uniform tiles by their own program, the others by the stencil program, one pass",
          "[multigrid][gl][compute]") {
  test::context();
  if (!test::testsCompute()) return;  // no compute backend in this run
  // Dirichlet Poisson with a disc of fixed nodes (the fluid's obstacles): the flagged texels
  // lie away from the walls and the disc. 301 x 263 nodes: 151 x 132 texels on the finest
  // level, tiles of 24 to 28 texels (32 x 32 workgroups) or 8 to 12 (16 x 16), cut by the
  // texture's edges and the layered layout's splits.
  const int nx = 301, ny = 263;
  GridStencil A = GridStencil::poisson(nx, ny, GridBoundaries::all(Boundary::Dirichlet), "obstacle");
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
      if ((i - 100) * (i - 100) + (j - 90) * (j - 90) <= 30 * 30) A.fix(i, j);
  const std::vector<float> xs = test::randomFloats(A.nodes(), 61), bs = test::randomFloats(A.nodes(), 62);
  const std::vector<Schedule> schedules = {
      {"V(2,2)", {}},
      {"V(4,2), the fluid's", {.preSmoothing = 4, .postSmoothing = 2}},
      {"V(6,1): a sweeps-only dispatch first", {.preSmoothing = 6, .postSmoothing = 1}},
  };
  for (Schedule s : schedules) {
    INFO(s.what);
    s.options.uniformProgramTiles = 0;  // every dispatch, however few its tiles
    Multigrid mg(A, s.options);
    std::vector<float> got, ref;
    {
      stream::BackendScope compute(stream::Backend::Compute);
      REQUIRE(mg.tiledSweeps());
      got = cycled(mg, xs, bs, 2);
      // Both programs ran on the finest level, and with 16 x 16 workgroups (V(2,2)) on the
      // next one too (32 x 32 ones' footprints there all touch an edge or the disc).
      CHECK(mg.tileCounts(0).uniform > 0);
      CHECK(mg.tileCounts(0).stencil > 0);
      if (mg.tileThreads(1) == 16) CHECK(mg.tileCounts(1).uniform > 0);
    }
    {
      stream::BackendScope fragment(stream::Backend::Fragment);
      ref = cycled(mg, xs, bs, 2);
    }
    CHECK(test::maxRelativeError(got, test::toDouble(ref)) < 2e-5);
    CHECK(got == mg.grid(0).layerHost(mg.grid(0).unlayerHost(got)));
    // Without the flags every tile reads the stencil textures: the same cycles.
    MultigridOptions off = s.options;
    off.tiledConstantStencilTexels = std::numeric_limits<int>::max();
    // And by default (1024 tiles at least): too few tiles here for the second program.
    Multigrid byDefault(A, {.preSmoothing = s.options.preSmoothing, .postSmoothing = s.options.postSmoothing});
    {
      stream::BackendScope compute(stream::Backend::Compute);
      CHECK(test::maxRelativeError(cycled(byDefault, xs, bs, 2), test::toDouble(got)) < 2e-5);
      CHECK(byDefault.tileCounts(0).uniform == 0);
    }
    Multigrid textures(A, off);
    stream::BackendScope compute(stream::Backend::Compute);
    CHECK(test::maxRelativeError(cycled(textures, xs, bs, 2), test::toDouble(got)) < 2e-5);
    CHECK(textures.tileCounts(0).uniform == 0);
    CHECK(textures.tileCounts(0).stencil > 0);
  }
  // Cycles with copy passes never run the tiled sweeps, so their small levels get no flags;
  // switching to borders in the kernels finds them.
  Multigrid switched(A, {.border = BorderUpdate::CopyPasses, .uniformProgramTiles = 0});
  REQUIRE(switched.levels() > 1);
  CHECK_FALSE(switched.op(1).hasConstantStencil());
  MultigridOptions inKernel = switched.options();
  inKernel.border = BorderUpdate::InKernel;
  switched.setOptions(inKernel);
  CHECK(switched.op(1).hasConstantStencil());
  Multigrid reference(A, {.uniformProgramTiles = 0});
  stream::BackendScope compute(stream::Backend::Compute);
  const std::vector<float> ref = cycled(reference, xs, bs, 2);
  CHECK(test::maxRelativeError(cycled(switched, xs, bs, 2), test::toDouble(ref)) < 2e-5);
  CHECK(switched.tileCounts(0).uniform > 0);
}
