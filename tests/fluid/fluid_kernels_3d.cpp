// Tests src/fluid/FluidKernels3D.* (shaders/fluid3d/*.glsl, the MAC-grid helpers of
// shaders/grid3d/grid.glsl): every pass against its CPU reference in double
// (fluid/mac_reference_3d.h) on random fields at awkward sizes (1x1x1, 17x5x3, primes), on
// both backends: the curl; the cells' forces (buoyancy, confinement); the velocity's
// advection (semi-Lagrangian and MacCormack) with gravity, those forces, solids and walls; the cells' advection with damping, a
// source and solids; the divergence; the ghost-fluid gradient update and its face states;
// the extrapolation; the volume; redistancing with and without the volume correction; the
// labels; the solid cells.
#include <catch2/catch.hpp>

#include "fluid/mac_reference_3d.h"
#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/fluid/FluidKernels3D.h>
#include <texstream/gl/Error.h>
#include <texstream/linalg/PressureDomain3D.h>
#include <texstream/stream/Scalar.h>

#include <tuple>

using namespace texstream;
using fluid::Advection;
using fluid::MacGrid3D;
using stream::GridField3D;
using test::Field3;
using test::MacReference;

namespace {

const std::vector<std::tuple<int, int, int>> kGrids{{1, 1, 1}, {17, 5, 3}, {5, 7, 11}, {2, 3, 13}};

/// max |got - want| over every value, relative to max(1, max |want|).
double fieldError(const Field3& got, const Field3& want, int channels = 4) {
  double err = 0, scale = 1;
  for (std::size_t t = 0; t < want.v.size(); ++t) {
    if (int(t % 4) >= channels) continue;
    err = std::max(err, std::abs(got.v[t] - want.v[t]));
    scale = std::max(scale, std::abs(want.v[t]));
  }
  return err / scale;
}

double valuesError(const std::vector<double>& got, const std::vector<double>& want) {
  double err = 0, scale = 1;
  for (std::size_t c = 0; c < want.size(); ++c) {
    err = std::max(err, std::abs(got[c] - want[c]));
    scale = std::max(scale, std::abs(want[c]));
  }
  return err / scale;
}

/// A field of random values in [lo, hi] in channels 0..channels-1 (0 in the others).
Field3 randomField(int sx, int sy, int sz, std::uint64_t seed, float lo = -1, float hi = 1, int channels = 4) {
  Field3 f(sx, sy, sz);
  const std::vector<float> r = test::randomFloats(f.v.size(), seed, lo, hi);
  for (std::size_t t = 0; t < f.v.size(); ++t) f.v[t] = int(t % 4) < channels ? double(r[t]) : 0.0;
  return f;
}

/// A random face velocity (0 beyond each component's faces, .w 0).
Field3 randomVelocity(const MacReference& m, std::uint64_t seed) {
  Field3 u = randomField(m.nx + 1, m.ny + 1, m.nz + 1, seed, -1, 1, 3);
  m.clearBeyondFaces(u);
  return u;
}

/// Solid cells (.x 1 in about one cell in five) with random velocities.
Field3 randomSolids(const MacReference& m, std::uint64_t seed) {
  Field3 s = randomField(m.nx, m.ny, m.nz, seed);
  for (std::size_t t = 0; t < s.v.size(); t += 4) {
    s.v[t] = s.v[t] > 0.6 ? 1.0 : 0.0;
    if (s.v[t] == 0) s.v[t + 1] = s.v[t + 2] = s.v[t + 3] = 0;
  }
  return s;
}

GridField3D onGpu(const Field3& f, const stream::GridLayout3D& grid, const char* name) {
  GridField3D g(grid, name);
  test::upload(f, g);
  return g;
}

GridField3D packedOnGpu(const std::vector<double>& values, const MacGrid3D& g, const char* name) {
  GridField3D f(g.packed(), name);
  f.uploadCells(std::vector<float>(values.begin(), values.end()));
  return f;
}

/// Diagonal-like labels per cell: 30% 0 (solid), 20% -1 (air), else in [1, 7] (fluid).
std::vector<double> randomDiagonal(std::size_t cells, std::uint64_t seed) {
  const std::vector<float> r = test::randomFloats(cells, seed, 0, 1);
  std::vector<double> d(cells);
  for (std::size_t c = 0; c < cells; ++c) d[c] = r[c] < 0.3f ? 0.0 : (r[c] < 0.5f ? -1.0 : 1.0 + 6.0 * (r[c] - 0.5));
  return d;
}

}  // namespace

