// Tests the smoke scene's mirror symmetry: a disc source on the axis of a symmetric box
// must give a mirror-symmetric plume with no one-column line on its axis (the dye source's
// hard edge grazed the row y = 2 at the axis node alone, and the convergent inflow carried
// that node's dye up the axis column: shaders/fluid/advect.glsl).
#include <catch2/catch.hpp>

#include "support/Gl.h"

#include <texstream/fluid/FluidSolver.h>
#include <texstream/stream/Vector.h>

#include <algorithm>
#include <cmath>

using namespace texstream;

TEST_CASE("Fluid: the smoke plume stays mirror-symmetric without an axis line", "[fluid][gl]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  fluid::FluidParameters p;
  p.scene = fluid::Scene::Smoke;
  p.nx = p.ny = 65;  // odd: the axis is a velocity node (u = 0 there) and a dye column
  p.particles = 0;
  p.statistics = false;
  fluid::FluidSolver s(p);
  for (int k = 0; k < 60; ++k) s.step();
  const int w = s.dyeWidth(), h = s.dyeHeight(), c = (w - 1) / 2;
  const std::vector<float> d = s.dye().download();
  auto dye = [&](int i, int j) { return double(d[4 * (std::size_t(j) * w + i)]); };
  double asymmetry = 0, peak = 0, line = 0;
  for (int j = 0; j < h; ++j) {
    for (int i = 0; i < w; ++i) {
      asymmetry = std::max(asymmetry, std::abs(dye(i, j) - dye(w - 1 - i, j)));
      peak = std::max(peak, dye(i, j));
    }
    // The axis column against the mean of its neighbours (a smooth peak: O(h^2)).
    line = std::max(line, dye(c, j) - 0.5 * (dye(c - 1, j) + dye(c + 1, j)));
  }
  const std::vector<fluid::FluidSolver::NodeSample> nodes = s.sampleNodes();
  double velocityAsymmetry = 0, speed = 0;
  for (int j = 0; j < s.ny(); ++j)
    for (int i = 0; i < s.nx(); ++i) {
      const auto& a = nodes[std::size_t(j) * s.nx() + i];
      const auto& b = nodes[std::size_t(j) * s.nx() + (s.nx() - 1 - i)];
      velocityAsymmetry = std::max({velocityAsymmetry, std::abs(a.u + b.u), std::abs(a.v - b.v)});
      speed = std::max({speed, std::abs(a.u), std::abs(a.v)});
    }
  INFO("dye peak " << peak << ", asymmetry " << asymmetry << ", axis line " << line << "; speed " << speed
                   << ", velocity asymmetry " << velocityAsymmetry);
  REQUIRE(peak > 0.5);
  REQUIRE(speed > 0.1);
  CHECK(asymmetry <= 1e-4);
  CHECK(velocityAsymmetry <= 1e-4 * speed);
  // 0.14 with the hard-edged source tangent to the wall (a bright line up the whole plume);
  // 0.06 with the soft-edged source clear of the wall. A smooth peak on the axis of a
  // plume a few cells wide is itself ~0.05 above its neighbours' mean; what is left above
  // that is a faint line inside the source disc (open: see the closing note).
  CHECK(line <= 0.1);
}
