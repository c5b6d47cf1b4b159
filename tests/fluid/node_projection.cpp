// Tests src/fluid/NodeProjection.*: the projection kernels on node textures (the fluid's
// half-float mode) against CPU double-precision references of the layered path's
// discretisation (shaders/fluid/operator.glsl, projection.glsl, gradient_subtract.glsl), on
// random node types, prescribed velocities, velocities, phi and right-hand sides, at awkward
// grid sizes (1x1, 2x3, 8x8 the smallest scene, 37x53 primes), in RGBA16F and RGBA32F, on
// both backends.
#include <catch2/catch.hpp>

#include "fluid/node_reference.h"
#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/fluid/NodeProjection.h>
#include <texstream/gl/Capabilities.h>
#include <texstream/gl/Error.h>

#include <algorithm>
#include <cmath>
#include <tuple>
#include <vector>

using namespace texstream;
using stream::GridField;

namespace {

using test::NodeField;

/// Random node types (fluid, solid, outlet about 60/25/15 %), prescribed velocities in
/// [-1, 1], as GPU fields of `format`.
GridField randomBoundary(int nx, int ny, std::uint64_t seed, gl::TextureFormat format) {
  const std::size_t n = std::size_t(nx) * std::size_t(ny);
  const std::vector<float> pick = test::randomFloats(n, seed, 0.0f, 1.0f);
  std::vector<float> type(n);
  for (std::size_t k = 0; k < n; ++k) type[k] = pick[k] < 0.6f ? 0.0f : pick[k] < 0.85f ? 1.0f : 2.0f;
  GridField b(nx, ny, "test.boundary", format);
  b.uploadChannels({type, test::randomFloats(n, seed + 1), test::randomFloats(n, seed + 2)});
  return b;
}

GridField randomField(int nx, int ny, std::uint64_t seed, gl::TextureFormat format, const char* name) {
  const std::size_t n = std::size_t(nx) * std::size_t(ny);
  GridField f(nx, ny, name, format);
  f.uploadChannels({test::randomFloats(n, seed), test::randomFloats(n, seed + 1), test::randomFloats(n, seed + 2),
                    test::randomFloats(n, seed + 3)});
  return f;
}

/// The worst of |got - expected| / (rel |expected| + 1e-6) over every channel of every
/// node: <= 1 passes. rel: the output format's rounding (RGBA16F keeps 11 significant bits
/// and GL leaves the conversion's rounding to the implementation, to nearest or toward zero
/// as llvmpipe does: up to one ulp, 2^-10 = 9.8e-4 relative, so 1e-3; RGBA32F 1e-6); 1e-6
/// absolute covers the shader's float arithmetic on inputs of size 1 (at most nine terms of
/// 2^-24 relative rounding).
double worstError(const NodeField& got, const std::vector<double>& expected, double rel) {
  double worst = 0;
  for (std::size_t k = 0; k < expected.size(); ++k) {
    const double e = std::abs(got.v[k] - expected[k]) / (rel * std::abs(expected[k]) + 1e-6);
    if (std::isnan(e)) return e;
    worst = std::max(worst, e);
  }
  return worst;
}

const std::tuple<int, int> kSizes[] = {{1, 1}, {2, 3}, {8, 8}, {37, 53}};

}  // namespace

TEST_CASE("Node projection: the flux divergence matches the CPU reference", "[fluid][gl][half]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  for (gl::TextureFormat format : {gl::TextureFormat::RGBA16F, gl::TextureFormat::RGBA32F}) {
    if (format == gl::TextureFormat::RGBA32F && !gl::capabilities().floatRenderTargets) continue;
    const double rel = format == gl::TextureFormat::RGBA16F ? 1e-3 : 1e-6;
    for (const auto& [nx, ny] : kSizes) {
      INFO(gl::formatName(format) << " " << nx << "x" << ny);
      const GridField boundary = randomBoundary(nx, ny, 11, format);
      const GridField velocity = randomField(nx, ny, 21, format, "test.velocity");
      GridField out(nx, ny, "test.divergence", format);
      const float scale = -1.7f;
      fluid::nodeDivergence(velocity, boundary, scale, out);

      const NodeField b = test::download(boundary), vel = test::download(velocity);
      const test::NodeLinks L{b};
      int linked = 0;
      for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i) linked += L.centre(i, j) != 0;
      const std::vector<double> expected = test::nodeDivergence(vel, b, scale).v;
      if (nx * ny > 6) CHECK(linked > nx * ny / 4);  // the random types leave plenty of linked nodes
      const double worst = worstError(test::download(out), expected, rel);
      INFO("worst error / tolerance " << worst);
      CHECK(worst <= 1.0);
    }
  }
}

