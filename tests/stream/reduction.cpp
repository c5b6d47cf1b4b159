// Tests src/stream/Reduction.*: sum, dot, max|x|, norm against double references, both
// backends, awkward sizes and every reduction block edge.
#include <catch2/catch.hpp>

#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/stream/Pass.h>
#include <texstream/stream/Reduction.h>
#include <texstream/stream/Runtime.h>
#include <texstream/stream/Scalar.h>
#include <texstream/stream/Vector.h>

#include <glad/gl.h>

#include <cmath>

using namespace texstream;
using stream::Scalar;
using stream::Vector;

TEST_CASE("sum, dot, maxAbs and norm match double references", "[gl][stream]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const int block = GENERATE(2, 3, 8);
  stream::Runtime::current().setReductionBlock(backend, block);
  std::vector<std::size_t> sizes = test::awkwardSizes();
  sizes.push_back(100003);   // several reduction levels
  sizes.push_back(1100003);  // compute: more texels than 1024 workgroups x 256, so the grid-stride loop runs
  for (std::size_t n : sizes) {
    INFO("n = " << n << ", block = " << block);
    const auto xs = test::randomFloats(n, 11 * n + 1, 0.5f, 2.0f);
    const auto ys = test::randomFloats(n, 13 * n + 2);
    Vector x(n, "x"), y(n, "y");
    x.upload(xs);
    y.upload(ys);
    double s = 0, d = 0, m = 0, q = 0;
    for (std::size_t i = 0; i < n; ++i) {
      s += xs[i];
      d += double(xs[i]) * ys[i];
      m = std::max(m, std::abs(double(ys[i])));
      q += double(ys[i]) * ys[i];
    }
    Scalar out("out", -123.0f);  // poisoned
    stream::sum(x, out);
    REQUIRE(out.read() == Approx(s).epsilon(1e-5));
    stream::dot(x, y, out);
    // Cancellation in dot: compare against the scale of the terms.
    double scale = 0;
    for (std::size_t i = 0; i < n; ++i) scale += std::abs(double(xs[i]) * ys[i]);
    REQUIRE(std::abs(out.read() - d) <= 1e-5 * scale + 1e-30);
    stream::maxAbs(y, out);
    REQUIRE(out.read() == float(m));
    stream::norm2(y, out);
    REQUIRE(out.read() == Approx(std::sqrt(q)).epsilon(1e-5));
  }
  stream::Runtime::current().setReductionBlock(backend, backend == stream::Backend::Fragment ? 4 : 8);
}

TEST_CASE("reductions reject mismatched layouts and bad block sizes", "[gl][stream]") {
  test::context();
  Vector x(10, "x"), y(12, "y");
  Scalar out("out");
  REQUIRE_THROWS_WITH(stream::dot(x, y, out), Catch::Contains("\"x\"") && Catch::Contains("\"y\""));
  REQUIRE_THROWS_WITH(stream::Runtime::current().setReductionBlock(stream::Backend::Fragment, 1),
                      Catch::Contains("2..64"));
}

TEST_CASE("fused reductions run on the compute backend only and restore the host's storage bindings", "[gl][stream][compute]") {
  test::context();
  Vector x(1000, "x");
  x.upload(std::vector<float>(1000, 0.5f));
  Scalar out("out");
  auto epilogue = stream::Epilogue{"reduce/store_result.glsl", [&](stream::Pass& p) { p.output(out); }};
  {
    stream::BackendScope scope(stream::Backend::Fragment);
    REQUIRE_THROWS_WITH(stream::reduceInto(stream::ReductionOp::Sum, x, nullptr, epilogue),
                        Catch::Contains("compute backend only"));
  }
  stream::BackendScope scope(stream::Backend::Compute);
  GLuint host = 0;
  glGenBuffers(1, &host);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, host);
  glBufferData(GL_SHADER_STORAGE_BUFFER, 64, nullptr, GL_STATIC_DRAW);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, host);
  stream::reduceInto(stream::ReductionOp::Sum, x, nullptr, epilogue);
  REQUIRE(out.read() == 500.0f);
  REQUIRE_THROWS_WITH(stream::reduceInto(stream::ReductionOp::Dot, x, nullptr, epilogue), Catch::Contains("needs y"));
  GLint bound = 0;
  glGetIntegeri_v(GL_SHADER_STORAGE_BUFFER_BINDING, 0, &bound);
  REQUIRE(GLuint(bound) == host);
  glGetIntegerv(GL_SHADER_STORAGE_BUFFER_BINDING, &bound);
  REQUIRE(GLuint(bound) == host);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, 0);
  glDeleteBuffers(1, &host);
}
