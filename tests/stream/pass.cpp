// Tests src/stream/Pass.* and KernelCache.*: the same kernel body on both backends,
// rectangles, several outputs, in-place outputs, coefficients, #define variants, the
// prelude's element fetch, and the pass count the bench's floors use. Test kernels are
// written to a temporary folder that TEXSTREAM_SHADER_DIR points at (files not found there
// come from the embedded set).
#include <catch2/catch.hpp>

#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/gl/Error.h>
#include <texstream/gl/Texture.h>
#include <texstream/stream/KernelCache.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Profiler.h>
#include <texstream/stream/Runtime.h>
#include <texstream/stream/Scalar.h>
#include <texstream/stream/Vector.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

using namespace texstream;
using stream::Pass;
using stream::Scalar;
using stream::Vector;

namespace {

void writeTestKernels() {
  static bool done = false;
  if (done) return;
  // One folder per process: ctest runs the context variants of this binary in parallel,
  // and a file rewritten by one while another compiles it reads as empty.
  const auto dir = std::filesystem::temp_directory_path() / ("texstream-test-shaders-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir / "test");
  std::ofstream(dir / "test/shift.glsl") << R"(
uniform sampler2D u_x;
uniform int u_offset;
uniform int u_width;
uniform int u_n;
void kernel(ivec2 texel) {
  int t = texelIndex(texel, u_width);
  o_out0 = keepValid(fetchElements(u_x, 4 * t + u_offset), t, u_n);
}
)";
  std::ofstream(dir / "test/two_outputs.glsl") << R"(
uniform sampler2D u_x;
uniform Coefficient u_a;
void kernel(ivec2 texel) {
  vec4 x = texelFetch(u_x, texel, 0);
  o_out0 = x * COEFFICIENT(u_a);
  o_out1 = x + vec4(SHIFT);
}
)";
  std::ofstream(dir / "test/broken.glsl") << "uniform sampler2D u_x;\nvoid kernel(ivec2 texel) {\n  o_out0 = undeclared_thing;\n}\n";
  setenv("TEXSTREAM_SHADER_DIR", dir.c_str(), 1);
  done = true;
}

}  // namespace

TEST_CASE("fetchElements reads any shifted window of a vector", "[gl][stream]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  writeTestKernels();
  for (std::size_t n : {std::size_t(1), std::size_t(7), std::size_t(97), std::size_t(4097)}) {
    const auto xs = test::randomFloats(n, n + 5);
    Vector x(n, "x"), y(n, "y");
    x.upload(xs);
    for (int offset : {0, 1, 2, 3, 4, -1, -5, 13, -int(n), int(n) - 1}) {
      INFO("n = " << n << ", offset = " << offset);
      Pass("test/shift").input("u_x", x).uniform("u_offset", offset).uniform("u_width", x.layout().width())
          .uniform("u_n", int(n)).output(y).run();
      const auto got = y.download();
      for (std::size_t i = 0; i < n; ++i) {
        const long long j = (long long)i + offset;
        const float expected = (j >= 0 && j < (long long)n) ? xs[std::size_t(j)] : 0.0f;
        REQUIRE(got[i] == expected);
      }
    }
  }
}

