// Tests src/stream/Scalar.*: blocking and asynchronous read-back.
#include <catch2/catch.hpp>

#include "support/Features.h"
#include "support/Gl.h"

#include <texstream/stream/Reduction.h>
#include <texstream/stream/Scalar.h>
#include <texstream/stream/Vector.h>

#include <glad/gl.h>

#include <vector>

using namespace texstream;

TEST_CASE("Scalar write/read and asynchronous read-back, on each backend", "[gl][stream]") {
  // The compute backend copies the texel with a dispatch (into a persistently mapped buffer
  // where the context has persistentMapping), the fragment one with glReadPixels.
  for (const char* features : {"", "persistentMapping"}) {
    INFO("TEXSTREAM_DISABLE_FEATURES=" << features);
    test::DisabledFeatures off(features);
    TEXSTREAM_FOR_EACH_BACKEND();
    if (!gl::capabilities().es && gl::capabilities().atLeast(4, 4)) {
      REQUIRE(gl::capabilities().persistentMapping == (*features == '\0'));
    }
    // The host's pack buffer binding stays where it was.
    GLuint hostBuffer = 0;
    glGenBuffers(1, &hostBuffer);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, hostBuffer);
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
    // Many copies in flight one after another, each read back after later work.
    for (int i = 0; i < 20; ++i) {
      s.write(float(i) + 0.5f);
      rb.start(s);
      stream::sum(v, t);
      // Every other copy is polled until it lands, the rest are taken blocking.
      for (int polls = 0; i % 2 == 0 && !rb.ready() && polls < 1000000; ++polls) {
      }
      REQUIRE(rb.value()[0] == float(i) + 0.5f);
    }
    GLint bound = -1;
    glGetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &bound);
    CHECK(GLuint(bound) == hostBuffer);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    glDeleteBuffers(1, &hostBuffer);
  }
}
