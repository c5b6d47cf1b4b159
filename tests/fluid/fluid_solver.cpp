// Tests src/fluid/*: the stable-fluids step of Bolz et al. 2003, §4.1 on the layered
// multigrid: the projection's divergence reduction, long runs of every scene, the
// lid-driven cavity's vortex, obstacles, CSV export, and agreement of the two backends.
#include <catch2/catch.hpp>

#include "support/Gl.h"
#include "support/Random.h"
#include "support/Sizes.h"

#include <texstream/fluid/FluidSolver.h>
#include <texstream/fluid/Scene.h>
#include <texstream/stream/GridField.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

using namespace texstream;
using fluid::FluidParameters;
using fluid::FluidSolver;
using fluid::PressureSolver;
using fluid::Scene;

namespace {

/// A random velocity field (not divergence-free) for the scene's grid.
void randomVelocity(FluidSolver& s, std::uint64_t seed) {
  const std::size_t n = std::size_t(s.nx()) * s.ny();
  s.setVelocity(test::randomFloats(n, seed), test::randomFloats(n, seed + 1));
}

double maxAbsDifference(const std::vector<FluidSolver::NodeSample>& a, const std::vector<FluidSolver::NodeSample>& b,
                        double& scale) {
  double worst = 0;
  scale = 0;
  for (std::size_t k = 0; k < a.size(); ++k) {
    worst = std::max({worst, std::abs(a[k].u - b[k].u), std::abs(a[k].v - b[k].v)});
    scale = std::max({scale, std::abs(a[k].u), std::abs(a[k].v)});
  }
  return worst;
}

}  // namespace

TEST_CASE("Fluid: the projection lowers the face divergence by at least 1e4", "[fluid][gl]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  for (Scene scene : {Scene::Smoke, Scene::Obstacles}) {
    INFO(fluid::sceneName(scene));
    FluidParameters p;
    p.scene = scene;
    p.nx = scene == Scene::Smoke ? 65 : 97;
    p.ny = scene == Scene::Smoke ? 65 : 41;
    p.pressure.tolerance = 1e-5f;  // solve, rather than two cycles
    p.buoyancy = 0;
    p.particles = 64;
    FluidSolver s(p);
    randomVelocity(s, 40);
    s.step();
    const auto& st = s.lastStats();
    INFO("divergence " << st.divergenceBefore << " -> " << st.divergenceAfter << " (nodes " << st.divergenceAfterNodes
                       << ") in " << st.iterations << " cycles");
    CHECK(st.divergenceBefore > 1.0);
    CHECK(st.divergenceAfter <= 1e-4 * st.divergenceBefore);
    CHECK(st.finite);
    CHECK(st.iterations <= 12);
  }
}

TEST_CASE("Fluid: multigrid beats Jacobi and matches CG on the pressure solve", "[fluid][gl]") {
  test::context();
  FluidParameters p;
  p.scene = Scene::Smoke;
  p.nx = p.ny = 65;
  p.buoyancy = 0;
  p.particles = 0;
  double after[3];
  int k = 0;
  for (PressureSolver solver : {PressureSolver::Multigrid, PressureSolver::Jacobi, PressureSolver::ConjugateGradient}) {
    p.solver = solver;
    p.cycles = 2;       // multigrid: two V(4,2) cycles (Bolz's setting)
    p.iterations = 30;  // Jacobi: 30 sweeps (about the cost of the two cycles); CG: 30 iterations
    FluidSolver s(p);
    randomVelocity(s, 41);
    s.step();
    after[k++] = s.lastStats().divergenceAfter / s.lastStats().divergenceBefore;
    // Residuals: after each cycle, every 10 Jacobi sweeps, after each CG iteration.
    CHECK(s.lastStats().residuals.size() == std::size_t(solver == PressureSolver::Multigrid ? 2 : solver == PressureSolver::Jacobi ? 3 : 30));
  }
  INFO("relative divergence after: mg " << after[0] << ", jacobi " << after[1] << ", cg " << after[2]);
  CHECK(after[0] < 0.05);
  CHECK(after[0] < after[1] / 5);
  CHECK(after[0] < after[2]);
}

