// Tests src/fluid/FluidSolver.* with half-float fields (FluidParameters::fieldFormat
// RGBA16F): on a context that renders half floats only (iOS Safari's WebGL2, simulated with
// TEXSTREAM_DISABLE_FEATURES=floatRenderTargets, or with EXT_color_buffer_float hidden in
// the browser) a step is the advection of velocity and dye, the boundary values and the
// Jacobi projection in RGBA16F (fluid/NodeProjection.h), checked against a CPU
// double-precision reference of the step on the half-float inputs; the projection's
// divergence reduction over runs of two scenes against the same runs without it; the
// reference against the 32-bit path's Jacobi projection, and the half-float runs against
// the 32-bit ones; the 32-bit parts refuse by name. On a full context half-float storage
// keeps the layered projection.
#include <catch2/catch.hpp>

#include "fluid/node_reference.h"
#include "support/Features.h"
#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/fluid/FluidSolver.h>
#include <texstream/fluid/Scene.h>
#include <texstream/gl/Capabilities.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <sstream>
#include <tuple>
#include <utility>
#include <vector>

using namespace texstream;
using fluid::FluidParameters;
using fluid::FluidSolver;
using fluid::Scene;

namespace {

using Field = test::NodeField;
using test::download;

/// shaders/fluid/nodes.glsl's bilinear(): node coordinates clamped to the grid.
void bilinear(const Field& f, double px, double py, double out[4]) {
  px = std::clamp(px, 0.0, double(f.w - 1));
  py = std::clamp(py, 0.0, double(f.h - 1));
  const int i = std::max(std::min(int(std::floor(px)), f.w - 2), 0), j = std::max(std::min(int(std::floor(py)), f.h - 2), 0);
  const double wx = px - i, wy = py - j;
  const int i1 = std::min(i + 1, f.w - 1), j1 = std::min(j + 1, f.h - 1);
  for (int c = 0; c < 4; ++c) {
    const double bottom = f.at(i, j, c) * (1 - wx) + f.at(i1, j, c) * wx;
    const double top = f.at(i, j1, c) * (1 - wx) + f.at(i1, j1, c) * wx;
    out[c] = bottom * (1 - wy) + top * wy;
  }
}

/// One semi-Lagrangian advection of `q` (scale times finer than `velocity`) through
/// `velocity` (Stam 1999; shaders/fluid/advect.glsl without damping or sources).
Field advect(const Field& q, const Field& velocity, double cells, double scale) {
  Field out{q.w, q.h, std::vector<double>(q.v.size(), 0.0)};
  for (int j = 0; j < q.h; ++j)
    for (int i = 0; i < q.w; ++i) {
      double vel[4], value[4];
      const double x = i / scale, y = j / scale;
      bilinear(velocity, x, y, vel);
      bilinear(q, (x - cells * vel[0]) * scale, (y - cells * vel[1]) * scale, value);
      for (int c = 0; c < 4; ++c) out.v[4 * (std::size_t(j) * std::size_t(q.w) + std::size_t(i)) + std::size_t(c)] = value[c];
    }
  return out;
}

/// The boundary values of shaders/fluid/forces.glsl's IMPOSE_BOUNDARY: solid nodes take their
/// prescribed velocity, outlets their fluid neighbours' average; no forces otherwise.
Field imposeBoundary(const Field& velocity, const Field& boundary) {
  Field out = velocity;
  auto type = [&](int i, int j) {
    if (i < 0 || j < 0 || i >= boundary.w || j >= boundary.h) return int(fluid::NodeType::Solid);
    return int(std::lround(boundary.at(i, j, 0)));
  };
  for (int j = 0; j < velocity.h; ++j)
    for (int i = 0; i < velocity.w; ++i) {
      const int t = type(i, j);
      double u = 0, v = 0;
      if (t == int(fluid::NodeType::Fluid)) {
        u = velocity.at(i, j, 0), v = velocity.at(i, j, 1);
      } else if (t == int(fluid::NodeType::Solid)) {
        u = boundary.at(i, j, 1), v = boundary.at(i, j, 2);
      } else {
        double count = 0;
        static const int kOffsets[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
        for (const auto& [di, dj] : kOffsets) {
          if (type(i + di, j + dj) != int(fluid::NodeType::Fluid)) continue;
          u += velocity.at(i + di, j + dj, 0), v += velocity.at(i + di, j + dj, 1), count += 1;
        }
        if (count > 0) u /= count, v /= count;
      }
      const std::size_t k = 4 * (std::size_t(j) * std::size_t(velocity.w) + std::size_t(i));
      out.v[k] = u, out.v[k + 1] = v, out.v[k + 2] = 0, out.v[k + 3] = 0;
    }
  return out;
}

FluidParameters halfParameters(Scene scene, int nx, int ny) {
  FluidParameters p;
  p.scene = scene;
  p.nx = nx;
  p.ny = ny;
  p.vorticity = 0;
  p.buoyancy = 0;
  p.velocityDissipation = 0;
  p.dyeDissipation = 0;
  p.dyeScale = 2;
  p.particles = 64;
  p.fieldFormat = gl::TextureFormat::RGBA16F;
  return p;
}

/// Random velocities of up to a cell a step (so the back-traces cross cells), nx ny each.
std::pair<std::vector<float>, std::vector<float>> randomCellVelocity(const FluidSolver& s, std::uint64_t seed) {
  const std::size_t n = std::size_t(s.nx()) * std::size_t(s.ny());
  const double cells = s.dt() / s.h();
  std::vector<float> u = test::randomFloats(n, seed), v = test::randomFloats(n, seed + 1);
  for (std::size_t k = 0; k < n; ++k) u[k] = float(u[k] / cells), v[k] = float(v[k] / cells);
  return {u, v};
}

/// A smooth random velocity, as the demo's splats leave: twelve Gaussian blobs of radius 3
/// to 8 nodes at random places, each in a random direction at up to a cell a step.
std::pair<std::vector<float>, std::vector<float>> blobVelocity(const FluidSolver& s, std::uint64_t seed) {
  const int nx = s.nx(), ny = s.ny();
  const std::size_t n = std::size_t(nx) * std::size_t(ny);
  const double cellSpeed = s.h() / s.dt();
  const std::vector<float> r = test::randomFloats(12 * 5, seed, 0.0f, 1.0f);
  std::vector<float> u(n, 0.0f), v(n, 0.0f);
  for (std::size_t b = 0; b < 12; ++b) {
    const double cx = r[5 * b] * (nx - 1), cy = r[5 * b + 1] * (ny - 1), radius = 3.0 + 5.0 * r[5 * b + 2];
    const double angle = 6.283185307179586 * r[5 * b + 3], speed = cellSpeed * (0.5 + 0.5 * r[5 * b + 4]);
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const double w = std::exp(-((i - cx) * (i - cx) + (j - cy) * (j - cy)) / (radius * radius));
        u[std::size_t(j) * std::size_t(nx) + std::size_t(i)] += float(speed * std::cos(angle) * w);
        v[std::size_t(j) * std::size_t(nx) + std::size_t(i)] += float(speed * std::sin(angle) * w);
      }
  }
  return {u, v};
}

/// max |a - b| over every value.
double maxDifference(const Field& a, const Field& b) {
  double worst = 0;
  for (std::size_t k = 0; k < b.v.size(); ++k) worst = std::max(worst, std::abs(a.v[k] - b.v[k]));
  return worst;
}

/// max |x| over the channels below `channels` of every node.
double maxMagnitude(const Field& f, int channels = 4) {
  double m = 0;
  for (std::size_t k = 0; k < f.v.size(); ++k)
    if (int(k % 4) < channels) m = std::max(m, std::abs(f.v[k]));
  return m;
}

/// One half-float ulp of x at most: 2^-10 |x| (GL leaves the rounding of float-to-half
/// conversions to the implementation: to nearest gives half of it, toward zero, as
/// llvmpipe converts, all of it).
double halfUlp(double x) { return std::ldexp(std::abs(x), -10); }

/// The half-float mode's projection in double precision (FluidSolver::projectNodes): b = -D,
/// `sweeps` weighted Jacobi sweeps from phi (updated), the gradient.
Field projectExact(const Field& velocity, const Field& boundary, Field& phi, int sweeps, double omega) {
  const Field rhs = test::nodeDivergence(velocity, boundary, -1.0);
  for (int k = 0; k < sweeps; ++k) phi = test::jacobiSweep(phi, rhs, boundary, omega);
  return test::subtractGradient(velocity, phi, boundary);
}

}  // namespace

