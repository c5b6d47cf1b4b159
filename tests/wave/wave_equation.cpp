// Tests src/wave/WaveEquation (Krüger & Westermann §44.4) against CPU double-precision
// references on random data, on both backends, and its physics: energy conservation,
// damping, and the explicit scheme's CFL instability that the implicit one does not share.
#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/stream/Scalar.h>
#include <texstream/wave/WaveEquation.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

using texstream::wave::Scheme;
using texstream::wave::WaveEquation;
using texstream::wave::WaveParameters;

namespace {

/// (K x) with K the 5-point stencil (4 on the diagonal, -1 per neighbour), zero rim.
std::vector<double> applyK(int w, int h, const std::vector<double>& x) {
  std::vector<double> y(x.size());
  auto at = [&](int i, int j) { return (i < 0 || j < 0 || i >= w || j >= h) ? 0.0 : x[std::size_t(j) * w + i]; };
  for (int j = 0; j < h; ++j)
    for (int i = 0; i < w; ++i)
      y[std::size_t(j) * w + i] = 4.0 * at(i, j) - at(i - 1, j) - at(i + 1, j) - at(i, j - 1) - at(i, j + 1);
  return y;
}

double dotd(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

/// y = (diag I + beta K) x
std::vector<double> applyShiftedK(int w, int h, double diag, double beta, const std::vector<double>& x) {
  std::vector<double> y = applyK(w, h, x);
  for (std::size_t i = 0; i < y.size(); ++i) y[i] = diag * x[i] + beta * y[i];
  return y;
}

/// CPU CG in double for (I + beta K) x = b.
std::vector<double> solveCpu(int w, int h, double beta, const std::vector<double>& b) {
  std::vector<double> x(b.size(), 0.0), r = b, p = b;
  double rho = dotd(r, r);
  const double bnorm = std::sqrt(dotd(b, b));
  for (int it = 0; it < 10000 && std::sqrt(rho) > 1e-14 * bnorm; ++it) {
    const std::vector<double> q = applyShiftedK(w, h, 1.0, beta, p);
    const double alpha = rho / dotd(p, q);
    for (std::size_t i = 0; i < x.size(); ++i) {
      x[i] += alpha * p[i];
      r[i] -= alpha * q[i];
    }
    const double rhoNew = dotd(r, r);
    for (std::size_t i = 0; i < x.size(); ++i) p[i] = r[i] + rhoNew / rho * p[i];
    rho = rhoNew;
  }
  return x;
}

double cpuEnergy(int w, int h, const WaveParameters& p, double spacing, const std::vector<double>& u,
                 const std::vector<double>& prev) {
  double kinetic = 0;
  for (std::size_t i = 0; i < u.size(); ++i) kinetic += (u[i] - prev[i]) * (u[i] - prev[i]);
  kinetic *= spacing * spacing / (2.0 * double(p.dt) * double(p.dt));
  const double potential = p.scheme == Scheme::Explicit
                               ? dotd(u, applyK(w, h, prev))
                               : 0.5 * (dotd(u, applyK(w, h, u)) + dotd(prev, applyK(w, h, prev)));
  return kinetic + 0.5 * double(p.speed) * double(p.speed) * potential;
}

double maxAbs(const std::vector<float>& v) {
  double m = 0;
  for (float x : v) {
    if (!std::isfinite(x)) return INFINITY;
    m = std::max(m, double(std::abs(x)));
  }
  return m;
}

struct Grid {
  int w, h;
};
const Grid kGrids[] = {{2, 2}, {5, 3}, {17, 11}, {64, 37}};

WaveParameters params(Scheme s, double cfl, double spacing, float damping = 0.0f) {
  WaveParameters p;
  p.scheme = s;
  p.speed = 1.3f;
  p.dt = float(cfl * spacing / p.speed);
  p.damping = damping;
  p.cg.tolerance = 1e-6f;
  p.cg.maxIterations = 1000;
  return p;
}

}  // namespace

TEST_CASE("explicit step equals the CPU double reference", "[gl][wave]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  for (const Grid g : kGrids) {
    INFO("grid " << g.w << "x" << g.h);
    const std::size_t n = std::size_t(g.w) * g.h;
    WaveEquation wave(g.w, g.h, params(Scheme::Explicit, 0.6, 1.0 / (std::max(g.w, g.h) + 1), 0.03f), "test.explicit");
    const std::vector<float> u = texstream::test::randomFloats(n, 1), prev = texstream::test::randomFloats(n, 2);
    wave.setState(u, prev);
    wave.step();

    const double lambda = wave.cfl() * wave.cfl(), d = wave.parameters().damping;
    const std::vector<double> ud = texstream::test::toDouble(u), pd = texstream::test::toDouble(prev);
    const std::vector<double> ku = applyK(g.w, g.h, ud);
    std::vector<double> expected(n);
    for (std::size_t i = 0; i < n; ++i) expected[i] = ud[i] + (1.0 - d) * (ud[i] - pd[i]) - lambda * ku[i];
    CHECK(texstream::test::maxRelativeError(wave.height().download(), expected) < 1e-5);
    // u^{n-1} is now the old u^n.
    CHECK(texstream::test::maxRelativeError(wave.previousHeight().download(), ud) == 0.0);
    CHECK(wave.steps() == 1);
  }
}