TEST_CASE("Fluid: every scene runs 1000 steps without a non-finite value", "[fluid][gl][long]") {
  test::context();
  struct Case {
    Scene scene;
    int nx, ny;
  };
  for (const Case& c : {Case{Scene::Smoke, 33, 33}, Case{Scene::Channel, 65, 17}, Case{Scene::Cavity, 33, 33},
                        Case{Scene::Obstacles, 49, 17}}) {
    INFO(fluid::sceneName(c.scene) << " " << c.nx << "x" << c.ny);
    FluidParameters p;
    p.scene = c.scene;
    p.nx = c.nx;
    p.ny = c.ny;
    p.particles = 256;
    p.statistics = false;
    // One V(2,1) cycle per step, warm-started: the run tests the scheme's stability, and
    // keeps 4000 steps within a few seconds on llvmpipe.
    p.cycles = 1;
    p.multigrid.preSmoothing = 2;
    p.multigrid.postSmoothing = 1;
    p.advection = c.scene == Scene::Smoke ? fluid::Advection::MacCormack : fluid::Advection::SemiLagrangian;
    if (c.scene == Scene::Cavity) p.dt = 0.01;
    FluidSolver s(p);
    // In the browser's software WebGL2 150 steps (t = 1.5 in the cavity, where the vortex
    // has formed): 1000 take half a minute there.
    for (int step = 0; step < test::sized(1000, 150); ++step) {
      if (c.scene == Scene::Smoke && step % 50 == 0)
        s.addSplat({.x = 16, .y = 10, .forceX = 2.0f, .forceY = 1.0f, .radius = 3, .r = 0.5f, .g = 1, .b = 0.5f});
      s.step();
    }
    FluidParameters q = s.parameters();
    q.statistics = true;
    s.setParameters(q);
    s.step();
    const auto& st = s.lastStats();
    INFO("max |velocity| " << st.maxSpeed << ", divergence after " << st.divergenceAfter);
    CHECK(st.finite);
    CHECK(st.maxSpeed < 50.0);
    const auto nodes = s.sampleNodes();
    for (const auto& n : nodes) REQUIRE((std::isfinite(n.u) && std::isfinite(n.v) && std::isfinite(n.p)));
    if (c.scene == Scene::Cavity) {
      // The lid drives one clockwise vortex: on the vertical centre line u > 0 near the lid
      // and u < 0 below the centre (Ghia et al. 1982, Re = 100: min u = -0.21 at y = 0.45;
      // a coarse semi-Lagrangian grid diffuses it a little).
      double minU = 0, topU = 0;
      for (const auto& n : nodes) {
        if (n.i != c.nx / 2) continue;
        if (n.j == c.ny - 3) topU = n.u;
        if (n.j > 0 && n.j < c.ny - 1) minU = std::min(minU, n.u);
      }
      INFO("centre line: u near the lid " << topU << ", min u " << minU);
      CHECK(topU > 0.2);
      CHECK(minU < -0.08);
      CHECK(minU > -0.4);
    }
  }
}

TEST_CASE("Fluid: before the first step every field and the pressure multigrid exist", "[fluid][gl]") {
  // texstream-fluid --steps 0 reports and draws the initial state.
  TEXSTREAM_FOR_EACH_BACKEND();
  FluidParameters p;
  p.scene = Scene::Obstacles;
  p.nx = 33;
  p.ny = 17;
  FluidSolver s(p);
  REQUIRE(s.steps() == 0);
  CHECK(s.pressureMultigrid().levels() >= 1);
  CHECK(s.pressureMultigrid().freeNodes() > 0);
  stream::GridField image;
  for (fluid::Field f : {fluid::Field::Dye, fluid::Field::Velocity, fluid::Field::Pressure, fluid::Field::Divergence,
                         fluid::Field::Vorticity, fluid::Field::Type}) {
    INFO(fluid::fieldName(f));
    s.fieldImage(f, image);
    REQUIRE_FALSE(image.empty());
  }
  const auto nodes = s.sampleNodes();
  REQUIRE(nodes.size() == std::size_t(33) * 17);
  for (const auto& n : nodes) REQUIRE(n.p == 0.0);  // no pressure solved yet
  s.step();
  CHECK(s.lastStats().finite);
}

TEST_CASE("Fluid: painted obstacles hold no velocity; CSV export", "[fluid][gl]") {
  test::context();
  FluidParameters p;
  p.scene = Scene::Obstacles;
  p.nx = 65;
  p.ny = 33;
  p.particles = 128;
  FluidSolver s(p);
  for (int k = 0; k < 5; ++k) s.step();
  s.paintObstacle(40, 16, 4, true);
  for (int k = 0; k < 5; ++k) s.step();
  CHECK(s.lastStats().finite);
  const auto nodes = s.sampleNodes();
  const auto& at = nodes[std::size_t(16) * 65 + 40];
  CHECK(at.u == 0.0);
  CHECK(at.v == 0.0);
  CHECK(s.pressureMultigrid().freeNodes() < std::size_t(63 * 31));
  // The inflow holds its prescribed speed 1.
  CHECK(nodes[std::size_t(16) * 65].u == Approx(1.0));

  const std::string path = "fluid_test_fields.csv";
  s.writeCsv(path);
  std::ifstream in(path);
  std::string header;
  std::getline(in, header);
  CHECK(header == "i,j,x,y,u,v,p");
  std::size_t rows = 0;
  std::string line, last;
  while (std::getline(in, line)) {
    ++rows;
    last = line;
  }
  CHECK(rows == nodes.size());
  int i = 0, j = 0;
  double x = 0, y = 0, u = 0, v = 0, pr = 0;
  CHECK(std::sscanf(last.c_str(), "%d,%d,%lf,%lf,%lf,%lf,%lf", &i, &j, &x, &y, &u, &v, &pr) == 7);
  CHECK(i == 64);
  CHECK(j == 32);
  CHECK(y == Approx(1.0));
  CHECK(x == Approx(2.0));
  std::remove(path.c_str());
  CHECK_THROWS_WITH(s.writeCsv("/nonexistent/dir/f.csv"), Catch::Contains("cannot open"));
}