TEST_CASE("Fluid, half floats only: a step advects, projects and advects the dye as the CPU reference does",
          "[fluid][gl][half]") {
  test::DisabledFeatures off("floatRenderTargets");
  TEXSTREAM_FOR_EACH_BACKEND();
  for (const auto& [scene, nx, ny] : {std::tuple{Scene::Cavity, 33, 33}, std::tuple{Scene::Channel, 65, 17}}) {
    INFO(fluid::sceneName(scene) << " " << nx << "x" << ny);
    const FluidParameters p = halfParameters(scene, nx, ny);
    FluidSolver s(p);
    REQUIRE(s.halfFloatMode());
    REQUIRE_THAT(s.halfFloatLimits(), Catch::Contains("EXT_color_buffer_float") && Catch::Contains("RGBA16F") &&
                                          Catch::Contains("Jacobi sweeps in half floats"));
    REQUIRE(s.dye().format() == gl::TextureFormat::RGBA16F);
    REQUIRE(s.particleCount() == 0);  // positions need 32-bit floats

    const auto [u, v] = randomCellVelocity(s, 71);
    s.setVelocity(u, v);
    stream::GridField image;
    s.fieldImage(fluid::Field::Velocity, image);
    const Field velocity0 = download(image);
    s.fieldImage(fluid::Field::Dye, image);
    const Field dye0 = download(image);
    const Field boundary = download(s.boundary());
    // setVelocity imposes the boundary values at once.
    REQUIRE(maxDifference(imposeBoundary(velocity0, boundary), velocity0) == 0.0);

    s.step();
    REQUIRE(s.steps() == 1);
    REQUIRE(s.lastStats().residuals.empty());  // no statistics

    // Advection, the boundary values, then the projection from phi = 0.
    const double cells = s.dt() / s.h();
    const Field advected = imposeBoundary(advect(velocity0, velocity0, cells, 1.0), boundary);
    Field phi{nx, ny, std::vector<double>(advected.v.size(), 0.0)};
    const Field velocity1 = projectExact(advected, boundary, phi, p.halfFloatSweeps, double(p.multigrid.omega));
    s.fieldImage(fluid::Field::Velocity, image);
    const Field gotVelocity = download(image);
    const double maxPhi = maxMagnitude(phi, 1), maxU = maxMagnitude(velocity1);
    const double worst = maxDifference(gotVelocity, velocity1);
    INFO("velocity: worst difference " << worst << " (max |u| " << maxU << ", max |phi| " << maxPhi << ")");
    // Every pass stores its result in half floats: the velocity corrections are differences
    // of phi values that each carry a few half-float ulps of phi's size (each sweep rounds
    // and the next one averages), and the velocities a few ulps of their own.
    CHECK(maxDifference(advected, velocity1) > 0.1 * maxU);  // the projection did change the velocity
    CHECK(worst <= 4 * (halfUlp(maxPhi) + halfUlp(maxU)));
    const double pressureScale = s.h() / s.dt();
    for (double& x : phi.v) x *= pressureScale;
    s.fieldImage(fluid::Field::Pressure, image);
    const double worstPressure = maxDifference(download(image), phi);
    INFO("pressure: worst difference " << worstPressure << " of max |p| " << maxPhi * pressureScale);
    CHECK(maxPhi > 0.01 * maxU);
    // phi itself: each sweep rounds its result, and a weighted Jacobi sweep (omega <= 1) does
    // not amplify earlier errors in the max norm, so at most one ulp a sweep, and one for the
    // scaling to p.
    CHECK(worstPressure <= (p.halfFloatSweeps + 2) * halfUlp(maxPhi * pressureScale));

    if (scene == Scene::Cavity) {  // the channel's inlet injects dye, which the reference leaves out
      // Through the velocity the dye pass read (the GPU's, a half-float field).
      const Field dye1 = advect(dye0, gotVelocity, cells, 2.0);
      s.fieldImage(fluid::Field::Dye, image);
      const double worstDye = maxDifference(download(image), dye1);
      INFO("dye: worst difference " << worstDye);
      CHECK(worstDye <= 2e-3);  // dye values <= 1: an ulp and the interpolation's float rounding
    }
  }
}