TEST_CASE("two outputs, rectangles, GPU coefficients and in-place passes", "[gl][stream]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  writeTestKernels();
  const std::size_t n = 1000;  // 16 x 16 texels
  const auto xs = test::randomFloats(n, 3);
  Vector x(n, "x"), a(n, "a"), b(n, "b");
  x.upload(xs);
  Scalar s("s", 2.5f);

  SECTION("whole output, constant and GPU coefficients") {
    for (int mode = 0; mode < 3; ++mode) {
      stream::Coefficient c = mode == 0 ? stream::Coefficient(-1.5f) : stream::Coefficient(3.0f, s, mode == 2);
      const double factor = mode == 0 ? -1.5 : (mode == 1 ? 7.5 : 1.2);
      Pass("test/two_outputs").define("SHIFT", "0.25").input("u_x", x).coefficient("u_a", c).output(a).output(b).run();
      const auto ga = a.download(), gb = b.download();
      for (std::size_t i = 0; i < n; ++i) {
        REQUIRE(ga[i] == Approx(xs[i] * factor).epsilon(1e-6));
        REQUIRE(gb[i] == xs[i] + 0.25f);
      }
    }
  }
  SECTION("rectangles leave the rest of the output untouched") {
    const std::vector<float> poison(n, 42.0f);
    a.upload(poison);
    b.upload(poison);
    const int w = x.layout().width();
    std::vector<stream::Rect> rects{{0, 0, w, 2}, {3, 5, 4, 3}, {0, 9, 0, 0}};
    Pass("test/two_outputs").define("SHIFT", "1.0").input("u_x", x).coefficient("u_a", 1.0f).output(a).output(b).run(rects);
    const auto ga = a.download();
    for (std::size_t i = 0; i < n; ++i) {
      const int t = int(i / 4), tx = t % w, ty = t / w;
      const bool inside = ty < 2 || (tx >= 3 && tx < 7 && ty >= 5 && ty < 8);
      REQUIRE(ga[i] == (inside ? xs[i] : 42.0f));
    }
  }
  SECTION("an output that is also an input is computed from the old values") {
    Pass("test/two_outputs").define("SHIFT", "2.0").input("u_x", x).coefficient("u_a", 2.0f).output(x).output(b).run();
    const auto gx = x.download(), gb = b.download();
    for (std::size_t i = 0; i < n; ++i) {
      REQUIRE(gx[i] == 2.0f * xs[i]);
      REQUIRE(gb[i] == xs[i] + 2.0f);
    }
    const int w = x.layout().width();
    REQUIRE_THROWS_WITH(Pass("test/two_outputs").define("SHIFT", "2.0").input("u_x", x).coefficient("u_a", 2.0f)
                            .output(x).output(b).run({{0, 0, w, 1}}),
                        Catch::Contains("whole output"));
  }
}

TEST_CASE("kernel errors name the file and line; variants are cached", "[gl][stream]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  writeTestKernels();
  Vector x(8, "x"), y(8, "y");
  REQUIRE_THROWS_WITH(Pass("test/broken").input("u_x", x).output(y).run(),
                      Catch::Contains("shaders/test/broken.glsl:3") && Catch::Contains("test/broken"));
  REQUIRE_THROWS_WITH(Pass("no/such_kernel").input("u_x", x).output(y).run(), Catch::Contains("shaders/no/such_kernel.glsl"));
  auto& cache = stream::Runtime::current().kernels();
  Pass("test/shift").input("u_x", x).uniform("u_offset", 1).uniform("u_width", 2).uniform("u_n", 8).output(y).run();
  const std::size_t before = cache.size();
  Pass("test/shift").input("u_x", x).uniform("u_offset", 2).uniform("u_width", 2).uniform("u_n", 8).output(y).run();
  REQUIRE(cache.size() == before);
  Pass("test/shift").define("UNUSED", 3).input("u_x", x).uniform("u_offset", 2).uniform("u_width", 2).uniform("u_n", 8).output(y).run();
  REQUIRE(cache.size() == before + 1);
}

TEST_CASE("driver logs are rewritten to file:line", "[stream]") {
  // Joined text: line 1 version, 2-3 generated header, 4.. shaders/axpy.glsl from its line 1.
  std::vector<gl::LineOrigin> origins{{"<version>", 1}, {"<generated header>", 1}, {"<generated header>", 2}};
  for (int i = 1; i <= 30; ++i) origins.push_back({"shaders/axpy.glsl", i});
  REQUIRE(gl::rewriteShaderLog("0:20(5): error: `foo' undeclared", origins) == "shaders/axpy.glsl:17: error: `foo' undeclared");
  REQUIRE(gl::rewriteShaderLog("0(26) : error C1008: undefined variable \"foo\"", origins) ==
          "shaders/axpy.glsl:23: error C1008: undefined variable \"foo\"");
  REQUIRE(gl::rewriteShaderLog("ERROR: 0:7: 'x' : syntax error", origins) == "shaders/axpy.glsl:4: 'x' : syntax error");
  REQUIRE(gl::rewriteShaderLog("0:99(1): error: past the end", origins) == "<line 99>: error: past the end");
}