TEST_CASE("fluid3d kernels: curl", "[gl][fluid3d]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  std::uint64_t seed = 100;
  for (auto [nx, ny, nz] : kGrids) {
    INFO(nx << "x" << ny << "x" << nz);
    const MacReference m{nx, ny, nz};
    const MacGrid3D g(nx, ny, nz, "curl test");
    const Field3 u = randomVelocity(m, seed++);
    const GridField3D velocity = onGpu(u, g.faces(), "u");
    GridField3D curl(g.cells(), "curl");
    fluid::computeCurl3D(g, velocity, 0.1f, curl);
    CHECK(fieldError(test::download(curl), m.curl(u, 0.1)) <= 2e-6);
  }
}

TEST_CASE("fluid3d kernels: velocity advection with forces, solids and walls", "[gl][fluid3d]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  std::uint64_t seed = 200;
  for (auto [nx, ny, nz] : kGrids) {
    for (Advection scheme : {Advection::SemiLagrangian, Advection::MacCormack}) {
      INFO(nx << "x" << ny << "x" << nz << " " << fluid::advectionName(scheme));
      const MacReference m{nx, ny, nz};
      const MacGrid3D g(nx, ny, nz, "advection test");
      const Field3 u = randomVelocity(m, seed++), solids = randomSolids(m, seed++);
      const Field3 scalars = randomField(nx, ny, nz, seed++, 0, 1);
      const GridField3D velocity = onGpu(u, g.faces(), "u"), solidsGpu = onGpu(solids, g.cells(), "solids");
      const GridField3D scalarsGpu = onGpu(scalars, g.cells(), "scalars");
      GridField3D curl(g.cells(), "curl"), cellForces(g.cells(), "cell forces");
      fluid::computeCurl3D(g, velocity, 0.1f, curl);
      const Field3 curlCpu = test::download(curl);
      const fluid::CellForces3D sources{&scalarsGpu, 1.5f, 0.25f, &curl, 0.4f, 0.1f};
      fluid::computeCellForces3D(g, sources, cellForces);
      const Field3 cellForcesCpu = test::download(cellForces);
      CHECK(fieldError(cellForcesCpu, m.cellForces(sources, &scalars, &curlCpu)) <= 2e-6);
      fluid::FaceForces3D forces;
      forces.dt = 0.05f;
      forces.gravity = 3.0f;
      forces.cellForces = &cellForces;
      forces.solids = &solidsGpu;
      forces.closed = {true, false, true, true, false, true};
      GridField3D out(g.faces(), "out");
      fluid::advectVelocity3D(g, velocity, 1.3f, scheme, forces, out);
      const Field3 want = m.advectVelocity(u, 1.3, scheme, forces, solids, &cellForcesCpu);
      CHECK(fieldError(test::download(out), want) <= 2e-5);
      // Without cell forces, every side open; then buoyancy alone at the cells.
      forces.cellForces = nullptr;
      forces.closed = {false, false, false, false, false, false};
      fluid::advectVelocity3D(g, velocity, 0.7f, scheme, forces, out);
      CHECK(fieldError(test::download(out), m.advectVelocity(u, 0.7, scheme, forces, solids, nullptr)) <= 2e-5);
      fluid::computeCellForces3D(g, {&scalarsGpu, 2.0f, 0.5f, nullptr, 0.0f, 0.0f}, cellForces);
      CHECK(fieldError(test::download(cellForces), m.cellForces({nullptr, 2.0f, 0.5f, nullptr, 0.0f, 0.0f}, &scalars, nullptr)) <= 2e-6);
    }
  }
}

