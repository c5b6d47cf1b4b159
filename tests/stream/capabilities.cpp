// Tests src/gl/Capabilities.* through the runtime: a context lacking an optional feature
// (simulated with TEXSTREAM_DISABLE_FEATURES) takes the documented fallback or refuses with
// one clear message naming the feature and the context.
#include <catch2/catch.hpp>

#include "support/Features.h"
#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/gl/Capabilities.h>
#include <texstream/gl/Error.h>
#include <texstream/gl/Texture.h>
#include <texstream/linalg/Csr.h>
#include <texstream/linalg/PointMatrix.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/stream/KernelCache.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Profiler.h>
#include <texstream/stream/Runtime.h>
#include <texstream/stream/Scalar.h>
#include <texstream/stream/Vector.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

using namespace texstream;

using test::ComputeLimit;
using test::DisabledFeatures;
using test::StorageBlockLimit;

TEST_CASE("without float blending the point matrix refuses, other products still run", "[gl][stream][caps]") {
  DisabledFeatures off("floatBlending");
  REQUIRE_FALSE(stream::Runtime::current().caps().floatBlending);
  linalg::Csr csr;
  csr.rows = csr.cols = 2;
  csr.rowPtr = {0, 1, 2};
  csr.colIdx = {0, 1};
  csr.values = {2.0, 3.0};
  const auto A = linalg::PointMatrix::fromCsr(csr, "points");
  stream::Vector x(2, "x"), y(2, "y");
  x.upload(std::vector<float>{1.0f, 1.0f});
  REQUIRE_THROWS_WITH(A.apply(x, y), Catch::Contains("cannot blend into RGBA32F") && Catch::Contains("points"));
  linalg::axpy(2.0f, x, y);
}

TEST_CASE("without timer queries the profiler stays off and says why", "[gl][stream][caps]") {
  DisabledFeatures off("timerQueries");
  stream::Profiler& profiler = stream::Runtime::current().profiler();
  REQUIRE_FALSE(stream::Profiler::available());
  profiler.setEnabled(true);
  REQUIRE_FALSE(profiler.enabled());
  REQUIRE_THAT(stream::Profiler::unavailableReason(),
               Catch::Contains("GPU timers not available") && Catch::Contains("TEXSTREAM_DISABLE_FEATURES=timerQueries"));
}

TEST_CASE("without compute shaders auto means fragment and compute is refused by name", "[gl][stream][caps]") {
  DisabledFeatures off("compute");
  stream::Runtime& rt = stream::Runtime::current();
  REQUIRE(rt.defaultBackend() == stream::Backend::Fragment);
  REQUIRE(stream::autoBackend(rt.caps()) == stream::Backend::Fragment);
  REQUIRE_THROWS_WITH(rt.requireBackend(stream::Backend::Compute),
                      Catch::Contains("compute backend needs OpenGL 4.3 or OpenGL ES 3.1") &&
                          Catch::Contains(rt.caps().apiName()));
  const auto xs = test::randomFloats(101, 5);
  stream::Vector x(101, "x"), y(101, "y");
  x.upload(xs);
  linalg::copy(x, y);
  REQUIRE(y.download() == xs);
}

TEST_CASE("a GL whose compute workgroups are smaller than 16 x 16 has no compute backend, and says why",
          "[stream][caps]") {
  // ES 3.1 guarantees 128 invocations a workgroup; every compute kernel runs 256.
  CHECK(gl::computeWorkgroupsFit(256, 16));
  CHECK(gl::computeWorkgroupsFit(1024, 1024));
  CHECK_FALSE(gl::computeWorkgroupsFit(128, 128));
  CHECK_FALSE(gl::computeWorkgroupsFit(1024, 8));
  gl::Capabilities small;
  small.es = true;
  small.major = 3;
  small.minor = 1;
  small.maxComputeInvocations = 128;
  small.maxComputeGroupSide = 128;
  CHECK_THAT(small.computeMissing(), Catch::Contains("16 x 16") && Catch::Contains("allows 128 invocations"));
  gl::Capabilities old;  // no compute shaders at all
  CHECK_THAT(old.computeMissing(), Catch::Contains("OpenGL 4.3 or OpenGL ES 3.1"));
}

