#pragma once
// texstream::stream::Layout: how n scalars sit in a W x H RGBA texture.
//
// Element i lives in texel t = i / 4, channel i % 4, and texel t at (t % W, t / W): rows
// of texels in reading order, four consecutive scalars per texel (Krüger & Westermann
// §44.2.1). Texels past n are zero padding, which is also the identity of sum
// reductions, so every kernel must keep them zero.
#include <cstddef>
#include <string>

namespace texstream::stream {

class Layout {
 public:
  Layout() = default;
  /// Near-square layout for n scalars: W = ceil(sqrt(ceil(n / 4))), H = ceil(texels / W).
  /// Throws Error for n = 0 or when n does not fit the current context's maximum texture
  /// size (naming n, the limit and the context's renderer); any n up to SIZE_MAX is
  /// checked without overflow.
  static Layout forSize(std::size_t n);
  /// n scalars in rows of exactly `widthTexels` texels (e.g. a grid row per texel row).
  static Layout withWidth(std::size_t n, int widthTexels);
  /// The most scalars one vector holds in the current context: 4 GL_MAX_TEXTURE_SIZE^2,
  /// at most INT_MAX (kernels index elements with a GLSL int).
  static std::size_t maxSize();

  std::size_t size() const { return m_n; }
  int width() const { return m_width; }
  int height() const { return m_height; }
  std::size_t texels() const { return std::size_t(m_width) * std::size_t(m_height); }
  /// Scalars the texture holds, padding included (4 W H).
  std::size_t paddedSize() const { return 4 * texels(); }
  /// Texels that hold at least one element: ceil(n / 4).
  std::size_t usedTexels() const { return (m_n + 3) / 4; }
  bool operator==(const Layout& o) const { return m_n == o.m_n && m_width == o.m_width && m_height == o.m_height; }
  bool operator!=(const Layout& o) const { return !(*this == o); }
  /// "n=1000 (16x16 texels)"
  std::string describe() const;

 private:
  Layout(std::size_t n, int w, int h) : m_n(n), m_width(w), m_height(h) {}
  std::size_t m_n = 0;
  int m_width = 0, m_height = 0;
};

/// a * b, checked: throws std::invalid_argument("where: a x b overflows std::size_t
/// (SIZE_MAX = ...)") when the product does not fit. Needs no context.
std::size_t checkedProduct(const std::string& where, std::size_t a, std::size_t b);

/// The scalars of an nx x ny x nz grid, checked: throws Error naming `where`, the grid and
/// the limit when the product overflows or exceeds Layout::maxSize() (current context).
std::size_t checkedGridSize(const std::string& where, std::size_t nx, std::size_t ny, std::size_t nz = 1);

}  // namespace texstream::stream