TEST_CASE("Fluid, half floats only: the Jacobi projection lowers the divergence", "[fluid][gl][half]") {
  test::DisabledFeatures off("floatRenderTargets");
  TEXSTREAM_FOR_EACH_BACKEND();
  // A closed box (pure Neumann: phi up to a constant) and a channel with inflow, outlets
  // and cylinders (every node type).
  for (const auto& [scene, nx, ny] : {std::tuple{Scene::Smoke, 65, 65}, std::tuple{Scene::Obstacles, 97, 41}}) {
    INFO(fluid::sceneName(scene) << " " << nx << "x" << ny);
    FluidSolver s(halfParameters(scene, nx, ny));
    const auto [u, v] = blobVelocity(s, 91);
    s.setVelocity(u, v);
    const Field boundary = download(s.boundary());
    const double cells = s.dt() / s.h();
    stream::GridField image;
    s.fieldImage(fluid::Field::Velocity, image);
    Field unprojected = download(image);  // the same run without the projection (no forces here)
    std::vector<double> faceRatios;
    for (int step = 0; step < 10; ++step) {
      // The velocity this step projects (the last one advected, with the boundary values),
      // and the face divergence the projection leaves: the solver's residual (as the 32-bit
      // path's statistics report it), from the step's phi.
      s.fieldImage(fluid::Field::Velocity, image);
      const Field last = download(image);
      const Field advected = imposeBoundary(advect(last, last, cells, 1.0), boundary);
      s.step();
      s.fieldImage(fluid::Field::Pressure, image);
      Field phi = download(image);
      for (double& x : phi.v) x *= s.dt() / s.h();
      faceRatios.push_back(test::rmsFaceDivergence(advected, phi, boundary, s.h()) /
                           test::rmsDivergence(advected, boundary, s.h()));
      unprojected = imposeBoundary(advect(unprojected, unprojected, cells, 1.0), boundary);
    }
    s.fieldImage(fluid::Field::Velocity, image);
    const Field projected = download(image);
    const double divProjected = test::rmsDivergence(projected, boundary, s.h());
    const double divUnprojected = test::rmsDivergence(unprojected, boundary, s.h());
    std::ostringstream ratios;
    for (double r : faceRatios) ratios << " " << r;
    INFO("face divergence after / before the projection, step by step:" << ratios.str());
    INFO("RMS flux divergence of the node velocity after 10 steps: " << divProjected << ", without the projection "
                                                                      << divUnprojected);
    // The first step starts from phi = 0; later ones from the last phi, on what the earlier
    // steps left (smooth divergence, which Jacobi sweeps reduce slowly), and never make it
    // worse by much.
    CHECK(faceRatios.front() <= 0.6);
    CHECK(*std::max_element(faceRatios.begin(), faceRatios.end()) <= 1.2);
    CHECK(divProjected <= 0.2 * divUnprojected);
    // The divergence field itself: the flux divergence the display shows, in 1 / time.
    s.fieldImage(fluid::Field::Divergence, image);
    const Field expected = test::nodeDivergence(projected, boundary, 1.0 / s.h());
    // The result's rounding (an ulp of it), and the float arithmetic on terms of size u / h.
    const double ulp = halfUlp(maxMagnitude(expected) + maxMagnitude(projected) / s.h());
    CHECK(maxDifference(download(image), expected) <= 4 * ulp);
  }
}

