// Tests src/fluid/FluidSolver.* with half-float fields (FluidParameters::fieldFormat
// RGBA16F): on a context that renders half floats only (iOS Safari's WebGL2, simulated with
// TEXSTREAM_DISABLE_FEATURES=floatRenderTargets,compute, or with EXT_color_buffer_float
// hidden in the browser) a step is the advection of velocity and dye and the boundary
// values, checked against a CPU double-precision reference of Stam's semi-Lagrangian step
// on the half-float inputs; the 32-bit parts refuse by name. On a full context half-float
// storage keeps the projection.
#include <catch2/catch.hpp>

#include "support/Features.h"
#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/fluid/FluidSolver.h>
#include <texstream/fluid/Scene.h>
#include <texstream/gl/Capabilities.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <tuple>
#include <vector>

using namespace texstream;
using fluid::FluidParameters;
using fluid::FluidSolver;
using fluid::Scene;

namespace {

/// A node field of w x h RGBA texels, as the GPU holds it.
struct Field {
  int w = 0, h = 0;
  std::vector<double> v;  // 4 per texel
  double at(int i, int j, int c) const { return v[4 * (std::size_t(j) * std::size_t(w) + std::size_t(i)) + std::size_t(c)]; }
};

Field download(const stream::Vector& vec) {
  const std::vector<float> f = vec.download();
  Field out{vec.layout().width(), vec.layout().height(), std::vector<double>(f.begin(), f.end())};
  return out;
}

/// x rounded to the nearest half float (11 significant bits), as RGBA16F stores it.
double toHalf(double x) {
  if (x == 0 || !std::isfinite(x)) return x;
  const int e = std::max(std::ilogb(x), -14);  // below 2^-14 half floats are subnormal
  const double ulp = std::ldexp(1.0, e - 10);
  return std::nearbyint(x / ulp) * ulp;
}

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

}  // namespace

TEST_CASE("Fluid, half floats only: a step advects velocity and dye as the CPU reference does", "[fluid][gl][half]") {
  test::DisabledFeatures off("floatRenderTargets,compute");
  for (const auto& [scene, nx, ny] : {std::tuple{Scene::Cavity, 33, 33}, std::tuple{Scene::Channel, 65, 17}}) {
    INFO(fluid::sceneName(scene) << " " << nx << "x" << ny);
    FluidSolver s(halfParameters(scene, nx, ny));
    REQUIRE_FALSE(s.projects());
    REQUIRE_THAT(s.halfFloatLimits(), Catch::Contains("EXT_color_buffer_float") && Catch::Contains("RGBA16F"));
    REQUIRE(s.dye().format() == gl::TextureFormat::RGBA16F);
    REQUIRE(s.particleCount() == 0);  // positions need 32-bit floats

    // Random velocities of up to a cell a step, so the back-traces cross cells.
    const std::size_t n = std::size_t(nx) * std::size_t(ny);
    const double cells = s.dt() / s.h();
    std::vector<float> u = test::randomFloats(n, 71), v = test::randomFloats(n, 72);
    for (std::size_t k = 0; k < n; ++k) u[k] = float(u[k] / cells), v[k] = float(v[k] / cells);
    s.setVelocity(u, v);
    stream::GridField image;
    s.fieldImage(fluid::Field::Velocity, image);
    const Field velocity0 = download(image);
    s.fieldImage(fluid::Field::Dye, image);
    const Field dye0 = download(image);
    const Field boundary = download(s.boundary());

    s.step();
    REQUIRE(s.steps() == 1);
    REQUIRE(s.lastStats().residuals.empty());  // no pressure solve, no statistics

    Field velocity1 = imposeBoundary(advect(velocity0, velocity0, cells, 1.0), boundary);
    s.fieldImage(fluid::Field::Velocity, image);
    const Field gotVelocity = download(image);
    double worst = 0;
    for (std::size_t k = 0; k < velocity1.v.size(); ++k) {
      const double expected = velocity1.v[k];
      worst = std::max(worst, std::abs(gotVelocity.v[k] - expected) / std::max(1.0, std::abs(expected)));
    }
    INFO("velocity: worst relative difference " << worst);
    CHECK(worst <= 2e-3);  // half floats: 2^-11 relative rounding of the result

    if (scene == Scene::Cavity) {  // the channel's inlet injects dye, which the reference leaves out
      for (double& x : velocity1.v) x = toHalf(x);  // the velocity the dye pass reads
      const Field dye1 = advect(dye0, velocity1, cells, 2.0);
      s.fieldImage(fluid::Field::Dye, image);
      const Field gotDye = download(image);
      double worstDye = 0;
      for (std::size_t k = 0; k < dye1.v.size(); ++k) worstDye = std::max(worstDye, std::abs(gotDye.v[k] - dye1.v[k]));
      INFO("dye: worst difference " << worstDye);
      CHECK(worstDye <= 2e-3);
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
  FluidSolver s(halfParameters(Scene::Smoke, 17, 17));
  REQUIRE_THROWS_WITH(s.pressureMultigrid(), Catch::Contains("EXT_color_buffer_float"));
  stream::GridField image;
  REQUIRE_FALSE(s.fieldAvailable(fluid::Field::Pressure));
  REQUIRE_THROWS_WITH(s.fieldImage(fluid::Field::Pressure, image),
                      Catch::Contains("pressure needs the pressure projection") && Catch::Contains("EXT_color_buffer_float"));
  // Painting obstacles and stepping on: the node types are half floats too.
  s.paintObstacle(8, 8, 2, true);
  s.step();
  s.fieldImage(fluid::Field::Type, image);
  REQUIRE(image.download()[4 * (8 * 17 + 8)] == float(int(fluid::NodeType::Solid)));
  s.fieldImage(fluid::Field::Vorticity, image);
  const std::vector<float> curl = image.download();
  REQUIRE(std::all_of(curl.begin(), curl.end(), [](float x) { return std::isfinite(x); }));
}

TEST_CASE("Fluid: half-float fields on a context with RGBA32F targets keep the projection", "[fluid][gl][float-targets]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  REQUIRE(gl::capabilities().floatRenderTargets);
  FluidParameters p = halfParameters(Scene::Smoke, 65, 65);
  p.tolerance = 1e-5f;
  FluidSolver s(p);
  REQUIRE(s.projects());
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