TEST_CASE("Fluid: both backends agree", "[fluid][gl][compute][both-backends]") {
  test::context();
  std::vector<std::vector<FluidSolver::NodeSample>> results;
  for (stream::Backend backend : test::backends()) {
    stream::BackendScope scope(backend);
    FluidParameters p;
    p.scene = Scene::Smoke;
    p.nx = p.ny = 48;
    p.viscosity = 0.001;  // the Helmholtz solve too
    p.vorticity = 0.3;
    p.advection = fluid::Advection::MacCormack;
    FluidSolver s(p);
    for (int k = 0; k < 10; ++k) {
      s.addSplat({.x = 20, .y = 15, .forceX = 1.5f, .forceY = 0.5f, .radius = 4});
      s.step();
    }
    results.push_back(s.sampleNodes());
  }
  REQUIRE(results.size() == 2);
  double scale = 0;
  const double diff = maxAbsDifference(results[0], results[1], scale);
  INFO("max |difference| " << diff << " of max |velocity| " << scale);
  CHECK(scale > 0.1);
  CHECK(diff <= 1e-4 * scale);
}

TEST_CASE("Fluid: borders in the kernels give the projected velocity of Bolz's copy passes", "[fluid][gl]") {
  // The divergence image reads the layered velocity at neighbours, border duplicates
  // included (fluid/field_image.glsl), which the gradient pass writes in the kernel
  // (BORDER_IN_KERNEL) or leaves to a copy pass. An odd grid puts the splits mid-texel.
  TEXSTREAM_FOR_EACH_BACKEND();
  std::vector<std::vector<float>> images;
  std::vector<double> nodeDivergence;
  for (solvers::BorderUpdate border : {solvers::BorderUpdate::CopyPasses, solvers::BorderUpdate::InKernel}) {
    FluidParameters p;
    p.scene = Scene::Obstacles;
    p.nx = 53;
    p.ny = 37;
    p.multigrid.border = border;
    FluidSolver s(p);
    randomVelocity(s, 70);
    s.step();
    s.step();
    nodeDivergence.push_back(s.lastStats().divergenceAfterNodes);
    stream::GridField image(p.nx, p.ny, "divergence");
    s.fieldImage(fluid::Field::Divergence, image);
    images.push_back(image.download());
  }
  double worst = 0, scale = 0;
  for (std::size_t k = 0; k < images[0].size(); ++k) {
    worst = std::max(worst, double(std::abs(images[0][k] - images[1][k])));
    scale = std::max(scale, double(std::abs(images[0][k])));
  }
  INFO("divergence image: max |difference| " << worst << " of max " << scale << "; node divergence "
                                              << nodeDivergence[0] << " and " << nodeDivergence[1]);
  CHECK(scale > 0);
  CHECK(worst <= 1e-3 * scale);
  CHECK(nodeDivergence[1] == Approx(nodeDivergence[0]).epsilon(1e-3));
}

TEST_CASE("Fluid: bad parameters are reported", "[fluid]") {
  CHECK_THROWS_WITH(fluid::parseScene("lake"), Catch::Contains("\"lake\"") && Catch::Contains("smoke, channel"));
  CHECK(fluid::parseScene("Cavity") == Scene::Cavity);
  CHECK_THROWS_WITH(fluid::parsePressureSolver("sor"), Catch::Contains("mg, cg, jacobi"));
  CHECK_THROWS_WITH(fluid::buildScene(Scene::Smoke, 4, 40, 0.1), Catch::Contains("at least 8x8"));
  CHECK_THROWS_AS(fluid::buildScene(Scene::Channel, 40, 40, 0.0), std::invalid_argument);
  const auto g = fluid::buildScene(Scene::Channel, 513, 129, 0.01);
  CHECK(g.at(0, 64) == fluid::NodeType::Solid);
  CHECK(g.u[std::size_t(64) * 513] == Approx(2.0 / 128 / 0.01));  // two cells per step
  CHECK(g.at(512, 64) == fluid::NodeType::Outlet);
  CHECK(g.at(10, 5) == fluid::NodeType::Solid);  // the narrow inlet section
  CHECK(g.at(200, 5) == fluid::NodeType::Fluid);  // the wide part
}

TEST_CASE("Fluid: bad solver parameters are reported", "[fluid][gl]") {
  test::context();
  FluidParameters p;
  p.nx = p.ny = 17;
  p.dyeScale = 9;
  CHECK_THROWS_WITH(FluidSolver(p), Catch::Contains("dyeScale"));
  p.dyeScale = 1;
  p.cycles = 0;
  CHECK_THROWS_WITH(FluidSolver(p), Catch::Contains("cycles"));
  p.cycles = 1;
  FluidSolver s(p);
  CHECK_THROWS_WITH(s.setVelocity({1, 2}, {1, 2}), Catch::Contains("2 and 2 values"));
  FluidParameters q = s.parameters();
  q.scene = Scene::Cavity;
  CHECK_THROWS_WITH(s.setParameters(q), Catch::Contains("new solver"));
}