TEST_CASE("fluid3d kernels: cells advection with damping, a source and solids", "[gl][fluid3d]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  std::uint64_t seed = 300;
  for (auto [nx, ny, nz] : kGrids) {
    for (Advection scheme : {Advection::SemiLagrangian, Advection::MacCormack}) {
      INFO(nx << "x" << ny << "x" << nz << " " << fluid::advectionName(scheme));
      const MacReference m{nx, ny, nz};
      const MacGrid3D g(nx, ny, nz, "cells test");
      const Field3 u = randomVelocity(m, seed++), q = randomField(nx, ny, nz, seed++), solids = randomSolids(m, seed++);
      const GridField3D velocity = onGpu(u, g.faces(), "u"), qGpu = onGpu(q, g.cells(), "q");
      const GridField3D solidsGpu = onGpu(solids, g.cells(), "solids");
      fluid::CellUpdate3D update;
      update.damping = 0.9f;
      update.source = true;
      update.sourceSphere = {0.5f * float(nx), 0.4f * float(ny), 0.6f * float(nz), 1.7f};
      update.sourceValue = {1.0f, 0.5f, -0.25f, 2.0f};
      update.sourceRate = 0.3f;
      update.solids = &solidsGpu;
      GridField3D out(g.cells(), "out");
      fluid::advectCells3D(g, qGpu, velocity, 1.3f, scheme, update, out);
      CHECK(fieldError(test::download(out), m.advectCellsFull(q, u, 1.3, scheme, update, &solids)) <= 2e-5);
      fluid::advectCells3D(g, qGpu, velocity, 0.6f, scheme, {}, out);
      CHECK(fieldError(test::download(out), m.advectCellsFull(q, u, 0.6, scheme, {}, nullptr)) <= 2e-5);
    }
  }
}

TEST_CASE("fluid3d kernels: divergence", "[gl][fluid3d]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  std::uint64_t seed = 400;
  for (auto [nx, ny, nz] : kGrids) {
    INFO(nx << "x" << ny << "x" << nz);
    const MacReference m{nx, ny, nz};
    const MacGrid3D g(nx, ny, nz, "divergence test");
    const Field3 u = randomVelocity(m, seed++);
    const std::vector<double> diagonal = randomDiagonal(std::size_t(nx) * ny * nz, seed++);
    const GridField3D velocity = onGpu(u, g.faces(), "u"), diagonalGpu = packedOnGpu(diagonal, g, "diagonal");
    GridField3D rhs(g.packed(), "rhs"), equations(g.packed(), "equations");
    fluid::divergence3D(g, velocity, diagonalGpu, rhs, &equations);
    CHECK(valuesError(test::downloadPacked(rhs), m.divergence(u, diagonal)) <= 1e-6);
    std::vector<double> mask(diagonal.size());
    for (std::size_t c = 0; c < mask.size(); ++c) mask[c] = diagonal[c] > 0 ? 1.0 : 0.0;
    CHECK(test::downloadPacked(equations) == mask);
    // The padding and unused tiles stay 0: every texel's sum is the cells' sum.
    double sum = 0;
    for (double v : mask) sum += v;
    const std::vector<float> texels = equations.download();
    double texelSum = 0;
    for (float v : texels) texelSum += v;
    CHECK(texelSum == sum);
  }
}

TEST_CASE("fluid3d kernels: the ghost-fluid gradient update and the face states", "[gl][fluid3d]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  std::uint64_t seed = 500;
  for (auto [nx, ny, nz] : kGrids) {
    for (int variant = 0; variant < 2; ++variant) {
      INFO(nx << "x" << ny << "x" << nz << " variant " << variant);
      const MacReference m{nx, ny, nz};
      const MacGrid3D g(nx, ny, nz, "gradient test");
      const std::size_t cells = std::size_t(nx) * ny * nz;
      const Field3 u = randomVelocity(m, seed++);
      const std::vector<double> diagonal = randomDiagonal(cells, seed++);
      const std::vector<float> qs = test::randomFloats(cells, seed++), r = test::randomFloats(cells, seed++, 0.01f, 1.0f);
      std::vector<double> q(qs.begin(), qs.end()), phi(cells);
      // A level set that agrees with the labels: < 0 in fluid cells, >= 0 in air.
      for (std::size_t c = 0; c < cells; ++c) {
        if (diagonal[c] <= 0) q[c] = 0;
        phi[c] = diagonal[c] > 0 ? -double(r[c]) : (diagonal[c] < 0 ? double(r[c]) - 0.01 : double(r[c]) - 0.5);
      }
      const std::array<int, 6> outside = variant == 0 ? std::array<int, 6>{1, 1, 1, 1, 1, 2}
                                                      : std::array<int, 6>{2, 1, 2, 2, 1, 2};
      const GridField3D velocity = onGpu(u, g.faces(), "u"), qGpu = packedOnGpu(q, g, "q");
      const GridField3D diagonalGpu = packedOnGpu(diagonal, g, "diagonal"), phiGpu = packedOnGpu(phi, g, "phi");
      GridField3D out(g.faces(), "out");
      const bool levelSet = variant == 1;
      fluid::subtractGradient3D(g, velocity, qGpu, diagonalGpu, outside, levelSet ? &phiGpu : nullptr, levelSet, out);
      const Field3 want = m.subtractGradient(u, q, diagonal, outside, levelSet ? &phi : nullptr, levelSet);
      const Field3 got = test::download(out);
      CHECK(fieldError(got, want, 3) <= 2e-6);
      double states = 0;
      for (std::size_t t = 3; t < want.v.size(); t += 4) states = std::max(states, std::abs(got.v[t] - want.v[t]));
      CHECK(states == 0);
    }
  }
}