TEST_CASE("implicit step solves its Crank-Nicolson system with CG", "[gl][wave]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  for (const Grid g : kGrids) {
    INFO("grid " << g.w << "x" << g.h);
    const std::size_t n = std::size_t(g.w) * g.h;
    // CFL 3: far beyond the explicit limit, A = I + beta K with beta = 4.5.
    WaveEquation wave(g.w, g.h, params(Scheme::Implicit, 3.0, 1.0 / (std::max(g.w, g.h) + 1), 0.02f), "test.implicit");
    const std::vector<float> u = texstream::test::randomFloats(n, 3), prev = texstream::test::randomFloats(n, 4);
    wave.setState(u, prev);
    wave.step();
    INFO(wave.lastSolve().message);
    CHECK(wave.lastSolve().converged());
    CHECK(wave.lastSolve().iterations > 0);

    const double beta = 0.5 * wave.cfl() * wave.cfl(), d = wave.parameters().damping;
    const std::vector<double> ud = texstream::test::toDouble(u), pd = texstream::test::toDouble(prev);
    // rhs = (2 - d) u^n - ((1 - d) I + beta K) u^{n-1}
    std::vector<double> rhs = applyShiftedK(g.w, g.h, 1.0 - d, beta, pd);
    for (std::size_t i = 0; i < n; ++i) rhs[i] = (2.0 - d) * ud[i] - rhs[i];

    const std::vector<float> x = wave.height().download();
    const std::vector<double> ax = applyShiftedK(g.w, g.h, 1.0, beta, texstream::test::toDouble(x));
    double res = 0;
    for (std::size_t i = 0; i < n; ++i) res += (ax[i] - rhs[i]) * (ax[i] - rhs[i]);
    CHECK(std::sqrt(res / dotd(rhs, rhs)) < 1e-5);
    CHECK(texstream::test::maxRelativeError(x, solveCpu(g.w, g.h, beta, rhs)) < 1e-4);
  }
}

