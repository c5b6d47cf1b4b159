#include <texstream/stream/Layout.h>

#include <texstream/gl/Error.h>
#include <texstream/stream/Runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace texstream::stream {

namespace {
// Kernels index elements with a GLSL int (u_n, element i), so no vector exceeds INT_MAX.
constexpr std::size_t kMaxIndexedSize = std::size_t(std::numeric_limits<int>::max());

std::size_t textureCapacity(const Runtime& rt) {
  const std::size_t maxSide = std::size_t(rt.caps().maxTextureSize);
  return 4 * maxSide * maxSide;  // maxSide <= 2^31: fits a 64-bit size_t
}

std::string largestVector(const Runtime& rt) {
  const std::size_t maxSide = std::size_t(rt.caps().maxTextureSize);
  const std::string side = std::to_string(maxSide);
  const std::string limit = "the maximum texture size (GL_MAX_TEXTURE_SIZE) is " + side + " on " + rt.caps().renderer;
  if (textureCapacity(rt) <= kMaxIndexedSize) {
    return "the largest vector is 4 x " + side + "^2 = " + std::to_string(Layout::maxSize()) + " scalars: " + limit;
  }
  return "the largest vector is INT_MAX = " + std::to_string(kMaxIndexedSize) +
         " scalars, the largest element index of a kernel (" + limit + ")";
}

void checkFits(std::size_t n, std::size_t w, std::size_t h) {
  const Runtime& rt = Runtime::current();
  const std::size_t maxSide = std::size_t(rt.caps().maxTextureSize);
  if (w > maxSide || h > maxSide) {
    throw gl::Error("Layout: n = " + std::to_string(n) + " needs a " + std::to_string(w) + "x" + std::to_string(h) +
                    " texture; " + largestVector(rt));
  }
}

// Texels holding n scalars, ceil(n / 4), without the overflow of (n + 3) / 4 near SIZE_MAX.
std::size_t texelsFor(std::size_t n) { return n / 4 + (n % 4 != 0 ? 1 : 0); }

void requireSize(std::size_t n) {
  if (n == 0) throw gl::Error("Layout: a vector needs n >= 1 (got n = 0)");
  if (n > Layout::maxSize()) {
    throw gl::Error("Layout: n = " + std::to_string(n) + " is beyond the limit; " + largestVector(Runtime::current()));
  }
}
}  // namespace

std::size_t Layout::maxSize() { return std::min(textureCapacity(Runtime::current()), kMaxIndexedSize); }

Layout Layout::forSize(std::size_t n) {
  requireSize(n);
  const std::size_t texels = texelsFor(n);
  std::size_t w = std::size_t(std::ceil(std::sqrt(double(texels))));
  while (w * w < texels) ++w;
  const std::size_t maxSide = std::size_t(Runtime::current().caps().maxTextureSize);
  if (w > maxSide) w = maxSide;
  const std::size_t h = (texels + w - 1) / w;
  checkFits(n, w, h);
  return Layout(n, int(w), int(h));
}

Layout Layout::withWidth(std::size_t n, int widthTexels) {
  if (widthTexels <= 0) throw gl::Error("Layout: width must be at least one texel (got " + std::to_string(widthTexels) + ")");
  requireSize(n);
  const std::size_t texels = texelsFor(n);
  const std::size_t w = std::size_t(widthTexels);
  const std::size_t h = (texels + w - 1) / w;
  checkFits(n, w, h);
  return Layout(n, widthTexels, int(h));
}

std::size_t checkedProduct(const std::string& where, std::size_t a, std::size_t b) {
  std::size_t product = 0;
  if (__builtin_mul_overflow(a, b, &product)) {
    throw std::invalid_argument(where + ": " + std::to_string(a) + " x " + std::to_string(b) +
                    " overflows std::size_t (SIZE_MAX = " + std::to_string(SIZE_MAX) + ")");
  }
  return product;
}

std::size_t checkedGridSize(const std::string& where, std::size_t nx, std::size_t ny, std::size_t nz) {
  std::string grid = std::to_string(nx) + "x" + std::to_string(ny);
  if (nz != 1) grid.append("x").append(std::to_string(nz));
  std::size_t n = 0;
  if (__builtin_mul_overflow(nx, ny, &n) || __builtin_mul_overflow(n, nz, &n) || n > Layout::maxSize()) {
    throw gl::Error(where + ": a " + grid + " grid has more points than one vector holds; " +
                    largestVector(Runtime::current()));
  }
  return n;
}

std::string Layout::describe() const {
  return "n=" + std::to_string(m_n) + " (" + std::to_string(m_width) + "x" + std::to_string(m_height) + " texels)";
}

}  // namespace texstream::stream
