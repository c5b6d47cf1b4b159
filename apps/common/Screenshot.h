#pragma once
// Screenshots: read a framebuffer back, flip it (GL's rows start at the bottom), write a PNG
// through stb_image_write. Also the offscreen target headless runs render into, so that
// their screenshot shows the same picture a window would.
#include <cstdint>
#include <string>
#include <vector>

namespace texstream::app {

/// Tightly packed 8-bit RGB rows, top row first.
struct Image {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgb;
};

/// Reads the colour buffer of framebuffer `fbo` (0: the window's back buffer) in
/// [0, width) x [0, height), top row first. Blocks until rendering is done.
Image readFramebuffer(unsigned int fbo, int width, int height);
/// Writes `image` as a PNG; throws std::runtime_error naming the path on failure.
void writePng(const std::string& path, const Image& image);

/// A colour (RGBA8) + depth framebuffer of a fixed size, for rendering without a window.
class OffscreenTarget {
 public:
  OffscreenTarget(int width, int height);
  ~OffscreenTarget();
  OffscreenTarget(const OffscreenTarget&) = delete;
  OffscreenTarget& operator=(const OffscreenTarget&) = delete;

  unsigned int framebuffer() const { return m_fbo; }
  int width() const { return m_width; }
  int height() const { return m_height; }
  /// Binds it for drawing and sets the viewport to all of it.
  void bind();

 private:
  void release();
  unsigned int m_fbo = 0, m_color = 0, m_depth = 0;
  int m_width = 0, m_height = 0;
};

}  // namespace texstream::app