TEST_CASE("Fluid: the node projection's discretisation is the layered path's", "[fluid][gl][float-targets]") {
  // The 32-bit path with its Jacobi solver (same sweeps and weight) against the CPU reference
  // of the node kernels (fluid/node_reference.h, which tests/fluid/node_projection.cpp holds
  // the kernels to): one step from a smooth velocity, in every kind of scene.
  TEXSTREAM_FOR_EACH_BACKEND();
  for (const auto& [scene, nx, ny] :
       {std::tuple{Scene::Smoke, 65, 65}, std::tuple{Scene::Obstacles, 97, 41}, std::tuple{Scene::Channel, 65, 17}}) {
    INFO(fluid::sceneName(scene) << " " << nx << "x" << ny);
    FluidParameters p = halfParameters(scene, nx, ny);
    p.fieldFormat = gl::TextureFormat::RGBA32F;
    p.solver = fluid::PressureSolver::Jacobi;
    p.iterations = p.halfFloatSweeps;
    p.statistics = false;
    FluidSolver s(p);
    REQUIRE_FALSE(s.halfFloatMode());
    const auto [u, v] = blobVelocity(s, 101);
    s.setVelocity(u, v);
    stream::GridField image;
    s.fieldImage(fluid::Field::Velocity, image);
    const Field velocity0 = download(image);
    const Field boundary = download(s.boundary());
    s.step();
    const Field advected = imposeBoundary(advect(velocity0, velocity0, s.dt() / s.h(), 1.0), boundary);
    Field phi{nx, ny, std::vector<double>(advected.v.size(), 0.0)};
    const Field expected = projectExact(advected, boundary, phi, p.halfFloatSweeps, double(p.multigrid.omega));
    s.fieldImage(fluid::Field::Velocity, image);
    const double worst = maxDifference(download(image), expected), scale = maxMagnitude(expected);
    INFO("max |32-bit - reference| " << worst << " of max |u| " << scale << "; the projection moved the velocity by "
                                     << maxDifference(advected, expected));
    CHECK(maxDifference(advected, expected) > 0.1 * scale);
    CHECK(worst <= 1e-5 * scale);  // float arithmetic (2^-24 relative) through the 40 sweeps
  }
}