TEST_CASE("fluid3d kernels: velocity extrapolation", "[gl][fluid3d]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  std::uint64_t seed = 600;
  for (auto [nx, ny, nz] : kGrids) {
    INFO(nx << "x" << ny << "x" << nz);
    const MacReference m{nx, ny, nz};
    const MacGrid3D g(nx, ny, nz, "extrapolation test");
    Field3 u = randomVelocity(m, seed++);
    const std::vector<float> r = test::randomFloats(u.v.size(), seed++, 0, 1);
    for (int k = 0; k <= nz; ++k)
      for (int j = 0; j <= ny; ++j)
        for (int i = 0; i <= nx; ++i) {
          double code = 0;
          for (int a = 0; a < 3; ++a) {
            const float x = r[4 * u.index(i, j, k) + std::size_t(a)];
            const int s = !m.faceExists({i, j, k}, a) ? 2 : (x < 0.5f ? 0 : (x < 0.8f ? 1 : 2));
            code += s * (a == 0 ? 1 : (a == 1 ? 4 : 16));
          }
          u.at(i, j, k, 3) = code;
        }
    const GridField3D velocity = onGpu(u, g.faces(), "u");
    GridField3D out(g.faces(), "out");
    for (bool last : {false, true}) {
      INFO((last ? "last" : "not last"));
      fluid::extrapolateVelocity3D(g, velocity, last, out);
      CHECK(fieldError(test::download(out), m.extrapolate(u, last)) <= 1e-6);
    }
  }
}

TEST_CASE("fluid3d kernels: volume, redistancing and the volume correction", "[gl][fluid3d]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  std::uint64_t seed = 700;
  for (auto [nx, ny, nz] : kGrids) {
    INFO(nx << "x" << ny << "x" << nz);
    const MacReference m{nx, ny, nz};
    const MacGrid3D g(nx, ny, nz, "level set test");
    const std::size_t cells = std::size_t(nx) * ny * nz;
    const Field3 phi = randomField(nx, ny, nz, seed++, -3, 3, 1), solids = randomSolids(m, seed++);
    const GridField3D phiGpu = onGpu(phi, g.cells(), "phi"), solidsGpu = onGpu(solids, g.cells(), "solids");
    GridField3D fraction(g.packed(), "fraction"), band(g.packed(), "band");
    fluid::measureVolume3D(g, phiGpu, solidsGpu, fraction, band);
    std::vector<double> wantFraction(cells, 0.0), wantBand(cells, 0.0);
    for (std::size_t c = 0; c < cells; ++c) {
      if (solids.v[4 * c] > 0.5) continue;
      const double p = phi.v[4 * c];
      wantFraction[c] = std::clamp(0.5 - p, 0.0, 1.0);
      wantBand[c] = (p > -0.5 && p < 0.5) ? 1.0 : 0.0;
    }
    CHECK(valuesError(test::downloadPacked(fraction), wantFraction) <= 1e-6);
    CHECK(test::downloadPacked(band) == wantBand);

    GridField3D out(g.cells(), "out");
    fluid::redistance3D(g, phiGpu, nullptr, out);
    CHECK(fieldError(test::download(out), m.redistance(phi, 0.0)) <= 2e-6);
    // The correction: volume 7.5 cells, band 4, target 6: phi + 0.375 everywhere; a large
    // difference is clamped to half a cell.
    for (auto [volume, bandCount, target, shift] :
         std::vector<std::tuple<float, float, float, double>>{{7.5f, 4.0f, 6.0f, 0.375}, {100.0f, 2.0f, 3.0f, 0.5},
                                                              {1.0f, 0.0f, 5.0f, 0.0}}) {
      stream::Scalar v("volume", volume), b("band", bandCount);
      const fluid::VolumeCorrection3D correction{&v, &b, target};
      fluid::redistance3D(g, phiGpu, &correction, out);
      CHECK(fieldError(test::download(out), m.redistance(phi, shift)) <= 2e-6);
    }
  }
}