TEST_CASE("Node projection: one Jacobi sweep matches the CPU reference", "[fluid][gl][half]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  for (gl::TextureFormat format : {gl::TextureFormat::RGBA16F, gl::TextureFormat::RGBA32F}) {
    if (format == gl::TextureFormat::RGBA32F && !gl::capabilities().floatRenderTargets) continue;
    const double rel = format == gl::TextureFormat::RGBA16F ? 1e-3 : 1e-6;
    for (const auto& [nx, ny] : kSizes) {
      for (float omega : {1.0f, 0.8f}) {
        INFO(gl::formatName(format) << " " << nx << "x" << ny << ", omega " << omega);
        const GridField boundary = randomBoundary(nx, ny, 31, format);
        GridField phi = randomField(nx, ny, 41, format, "test.phi");
        const GridField rhs = randomField(nx, ny, 51, format, "test.rhs");
        const NodeField b = test::download(boundary), phi0 = test::download(phi), rhs0 = test::download(rhs);
        // In place, as the solver sweeps (the pass renders into a pooled texture).
        fluid::jacobiPressureSweep(phi, rhs, boundary, omega, phi);
        const std::vector<double> expected = test::jacobiSweep(phi0, rhs0, b, double(omega)).v;
        const double worst = worstError(test::download(phi), expected, rel);
        INFO("worst error / tolerance " << worst);
        CHECK(worst <= 1.0);
      }
    }
  }
}

TEST_CASE("Node projection: the gradient subtraction matches the CPU reference", "[fluid][gl][half]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  for (gl::TextureFormat format : {gl::TextureFormat::RGBA16F, gl::TextureFormat::RGBA32F}) {
    if (format == gl::TextureFormat::RGBA32F && !gl::capabilities().floatRenderTargets) continue;
    const double rel = format == gl::TextureFormat::RGBA16F ? 1e-3 : 1e-6;
    for (const auto& [nx, ny] : kSizes) {
      INFO(gl::formatName(format) << " " << nx << "x" << ny);
      const GridField boundary = randomBoundary(nx, ny, 61, format);
      const GridField velocity = randomField(nx, ny, 71, format, "test.velocity");
      const GridField phi = randomField(nx, ny, 81, format, "test.phi");
      GridField out(nx, ny, "test.projected", format);
      fluid::subtractNodeGradient(velocity, phi, boundary, out);

      const std::vector<double> expected =
          test::subtractGradient(test::download(velocity), test::download(phi), test::download(boundary)).v;
      const double worst = worstError(test::download(out), expected, rel);
      INFO("worst error / tolerance " << worst);
      CHECK(worst <= 1.0);
    }
  }
}

TEST_CASE("Node projection: fields of different grids are refused by name", "[fluid][gl][half]") {
  test::context();
  const GridField boundary(8, 8, "test.boundary", gl::TextureFormat::RGBA16F);
  const GridField velocity(9, 8, "test.velocity", gl::TextureFormat::RGBA16F);
  GridField out(8, 8, "test.out", gl::TextureFormat::RGBA16F);
  CHECK_THROWS_WITH(fluid::nodeDivergence(velocity, boundary, 1.0f, out),
                    Catch::Contains("nodeDivergence") && Catch::Contains("\"test.velocity\" is 9x8 nodes"));
  CHECK_THROWS_WITH(fluid::subtractNodeGradient(out, velocity, boundary, out),
                    Catch::Contains("subtractNodeGradient") && Catch::Contains("test.velocity"));
  CHECK_THROWS_AS(fluid::jacobiPressureSweep(out, velocity, boundary, 0.8f, out), gl::Error);
}