TEST_CASE("Fluid, half floats only: a run follows the 32-bit run with the Jacobi solver",
          "[fluid][gl][float-targets]") {
  // The same run with RGBA32F targets and the layered path's Jacobi solver (same sweeps and
  // weight, warm-started the same way; the previous test holds the two discretisations
  // equal) differs by half-float rounding alone, carried along by the advection, whose
  // back-traces move with the velocity: the differences grow with the steps. The 32-bit
  // multigrid solve to 1e-5 shows how far the fixed sweeps leave the velocity from a
  // projection.
  test::context();
  for (stream::Backend backend : test::backends()) {
    INFO("backend " << stream::backendName(backend));
    for (const auto& [scene, nx, ny] : {std::tuple{Scene::Smoke, 65, 65}, std::tuple{Scene::Obstacles, 97, 41}}) {
      INFO(fluid::sceneName(scene) << " " << nx << "x" << ny);
      const int steps = 10;
      auto run = [&](const FluidParameters& q, double& divergence) {
        FluidSolver s(q);
        const auto [u, v] = blobVelocity(s, 101);
        s.setVelocity(u, v);
        for (int k = 0; k < steps; ++k) s.step();
        stream::GridField image;
        s.fieldImage(fluid::Field::Velocity, image);
        Field velocity = download(image);
        divergence = test::rmsDivergence(velocity, download(s.boundary()), s.h());
        return velocity;
      };
      FluidParameters p = halfParameters(scene, nx, ny);
      p.particles = 0;
      p.statistics = false;
      double divJacobi = 0, divMultigrid = 0, divHalf = 0;
      Field jacobi, half;
      {
        stream::BackendScope scope(backend);
        FluidParameters q = p;
        q.fieldFormat = gl::TextureFormat::RGBA32F;
        q.solver = fluid::PressureSolver::Jacobi;
        q.iterations = p.halfFloatSweeps;
        jacobi = run(q, divJacobi);
        q.solver = fluid::PressureSolver::Multigrid;
        q.pressure.tolerance = 1e-5f;
        run(q, divMultigrid);
      }
      {
        test::DisabledFeatures off("floatRenderTargets");
        stream::BackendScope scope(backend);
        half = run(p, divHalf);
      }
      double squares = 0, differences = 0;
      for (std::size_t k = 0; k < jacobi.v.size(); ++k) {
        squares += jacobi.v[k] * jacobi.v[k];
        differences += (half.v[k] - jacobi.v[k]) * (half.v[k] - jacobi.v[k]);
      }
      const double relative = std::sqrt(differences / squares);
      INFO("after " << steps << " steps: RMS |half - 32-bit Jacobi| / RMS |u| " << relative
                    << "; RMS flux divergence of the node velocity: half " << divHalf << ", 32-bit Jacobi "
                    << divJacobi << ", 32-bit multigrid " << divMultigrid);
      CHECK(squares > 0);
      CHECK(relative <= 0.1);
      CHECK(std::abs(divHalf - divJacobi) <= 0.2 * divJacobi);
    }
  }
}