TEST_CASE("fluid3d kernels: labels and solid cells", "[gl][fluid3d]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  std::uint64_t seed = 800;
  for (auto [nx, ny, nz] : kGrids) {
    INFO(nx << "x" << ny << "x" << nz);
    const MacReference m{nx, ny, nz};
    const MacGrid3D g(nx, ny, nz, "labels test");
    const std::size_t cells = std::size_t(nx) * ny * nz;
    const Field3 phi = randomField(nx, ny, nz, seed++, -2, 2, 1), solids = randomSolids(m, seed++);
    const GridField3D phiGpu = onGpu(phi, g.cells(), "phi"), solidsGpu = onGpu(solids, g.cells(), "solids");
    GridField3D labels(g.packed(), "labels"), packedPhi(g.packed(), "packed phi");
    fluid::cellLabels3D(g, solidsGpu, &phiGpu, labels, &packedPhi);
    std::vector<double> wantLabels(cells), wantPhi(cells), smokeLabels(cells);
    for (std::size_t c = 0; c < cells; ++c) {
      const bool solid = solids.v[4 * c] > 0.5;
      wantPhi[c] = float(phi.v[4 * c]);
      wantLabels[c] = solid ? 1.0 : (phi.v[4 * c] < 0 ? 0.0 : 2.0);
      smokeLabels[c] = solid ? 1.0 : 0.0;
    }
    CHECK(test::downloadPacked(labels) == wantLabels);
    CHECK(test::downloadPacked(packedPhi) == wantPhi);
    fluid::cellLabels3D(g, solidsGpu, nullptr, labels, nullptr);
    CHECK(test::downloadPacked(labels) == smokeLabels);

    // Solid cells: the static ones at rest, then a sphere's cells with its velocity.
    const std::array<float, 4> sphere{0.5f * float(nx), 0.3f * float(ny), 0.7f * float(nz), 2.2f};
    const std::array<float, 3> velocity{0.5f, -0.25f, 2.0f};
    GridField3D out(g.cells(), "out");
    Field3 staticOnly = solids;
    for (std::size_t t = 0; t < staticOnly.v.size(); t += 4) staticOnly.v[t + 1] = staticOnly.v[t + 2] = staticOnly.v[t + 3] = 0;
    for (bool withStatic : {false, true}) {
      fluid::solidCells3D(g, withStatic ? &solidsGpu : nullptr, sphere, velocity, out);
      Field3 want = m.cells();
      for (int k = 0; k < nz; ++k)
        for (int j = 0; j < ny; ++j)
          for (int i = 0; i < nx; ++i) {
            const double dx = i + 0.5 - sphere[0], dy = j + 0.5 - sphere[1], dz = k + 0.5 - sphere[2];
            if (dx * dx + dy * dy + dz * dz < double(sphere[3]) * sphere[3]) {
              want.at(i, j, k, 0) = 1;
              for (int a = 0; a < 3; ++a) want.at(i, j, k, a + 1) = velocity[std::size_t(a)];
            }
            if (withStatic && staticOnly.at(i, j, k, 0) > 0.5)
              for (int ch = 0; ch < 4; ++ch) want.at(i, j, k, ch) = staticOnly.at(i, j, k, ch);
          }
      CHECK(fieldError(test::download(out), want) == 0);
    }
  }
}

TEST_CASE("fluid3d kernels refuse fields on other grids by name", "[gl][fluid3d]") {
  test::context();
  const MacGrid3D g(6, 5, 4, "grid");
  const MacGrid3D other(6, 5, 5, "other");
  GridField3D velocity(g.faces(), "velocity"), wrong(other.faces(), "wrong"), curl(g.cells(), "curl");
  CHECK_THROWS_WITH(fluid::computeCurl3D(g, wrong, 0.1f, curl),
                    Catch::Contains("computeCurl3D (velocity)") && Catch::Contains("\"wrong\"") && Catch::Contains("7x6x6"));
  fluid::FaceForces3D forces;
  CHECK_THROWS_WITH(fluid::advectVelocity3D(g, velocity, 1.0f, Advection::SemiLagrangian, forces, velocity),
                    Catch::Contains("solids is null"));
  CHECK_THROWS_AS(MacGrid3D(70000, 4, 4, "huge"), gl::Error);
  CHECK_THROWS_WITH(MacGrid3D(70000, 4, 4, "huge"), Catch::Contains("huge") && Catch::Contains("maximum texture size"));
}