TEST_CASE("TEXSTREAM_MAX_COMPUTE_INVOCATIONS lowers the workgroup limits; below 16 x 16 the compute backend goes, named",
          "[gl][stream][caps]") {
  test::context();
  const gl::Capabilities driver = stream::Runtime::current().caps();
  if (!driver.compute) return;  // nothing to lower
  {
    ComputeLimit limit(512);
    const gl::Capabilities& caps = stream::Runtime::current().caps();
    CHECK(caps.compute);
    CHECK(caps.maxComputeInvocations == std::min(512, driver.maxComputeInvocations));
    CHECK(caps.maxComputeGroupSide == std::min(512, driver.maxComputeGroupSide));
  }
  {
    ComputeLimit limit(128);
    const gl::Capabilities& caps = stream::Runtime::current().caps();
    CHECK_FALSE(caps.compute);
    CHECK(caps.driverMaxComputeInvocations == driver.maxComputeInvocations);
    CHECK_THAT(caps.computeMissing(), Catch::Contains("allows 128 invocations") &&
                                          Catch::Contains("TEXSTREAM_MAX_COMPUTE_INVOCATIONS=128"));
  }
  {
    ComputeLimit limit(1 << 30);  // never raised
    CHECK(stream::Runtime::current().caps().maxComputeInvocations == driver.maxComputeInvocations);
    CHECK(stream::Runtime::current().caps().driverMaxComputeInvocations == 0);
  }
  setenv("TEXSTREAM_MAX_COMPUTE_INVOCATIONS", "256x", 1);
  stream::Runtime::shutdown();
  CHECK_THROWS_WITH(stream::Runtime::current(),
                    Catch::Contains("TEXSTREAM_MAX_COMPUTE_INVOCATIONS: invalid value \"256x\""));
  unsetenv("TEXSTREAM_MAX_COMPUTE_INVOCATIONS");
  stream::Runtime::shutdown();
  CHECK(stream::Runtime::current().caps().compute);
}

TEST_CASE("TEXSTREAM_MAX_STORAGE_BLOCK_BYTES lowers the storage block limit, never raises it; bad values are named",
          "[gl][stream][caps]") {
  test::context();
  const gl::Capabilities driver = stream::Runtime::current().caps();
  if (!driver.storageBuffers) return;  // nothing to lower
  // Desktop 4.3 guarantees 2^24 bytes, ES 3.1 2^27.
  CHECK(driver.maxStorageBlockBytes >= (driver.es ? (std::int64_t(1) << 27) : (std::int64_t(1) << 24)));
  {
    StorageBlockLimit limit(4096);
    CHECK(stream::Runtime::current().caps().maxStorageBlockBytes == 4096);
    CHECK(stream::Runtime::current().caps().driverMaxStorageBlockBytes == driver.maxStorageBlockBytes);
  }
  {
    StorageBlockLimit limit(std::int64_t(1) << 62);
    CHECK(stream::Runtime::current().caps().maxStorageBlockBytes == driver.maxStorageBlockBytes);
    CHECK(stream::Runtime::current().caps().driverMaxStorageBlockBytes == 0);
  }
  for (const char* bad : {"4k", "8", "-1"}) {
    setenv("TEXSTREAM_MAX_STORAGE_BLOCK_BYTES", bad, 1);
    stream::Runtime::shutdown();
    CHECK_THROWS_WITH(stream::Runtime::current(), Catch::Contains("TEXSTREAM_MAX_STORAGE_BLOCK_BYTES: invalid value \"" +
                                                                  std::string(bad) + "\""));
  }
  unsetenv("TEXSTREAM_MAX_STORAGE_BLOCK_BYTES");
  stream::Runtime::shutdown();
  CHECK(stream::Runtime::current().caps().maxStorageBlockBytes == driver.maxStorageBlockBytes);
}

TEST_CASE("without immutable storage or buffer mapping, textures and read-backs still round-trip", "[gl][stream][caps]") {
  DisabledFeatures off(gl::capabilities().es ? "textureStorage" : "textureStorage,mapBufferRead");
  REQUIRE_FALSE(stream::Runtime::current().caps().textureStorage);
  const auto xs = test::randomFloats(4099, 6);
  stream::Vector x(4099, "x");
  x.upload(xs);
  REQUIRE(x.download() == xs);
  const stream::Vector* list[] = {&x};
  REQUIRE(stream::downloadAll(list)[0] == xs);
  stream::Scalar s("s", 2.5f);
  REQUIRE(s.read() == 2.5f);
  stream::ScalarReadback readback;
  readback.start(s);
  REQUIRE(readback.value()[0] == 2.5f);
}