TEST_CASE("kernels registered at run time replace earlier text of the same name", "[gl][stream]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  Vector x(9, "x"), y(9, "y");
  x.upload(std::vector<float>(9, 2.0f));
  stream::registerKernelSource("test/generated", "uniform sampler2D u_x;\nvoid kernel(ivec2 t) { o_out0 = 3.0 * texelFetch(u_x, t, 0); }\n");
  Pass("test/generated").input("u_x", x).output(y).run();
  REQUIRE(y.download() == std::vector<float>(9, 6.0f));
  stream::registerKernelSource("test/generated", "uniform sampler2D u_x;\nvoid kernel(ivec2 t) { o_out0 = -texelFetch(u_x, t, 0); }\n");
  Pass("test/generated").input("u_x", x).output(y).run();
  // The padding texel of n = 9 holds 0 in x, so -x keeps it zero.
  REQUIRE(y.download() == std::vector<float>(9, -2.0f));
}

TEST_CASE("the profiler counts every pass run, timed or not", "[gl][stream]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  writeTestKernels();
  Vector x(10, "x"), a(10, "a"), b(10, "b");
  stream::Profiler& profiler = stream::Runtime::current().profiler();
  REQUIRE_FALSE(profiler.enabled());
  const long long before = profiler.passesBegun();
  for (int i = 0; i < 3; ++i) {
    Pass("test/two_outputs").define("SHIFT", "0.25").input("u_x", x).coefficient("u_a", stream::Coefficient(1.0f)).output(a).output(b).run();
  }
  // Several rectangles are one pass.
  Pass("test/two_outputs").define("SHIFT", "0.25").input("u_x", x).coefficient("u_a", stream::Coefficient(1.0f)).output(a).output(b).run(
      {stream::Rect{0, 0, 1, 1}, stream::Rect{1, 0, 1, 1}});
  CHECK(profiler.passesBegun() - before == 4);
}

TEST_CASE("a raw pass dispatches a second variant of its kernel before its barrier", "[gl][stream][compute]") {
  test::context();
  if (!stream::Runtime::current().caps().compute) return;  // raw kernels need compute
  // Workgroup k of the first variant writes texel k of the first row, workgroup k of the
  // second texel k of the second row: two programs, one output, one pass.
  stream::registerKernelSource("test/two_programs", R"glsl(
layout(local_size_x = 1) in;
uniform sampler2D u_x;
uniform float u_scale;
void main() {
  int k = int(gl_WorkGroupID.x);
#ifdef SECOND
  imageStore(u_image0, ivec2(k, 1), -u_scale * texelFetch(u_x, ivec2(k, 1), 0));
#else
  imageStore(u_image0, ivec2(k, 0), u_scale * texelFetch(u_x, ivec2(k, 0), 0));
#endif
}
)glsl");
  gl::Texture x(5, 2, gl::TextureFormat::R32F, "x"), y(5, 2, gl::TextureFormat::R32F, "y");
  const std::vector<float> xs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  x.upload(xs.data());
  const std::vector<float> zeros(10, 0.0f);
  y.upload(zeros.data());
  const long long before = stream::Runtime::current().profiler().passesBegun();
  Pass("test/two_programs").input("u_x", x).uniform("u_scale", 2.0f).output(y).workgroups(5).alsoDispatch("SECOND", 3).run();
  CHECK(stream::Runtime::current().profiler().passesBegun() - before == 1);
  std::vector<float> got(10, 99.0f);
  y.download(got.data());
  // Row 0 from the first program (5 workgroups), row 1 from the second (3 of them); the
  // texels no workgroup writes keep their zeros.
  CHECK(got == std::vector<float>{2, 4, 6, 8, 10, -12, -14, -16, 0, 0});
  // A pass over rectangles has no workgroups to add to.
  CHECK_THROWS_WITH(Pass("test/generated").input("u_x", x).output(y).alsoDispatch("SECOND", 1).run(),
                    Catch::Contains("alsoDispatch needs workgroups()"));
  CHECK_THROWS_WITH(Pass("test/two_programs").alsoDispatch("SECOND", 0), Catch::Contains("must be positive"));
  CHECK_THROWS_WITH(Pass("test/two_programs").alsoDispatch("", 1), Catch::Contains("needs a define"));
}
