// Tests src/stream/Vector.* and Layout.*: round trips, layouts, size errors.
#include <catch2/catch.hpp>

#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/stream/Layout.h>
#include <texstream/stream/Runtime.h>
#include <texstream/stream/Vector.h>

#include <glad/gl.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>

using namespace texstream;
using stream::Layout;
using stream::Vector;

TEST_CASE("Layout covers n with zero padding, near square", "[gl][stream]") {
  test::context();
  for (std::size_t n : test::awkwardSizes()) {
    const Layout l = Layout::forSize(n);
    INFO("n = " << n);
    REQUIRE(l.size() == n);
    REQUIRE(l.paddedSize() >= n);
    REQUIRE(l.usedTexels() == (n + 3) / 4);
    REQUIRE(std::size_t(l.width()) * std::size_t(l.height()) >= l.usedTexels());
    // No empty texel row: the layout is as small as it can be for its width.
    REQUIRE(std::size_t(l.width()) * std::size_t(l.height() - 1) < l.usedTexels());
    REQUIRE(l.width() - l.height() <= l.height() + 1);
  }
  REQUIRE(Layout::withWidth(10, 1).height() == 3);
}

TEST_CASE("Layout rejects n = 0 and sizes beyond the maximum texture", "[gl][stream]") {
  test::context();
  REQUIRE_THROWS_WITH(Layout::forSize(0), Catch::Contains("n >= 1"));
  const std::size_t maxTex = std::size_t(stream::Runtime::current().caps().maxTextureSize);
  REQUIRE_THROWS_WITH(Layout::forSize(4 * maxTex * maxTex + 1), Catch::Contains("maximum texture size"));
  REQUIRE_THROWS_WITH(Layout::withWidth(4 * (maxTex + 1), int(maxTex + 1)), Catch::Contains("maximum texture size"));
  REQUIRE_THROWS_WITH(Layout::withWidth(5, 0), Catch::Contains("at least one texel"));
}

TEST_CASE("Layout and Vector refuse sizes up to SIZE_MAX, naming the size and the limit", "[gl][stream]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const std::size_t maxTex = std::size_t(stream::Runtime::current().caps().maxTextureSize);
  const std::size_t limit = Layout::maxSize();
  REQUIRE(limit == std::min(4 * maxTex * maxTex, std::size_t(std::numeric_limits<int>::max())));
  // SIZE_MAX - 2 .. SIZE_MAX wrapped (n + 3) / 4 to zero texels: a division by zero.
  for (std::size_t n : {SIZE_MAX, SIZE_MAX - 1, SIZE_MAX - 2, SIZE_MAX - 3, SIZE_MAX / 2, SIZE_MAX / 4 + 1,
                        std::size_t(std::numeric_limits<int>::max()) + 1, limit + 1}) {
    INFO("n = " << n);
    REQUIRE_THROWS_WITH(Vector(n, "huge"), Catch::Contains("n = " + std::to_string(n)) &&
                                               Catch::Contains(std::to_string(limit)) &&
                                               Catch::Contains("maximum texture size"));
    REQUIRE_THROWS_WITH(Layout::withWidth(n, 1), Catch::Contains("n = " + std::to_string(n)));
    REQUIRE_THROWS_WITH(Layout::withWidth(n, int(maxTex)), Catch::Contains(std::to_string(limit)));
  }
  // The largest vector still has a layout within the texture limit.
  const Layout largest = Layout::forSize(limit);
  REQUIRE(largest.size() == limit);
  REQUIRE(std::size_t(largest.width()) <= maxTex);
  REQUIRE(std::size_t(largest.height()) <= maxTex);
  REQUIRE(largest.paddedSize() >= limit);

  REQUIRE(stream::checkedGridSize("grid", 7, 5, 3) == 105);
  REQUIRE_THROWS_WITH(stream::checkedGridSize("Grid(\"g\")", std::size_t(1) << 32, std::size_t(1) << 32),
                      Catch::Contains("Grid(\"g\")") && Catch::Contains("4294967296x4294967296") &&
                          Catch::Contains(std::to_string(limit)));
  REQUIRE_THROWS_WITH(stream::checkedGridSize("grid", maxTex, maxTex, 5), Catch::Contains(std::to_string(limit)));
  REQUIRE(stream::checkedProduct("p", 1u << 20, 1u << 20) == std::size_t(1) << 40);
  REQUIRE_THROWS_AS(stream::checkedProduct("p", SIZE_MAX / 2, 3), std::invalid_argument);
  REQUIRE_THROWS_WITH(stream::checkedProduct("DenseMatrix(\"D\")", SIZE_MAX / 2, 3),
                      Catch::Contains("DenseMatrix(\"D\")") && Catch::Contains("overflows"));
}