TEST_CASE("with half-float render targets only, 32-bit float passes and read-backs refuse, RGBA16F ones run",
          "[gl][stream][caps]") {
  // iOS Safari's WebGL2: EXT_color_buffer_half_float without EXT_color_buffer_float.
  DisabledFeatures off("floatRenderTargets,compute");
  const gl::Capabilities& caps = stream::Runtime::current().caps();
  REQUIRE_FALSE(caps.floatRenderTargets);
  REQUIRE(caps.halfFloatRenderTargets);
  REQUIRE_FALSE(caps.floatBlending);
  REQUIRE_THAT(caps.floatTargetsMissing(), Catch::Contains("EXT_color_buffer_float") && Catch::Contains(caps.apiName()));

  const auto xs = test::randomFloats(1001, 31), ys = test::randomFloats(1001, 32);
  stream::Vector x(1001, "x"), y(1001, "y");
  x.upload(xs);  // uploads need no render target
  REQUIRE_THROWS_WITH(linalg::axpy(2.0f, x, y), Catch::Contains("cannot render into the RGBA32F texture \"y\"") &&
                                                    Catch::Contains("EXT_color_buffer_float"));
  REQUIRE_THROWS_WITH(x.download(), Catch::Contains("\"x\"") && Catch::Contains("EXT_color_buffer_float"));
  stream::Scalar s("s", 1.0f);
  stream::ScalarReadback readback;
  REQUIRE_THROWS_WITH(readback.start(s), Catch::Contains("EXT_color_buffer_float"));

  // The same operation on RGBA16F vectors: half-float results against the double reference.
  const stream::Layout layout = stream::Layout::forSize(1001);
  stream::Vector hx(layout, "hx", gl::TextureFormat::RGBA16F), hy(layout, "hy", gl::TextureFormat::RGBA16F);
  hx.upload(xs);
  hy.upload(ys);
  const std::vector<float> qx = hx.download(), qy = hy.download();  // the inputs as half floats
  linalg::axpy(2.0f, hx, hy);
  REQUIRE(hy.format() == gl::TextureFormat::RGBA16F);
  const std::vector<float> got = hy.download();
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double expected = 2.0 * double(qx[i]) + double(qy[i]);
    INFO("i = " << i);
    REQUIRE(std::abs(double(got[i]) - expected) <= 1e-3 * std::max(1.0, std::abs(expected)));  // 2^-11 rounding
  }
}

TEST_CASE("a context without float render targets, or an unknown feature name, is refused clearly", "[gl][stream][caps]") {
  {
    DisabledFeatures off("floatRenderTargets,halfFloatRenderTargets");
    REQUIRE_THROWS_WITH(stream::Runtime::current(),
                        Catch::Contains("needs RGBA32F render targets (EXT_color_buffer_float), or RGBA16F ones "
                                        "(EXT_color_buffer_half_float)") &&
                            Catch::Contains("offers neither") && Catch::Contains("can run none of texstream's"));
  }
  {
    setenv("TEXSTREAM_MAX_TEXTURE_SIZE", "64", 1);
    stream::Runtime::shutdown();
    const int limit = stream::Runtime::current().caps().maxTextureSize;
    const int driver = stream::Runtime::current().caps().driverMaxTextureSize;
    REQUIRE_THROWS_WITH(gl::Texture(65, 3, gl::TextureFormat::RGBA32F, "wide"), Catch::Contains("exceeds this context's limits (64"));
    setenv("TEXSTREAM_MAX_TEXTURE_SIZE", "many", 1);
    stream::Runtime::shutdown();
    REQUIRE_THROWS_WITH(stream::Runtime::current(), Catch::Contains("TEXSTREAM_MAX_TEXTURE_SIZE: invalid value \"many\""));
    unsetenv("TEXSTREAM_MAX_TEXTURE_SIZE");
    stream::Runtime::shutdown();
    CHECK(limit == 64);
    CHECK(driver > 64);
  }
  {
    DisabledFeatures off("compute,warpDrive");
    REQUIRE_THROWS_WITH(stream::Runtime::current(),
                        Catch::Contains("unknown feature \"warpDrive\"") && Catch::Contains("floatBlending"));
  }
  REQUIRE(stream::Runtime::current().caps().floatRenderTargets);
}

TEST_CASE("in-place passes keep the texels they do not write, with or without render feedback loops",
          "[gl][stream][caps]") {
  // Row 0 takes row 1 plus one (Bolz §4.2's border copies read the texture they write).
  stream::registerKernelSource("test/copy_row_below", R"glsl(
uniform sampler2D u_x;
void kernel(ivec2 t) { o_out0 = texelFetch(u_x, t + ivec2(0, 1), 0) + vec4(1.0); }
)glsl");
  for (const char* features : {"", "renderFeedbackLoops"}) {
    INFO("TEXSTREAM_DISABLE_FEATURES=" << features);
    DisabledFeatures off(features);
    TEXSTREAM_FOR_EACH_BACKEND();
    const int w = 7, h = 5;
    const std::vector<float> values = test::randomFloats(std::size_t(w * h * 4), 21);
    gl::Texture t(w, h, gl::TextureFormat::RGBA32F, "inplace");
    t.upload(values.data());
    stream::Pass("test/copy_row_below").input("u_x", t).output(t).inPlace().run({{0, 0, w, 1}});
    std::vector<float> got(values.size());
    t.download(got.data());
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w * 4; ++x) {
        const std::size_t i = std::size_t(y * w * 4 + x);
        const float expected = y == 0 ? values[i + std::size_t(w * 4)] + 1.0f : values[i];
        REQUIRE(got[i] == expected);
      }
    }
  }
}