TEST_CASE("energy() equals the CPU reference for both schemes", "[gl][wave]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const Scheme scheme = GENERATE(Scheme::Explicit, Scheme::Implicit);
  for (const Grid g : kGrids) {
    INFO("grid " << g.w << "x" << g.h << ", " << texstream::wave::schemeName(scheme));
    const std::size_t n = std::size_t(g.w) * g.h;
    WaveEquation wave(g.w, g.h, params(scheme, 0.5, 1.0 / (std::max(g.w, g.h) + 1)), "test.energy");
    const std::vector<float> u = texstream::test::randomFloats(n, 5), prev = texstream::test::randomFloats(n, 6);
    wave.setState(u, prev);
    const double expected = cpuEnergy(g.w, g.h, wave.parameters(), wave.spacing(), texstream::test::toDouble(u),
                                      texstream::test::toDouble(prev));
    CHECK(wave.energy() == Approx(expected).epsilon(1e-4));
    // The GPU-only form (the demos' blow-up watch) computes the same sum.
    texstream::stream::Scalar onGpu("test.energy.gpu");
    wave.energy(onGpu);
    CHECK(double(onGpu.read()) == Approx(expected).epsilon(1e-4));
  }
}

TEST_CASE("dropRipple adds a Gaussian to both time levels", "[gl][wave]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const int w = 23, h = 19;
  WaveEquation wave(w, h, params(Scheme::Explicit, 0.5, 1.0 / 24), "test.ripple");
  const std::vector<float> u = texstream::test::randomFloats(std::size_t(w) * h, 7);
  const std::vector<float> prev = texstream::test::randomFloats(std::size_t(w) * h, 8);
  wave.setState(u, prev);
  wave.dropRipple(0.4f, 0.3f, 0.1f, 0.7f);
  std::vector<double> eu(u.size()), ep(u.size());
  for (int j = 0; j < h; ++j)
    for (int i = 0; i < w; ++i) {
      const double x = (i + 1) * wave.spacing() - 0.4, y = (j + 1) * wave.spacing() - 0.3;
      const double bump = 0.7 * std::exp(-(x * x + y * y) / 0.01);
      const std::size_t k = std::size_t(j) * w + i;
      eu[k] = u[k] + bump;
      ep[k] = prev[k] + bump;
    }
  CHECK(texstream::test::maxRelativeError(wave.height().download(), eu) < 1e-5);
  CHECK(texstream::test::maxRelativeError(wave.previousHeight().download(), ep) < 1e-5);
}

TEST_CASE("energy is conserved without damping and decays with it", "[gl][wave]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const Scheme scheme = GENERATE(Scheme::Explicit, Scheme::Implicit);
  INFO(texstream::wave::schemeName(scheme));
  const int n = 40;
  const double spacing = 1.0 / (n + 1);
  // Explicit: CFL 0.5 (stable). Implicit: CFL 1.5, beyond the explicit limit.
  const double cfl = scheme == Scheme::Explicit ? 0.5 : 1.5;

  WaveEquation conserving(n, n, params(scheme, cfl, spacing), "test.conserving");
  conserving.dropRipple(0.4f, 0.55f, 0.08f, 0.1f);
  conserving.dropRipple(0.7f, 0.3f, 0.05f, -0.05f);
  const double e0 = conserving.energy();
  REQUIRE(e0 > 0);
  double worst = 0;
  for (int s = 0; s < 60; ++s) {
    conserving.step();
    worst = std::max(worst, std::abs(conserving.energy() - e0) / e0);
  }
  CHECK(worst < 2e-3);
  // The waves moved: this is not a field at rest.
  CHECK(maxAbs(conserving.height().download()) > 1e-3);

  WaveEquation damped(n, n, params(scheme, cfl, spacing, 0.05f), "test.damped");
  damped.dropRipple(0.4f, 0.55f, 0.08f, 0.1f);
  damped.dropRipple(0.7f, 0.3f, 0.05f, -0.05f);
  const double d0 = damped.energy();
  double last = d0;
  for (int s = 0; s < 60; ++s) {
    damped.step();
    last = damped.energy();
    CHECK(last <= d0 * (1.0 + 1e-4));
  }
  CHECK(last < 0.5 * d0);
}

