// Tests src/stream/Scalar.*: blocking and asynchronous read-back.
#include <catch2/catch.hpp>

#include "support/Gl.h"

#include <texstream/stream/Scalar.h>

using namespace texstream;

TEST_CASE("Scalar write/read and asynchronous read-back", "[gl][stream]") {
  test::context();
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
}
