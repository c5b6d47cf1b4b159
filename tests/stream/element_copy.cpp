// Tests src/stream/ElementCopy.*: a vector's elements in a storage buffer in element order
// (what a sparse product's gathers read, GATHER_ELEMENTS), at awkward sizes and layouts,
// and the errors for a vector of another shape and for the fragment backend.
#include <catch2/catch.hpp>

#include "support/Features.h"
#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/gl/Buffer.h>
#include <texstream/stream/ElementCopy.h>
#include <texstream/stream/Layout.h>
#include <texstream/stream/Runtime.h>
#include <texstream/stream/Vector.h>

#include <glad/gl.h>

#include <vector>

using namespace texstream;
using stream::ElementCopy;
using stream::Layout;
using stream::Vector;

namespace {

std::vector<float> readCopy(const ElementCopy& copy) {
  std::vector<float> out(copy.layout().texels() * 4, -1.0f);
  glBindBuffer(GL_COPY_READ_BUFFER, copy.buffer());
  REQUIRE(gl::readBufferData(GL_COPY_READ_BUFFER, out.size() * sizeof(float), out.data()));
  glBindBuffer(GL_COPY_READ_BUFFER, 0);
  return out;
}

}  // namespace

TEST_CASE("ElementCopy: element e of a vector lands at float e, padding as the texture holds it",
          "[gl][stream][compute]") {
  test::context();
  stream::BackendScope compute(stream::Backend::Compute);
  const std::size_t n = GENERATE(1, 7, 97, 4099);
  // The near-square layout, and a wide one of a power-of-two width (a SegmentMatrix's
  // internal layout) whose rows are only partly used.
  const bool wide = GENERATE(false, true);
  const Layout layout = wide ? Layout::withWidth(n, 64) : Layout::forSize(n);
  INFO("n = " << n << ", " << layout.describe());
  const auto xs = test::randomFloats(n, 31 + n);
  Vector x(layout, "x");
  x.upload(xs);
  ElementCopy copy(layout, "x elements");
  copy.copyFrom(x);
  const std::vector<float> got = readCopy(copy);
  for (std::size_t e = 0; e < n; ++e) REQUIRE(got[e] == xs[e]);
  for (std::size_t e = n; e < got.size(); ++e) REQUIRE(got[e] == 0.0f);  // Vector's zero padding
  // A second copy after the vector changed replaces the first.
  x.upload(std::vector<float>(n, 3.0f));
  copy.copyFrom(x);
  REQUIRE(readCopy(copy)[n - 1] == 3.0f);
}

TEST_CASE("ElementCopy: vectors of another layout, the fragment backend and an empty copy are refused by name",
          "[gl][stream][compute]") {
  test::context();
  ElementCopy copy(Layout::forSize(100), "copy");
  Vector other(101, "other"), same(100, "same");
  {
    stream::BackendScope compute(stream::Backend::Compute);
    REQUIRE_THROWS_WITH(copy.copyFrom(other), Catch::Contains("\"copy\"") && Catch::Contains("\"other\""));
  }
  {
    stream::BackendScope fragment(stream::Backend::Fragment);
    REQUIRE_THROWS_WITH(copy.copyFrom(same), Catch::Contains("compute backend only"));
  }
  ElementCopy empty;
  REQUIRE_THROWS_WITH(empty.copyFrom(same), Catch::Contains("empty"));
  REQUIRE_THROWS_WITH(ElementCopy(Layout(), "none"), Catch::Contains("\"none\"") && Catch::Contains("empty layout"));
}

TEST_CASE("ElementCopy: storage blocks smaller than the copy are refused, naming both sizes; fits() says so first",
          "[gl][stream][compute]") {
  test::context();
  const Layout layout = Layout::forSize(4099);  // 33 x 32 texels: 16,896 bytes
  REQUIRE(ElementCopy::fits(layout));
  test::StorageBlockLimit limit(16384);
  REQUIRE_FALSE(ElementCopy::fits(layout));
  REQUIRE(ElementCopy::fits(Layout::forSize(4096)));  // 32 x 32 texels: 16,384 bytes
  REQUIRE_THROWS_WITH(ElementCopy(layout, "big"), Catch::Contains("\"big\"") && Catch::Contains("16896 bytes") &&
                                                      Catch::Contains("16384 bytes") &&
                                                      Catch::Contains("TEXSTREAM_MAX_STORAGE_BLOCK_BYTES"));
}