TEST_CASE("beyond the CFL limit the implicit scheme stays bounded, the explicit one blows up", "[gl][wave]") {
  // Documented instability: at c dt / h = 4 the explicit leapfrog amplifies the grid's
  // checkerboard mode by about 126 per step, so rounding noise overflows within ~20
  // steps; Crank-Nicolson conserves a positive energy for any dt, so heights stay bounded.
  TEXSTREAM_FOR_EACH_BACKEND();
  const int n = 32;
  const double spacing = 1.0 / (n + 1);
  for (const Scheme scheme : {Scheme::Explicit, Scheme::Implicit}) {
    INFO(texstream::wave::schemeName(scheme));
    WaveEquation wave(n, n, params(scheme, 4.0, spacing), "test.cfl");
    REQUIRE(wave.cfl() > WaveEquation::explicitCflLimit());
    wave.dropRipple(0.5f, 0.5f, 0.1f, 0.1f);
    const double start = maxAbs(wave.height().download());
    const double startEnergy = wave.energy();
    for (int s = 0; s < 40; ++s) wave.step();
    const double end = maxAbs(wave.height().download());
    texstream::stream::Scalar energy("test.cfl.energy");
    wave.energy(energy);
    if (scheme == Scheme::Explicit) {
      CHECK(end > 1e6 * start);  // or not finite (maxAbs returns infinity)
      // What texstream-wave's blow-up watch reads: an overflowing or non-finite energy.
      const double e = energy.read();
      CHECK((!std::isfinite(e) || e > 1e8 * startEnergy));
    } else {
      CHECK(std::isfinite(end));
      CHECK(end < 2.0 * start);
      CHECK(wave.lastSolve().converged());
    }
  }
}

TEST_CASE("reset returns the grid to rest", "[gl][wave]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  WaveEquation wave(9, 7, params(Scheme::Implicit, 1.0, 0.1), "test.reset");
  wave.dropRipple(0.5f, 0.4f, 0.2f, 1.0f);
  wave.step();
  REQUIRE(maxAbs(wave.height().download()) > 0.1);
  wave.reset();
  CHECK(maxAbs(wave.height().download()) == 0.0);
  CHECK(maxAbs(wave.previousHeight().download()) == 0.0);
  CHECK(wave.steps() == 0);
  CHECK(wave.energy() == 0.0);
  wave.step();  // at rest, CG has b = 0: stays at rest
  CHECK(maxAbs(wave.height().download()) == 0.0);
}

TEST_CASE("bad wave parameters are rejected with a clear message", "[gl][wave]") {
  texstream::test::context();
  CHECK_THROWS_AS(WaveEquation(1, 5), std::invalid_argument);
  WaveParameters p;
  p.dt = -1.0f;
  CHECK_THROWS_WITH(WaveEquation(8, 8, p, "bad"), Catch::Contains("bad") && Catch::Contains("time step"));
  WaveEquation wave(8, 8, {}, "ok");
  CHECK_THROWS_AS(wave.setSpeed(0.0f), std::invalid_argument);
  CHECK_THROWS_AS(wave.setSpeed(NAN), std::invalid_argument);
  CHECK_THROWS_AS(wave.setDamping(1.0f), std::invalid_argument);
  CHECK_THROWS_AS(wave.setTolerance(0.0f), std::invalid_argument);
  CHECK_THROWS_AS(wave.setMaxIterations(0), std::invalid_argument);
  CHECK_THROWS_AS(wave.dropRipple(0.5f, 0.5f, 0.0f, 1.0f), std::invalid_argument);
  const std::vector<float> wrong(63, 1.0f), right(64, 1.0f);
  CHECK_THROWS_WITH(wave.setState(wrong, right), Catch::Contains("expected 64"));
  CHECK(texstream::wave::parseScheme("Implicit") == Scheme::Implicit);
  CHECK_THROWS_WITH(texstream::wave::parseScheme("rk4"), Catch::Contains("rk4"));
  // A rejected setter leaves the parameters as they were.
  CHECK(wave.parameters().speed == 1.0f);
}