TEST_CASE("Fluid, half floats only: what needs 32-bit floats refuses by name", "[fluid][gl][half]") {
  test::DisabledFeatures off("floatRenderTargets,compute");
  FluidParameters p = halfParameters(Scene::Smoke, 17, 17);
  p.fieldFormat = gl::TextureFormat::RGBA32F;
  REQUIRE_THROWS_WITH(FluidSolver(p), Catch::Contains("RGBA32F fields need RGBA32F render targets") &&
                                          Catch::Contains("EXT_color_buffer_float") && Catch::Contains("RGBA16F"));
  REQUIRE(fluid::defaultFieldFormat() == gl::TextureFormat::RGBA16F);
  p = halfParameters(Scene::Smoke, 17, 17);
  p.halfFloatSweeps = 0;
  REQUIRE_THROWS_WITH(FluidSolver(p), Catch::Contains("halfFloatSweeps") && Catch::Contains(">= 1, not 0"));
  FluidSolver s(halfParameters(Scene::Smoke, 17, 17));
  REQUIRE_THROWS_WITH(s.pressureMultigrid(), Catch::Contains("EXT_color_buffer_float"));
  p.halfFloatSweeps = -3;
  REQUIRE_THROWS_WITH(s.setParameters(p), Catch::Contains("halfFloatSweeps") && Catch::Contains("not -3"));
  p.halfFloatSweeps = 7;
  s.setParameters(p);
  REQUIRE(s.parameters().halfFloatSweeps == 7);
  // Painting obstacles and stepping on: the node types are half floats too.
  s.paintObstacle(8, 8, 2, true);
  s.step();
  stream::GridField image;
  s.fieldImage(fluid::Field::Type, image);
  REQUIRE(image.download()[4 * (8 * 17 + 8)] == float(int(fluid::NodeType::Solid)));
  for (fluid::Field f : {fluid::Field::Vorticity, fluid::Field::Pressure, fluid::Field::Divergence}) {
    INFO(fluid::fieldName(f));
    s.fieldImage(f, image);
    const std::vector<float> values = image.download();
    REQUIRE(std::all_of(values.begin(), values.end(), [](float x) { return std::isfinite(x); }));
  }
}

TEST_CASE("Fluid: half-float fields on a context with RGBA32F targets keep the projection", "[fluid][gl][float-targets]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  REQUIRE(gl::capabilities().floatRenderTargets);
  FluidParameters p = halfParameters(Scene::Smoke, 65, 65);
  p.pressure.tolerance = 1e-5f;
  FluidSolver s(p);
  REQUIRE_FALSE(s.halfFloatMode());
  REQUIRE(s.dye().format() == gl::TextureFormat::RGBA16F);
  const std::size_t n = 65 * 65;
  s.setVelocity(test::randomFloats(n, 81), test::randomFloats(n, 82));
  s.step();
  const fluid::StepStats& st = s.lastStats();
  INFO("divergence " << st.divergenceBefore << " -> " << st.divergenceAfter);
  CHECK(st.divergenceBefore > 1.0);
  CHECK(st.divergenceAfter <= 1e-4 * st.divergenceBefore);  // the layered solve is 32-bit
  CHECK(st.finite);
}
