#include <texstream/stream/Layout.h>

#include <texstream/gl/Error.h>
#include <texstream/stream/Runtime.h>

#include <cmath>

namespace texstream::stream {

namespace {
void checkFits(std::size_t n, std::size_t w, std::size_t h) {
  const Runtime& rt = Runtime::current();
  const std::size_t maxSize = std::size_t(rt.caps().maxTextureSize);
  if (w > maxSize || h > maxSize) {
    throw gl::Error("Layout: n = " + std::to_string(n) + " needs a " + std::to_string(w) + "x" +
                    std::to_string(h) + " texture, beyond this GPU's maximum texture size " +
                    std::to_string(maxSize) + " (" + rt.caps().renderer + "); the largest vector is " +
                    std::to_string(4 * maxSize * maxSize) + " scalars");
  }
}
}  // namespace

Layout Layout::forSize(std::size_t n) {
  if (n == 0) throw gl::Error("Layout: a vector needs n >= 1 (got n = 0)");
  const std::size_t texels = (n + 3) / 4;
  std::size_t w = std::size_t(std::ceil(std::sqrt(double(texels))));
  while (w * w < texels) ++w;
  const std::size_t maxSize = std::size_t(Runtime::current().caps().maxTextureSize);
  if (w > maxSize) w = maxSize;
  const std::size_t h = (texels + w - 1) / w;
  checkFits(n, w, h);
  return Layout(n, int(w), int(h));
}

Layout Layout::withWidth(std::size_t n, int widthTexels) {
  if (n == 0) throw gl::Error("Layout: a vector needs n >= 1 (got n = 0)");
  if (widthTexels <= 0) throw gl::Error("Layout: width must be at least one texel (got " + std::to_string(widthTexels) + ")");
  const std::size_t texels = (n + 3) / 4;
  const std::size_t w = std::size_t(widthTexels);
  const std::size_t h = (texels + w - 1) / w;
  checkFits(n, w, h);
  return Layout(n, widthTexels, int(h));
}

std::string Layout::describe() const {
  return "n=" + std::to_string(m_n) + " (" + std::to_string(m_width) + "x" + std::to_string(m_height) + " texels)";
}

}  // namespace texstream::stream
