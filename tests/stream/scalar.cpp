// Tests src/stream/Scalar.*: blocking and asynchronous read-back.
#include <catch2/catch.hpp>

#include "support/Gl.h"

#include <texstream/stream/Reduction.h>
#include <texstream/stream/Scalar.h>
#include <texstream/stream/Vector.h>

#include <vector>

using namespace texstream;

TEST_CASE("Scalar write/read and asynchronous read-back, on each backend", "[gl][stream]") {
  // The compute backend copies the texel with a dispatch, the fragment one with glReadPixels.
  TEXSTREAM_FOR_EACH_BACKEND();
  stream::Scalar s("rho", 3.25f);
  REQUIRE(s.read() == 3.25f);
  s.write4({1.0f, 2.0f, 3.0f, 4.0f});
  REQUIRE(s.read4() == std::array<float, 4>{1.0f, 2.0f, 3.0f, 4.0f});

  stream::ScalarReadback rb;
  REQUIRE_FALSE(rb.pending());
  rb.start(s);
  REQUIRE(rb.pending());
  // The value lands eventually without blocking calls; value() then returns it.
  int polls = 0;
  while (!rb.ready() && polls < 1000000) ++polls;
  REQUIRE(rb.value()[2] == 3.0f);
  REQUIRE_FALSE(rb.pending());
  s.write(-7.5f);
  rb.start(s);
  REQUIRE(rb.value()[0] == -7.5f);  // blocking form

  // The copy is taken where start() stands in the command stream: a later write to the
  // scalar does not reach it, and a value computed by a pass just before it does.
  stream::Scalar t("t", 0.0f);
  stream::Vector v(5, "v");
  v.upload(std::vector<float>{1.0f, 2.0f, 3.0f, 4.0f, 5.0f});
  stream::sum(v, t);
  rb.start(t);
  t.write(100.0f);
  REQUIRE(rb.value()[0] == 15.0f);
  // A second start replaces a pending copy.
  rb.start(s);
  rb.start(t);
  REQUIRE(rb.value()[0] == 100.0f);
  REQUIRE_FALSE(rb.pending());
}