TEST_CASE("Vector upload/download round-trips exactly at awkward sizes", "[gl][stream]") {
  test::context();
  for (std::size_t n : test::awkwardSizes()) {
    INFO("n = " << n);
    const auto data = test::randomFloats(n, n);
    Vector v(n, "roundtrip");
    v.upload(data);
    REQUIRE(v.download() == data);
    v.setZero();
    REQUIRE(v.download() == std::vector<float>(n, 0.0f));
  }
}

namespace {
/// Writes `values` (every texel, padding included) into v's texture behind its back.
void overwriteTexels(const Vector& v, const std::vector<float>& values) {
  gl::StateGuard guard;
  gl::StateGuard::preparePixelTransfer();
  glBindTexture(GL_TEXTURE_2D, v.texture().id());
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, v.layout().width(), v.layout().height(), GL_RGBA, GL_FLOAT, values.data());
  glBindTexture(GL_TEXTURE_2D, 0);
}
}  // namespace

TEST_CASE("Vector::setZero and pooled temporaries zero every texel, padding included, on each backend",
          "[gl][stream]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  for (std::size_t n : test::awkwardSizes()) {
    INFO("n = " << n);
    const Layout layout = Layout::forSize(n);
    // Every texel, padding included, holds a non-zero value (as a pooled texture may).
    const std::vector<float> dirty(std::size_t(layout.width()) * std::size_t(layout.height()) * 4, 3.5f);
    std::vector<float> texels(dirty.size(), -1.0f);
    {
      Vector v(layout, "dirty");
      overwriteTexels(v, dirty);
      v.setZero();
      v.texture().download(texels.data());
      REQUIRE(std::all_of(texels.begin(), texels.end(), [](float x) { return x == 0.0f; }));
      overwriteTexels(v, dirty);
    }
    {
      // A temporary's texture comes from the pool with the last user's data: its padding
      // is zeroed (the identity of the reductions) before anything reads it.
      Vector first = Vector::temporary(layout, "first");
      overwriteTexels(first, dirty);
    }
    Vector second = Vector::temporary(layout, "second");
    std::fill(texels.begin(), texels.end(), -1.0f);
    second.texture().download(texels.data());
    for (std::size_t i = n; i < texels.size(); ++i) {
      INFO("padding value " << i);
      REQUIRE(texels[i] == 0.0f);
    }
  }
}

TEST_CASE("Vector size mismatches give errors naming the vector", "[gl][stream]") {
  test::context();
  Vector v(10, "cg.x");
  std::vector<float> nine(9, 1.0f);
  REQUIRE_THROWS_WITH(v.upload(nine), Catch::Contains("cg.x") && Catch::Contains("n = 10") && Catch::Contains("9"));
  std::vector<float> out(11);
  REQUIRE_THROWS_WITH(v.download(out), Catch::Contains("cg.x"));
  Vector w(11, "other");
  REQUIRE_THROWS_WITH(stream::requireSameLayout("axpy", v, w), Catch::Contains("cg.x") && Catch::Contains("other"));
}

TEST_CASE("Vectors move; moved-from vectors are empty", "[gl][stream]") {
  test::context();
  Vector a(5, "a");
  const unsigned id = a.texture().id();
  Vector b(std::move(a));
  REQUIRE(b.texture().id() == id);
  REQUIRE(a.empty());  // NOLINT(bugprone-use-after-move): checking the moved-from state
  REQUIRE_THROWS_AS(a.download(), gl::Error);
}

TEST_CASE("stream::downloadAll gives each vector's values, as download() does", "[gl][stream]") {
  test::context();
  std::vector<stream::Vector> vectors;
  std::vector<std::vector<float>> values;
  for (std::size_t n : {std::size_t(1), std::size_t(7), std::size_t(4097), std::size_t(130)}) {
    values.push_back(test::randomFloats(n, unsigned(n)));
    vectors.emplace_back(n, std::string("v").append(std::to_string(n)));
    vectors.back().upload(values.back());
  }
  std::vector<const stream::Vector*> pointers;
  for (const stream::Vector& v : vectors) pointers.push_back(&v);
  const std::vector<std::vector<float>> got = stream::downloadAll(pointers);
  REQUIRE(got.size() == vectors.size());
  for (std::size_t i = 0; i < got.size(); ++i) CHECK(got[i] == values[i]);
  const stream::Vector empty;
  const stream::Vector* emptyPointer = &empty;
  CHECK_THROWS_WITH(stream::downloadAll(std::span(&emptyPointer, 1)), Catch::Contains("empty vector"));
}
