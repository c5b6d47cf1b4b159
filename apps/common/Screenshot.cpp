#include "Screenshot.h"

#include <texstream/gl/Framebuffer.h>
#include <texstream/gl/StateGuard.h>

#include <glad/gl.h>

// The one definition of stb_image_write in the apps.
#define STB_IMAGE_WRITE_IMPLEMENTATION
#if __has_include(<stb/stb_image_write.h>)
#include <stb/stb_image_write.h>
#else
#include <stb_image_write.h>
#endif

#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace texstream::app {

namespace {
std::string hex(unsigned int v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%04x", v);
  return buf;
}
}  // namespace

Image readFramebuffer(unsigned int fbo, int width, int height) {
  if (width <= 0 || height <= 0)
    throw std::runtime_error("readFramebuffer: empty framebuffer (" + std::to_string(width) + "x" +
                             std::to_string(height) + ")");
  std::vector<std::uint8_t> rgba(std::size_t(width) * std::size_t(height) * 4);
  {
    // The guard restores the host's read framebuffer, pixel-store state and pack buffer.
    gl::StateGuard guard;
    gl::StateGuard::preparePixelTransfer();
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
    glReadBuffer(fbo == 0 ? GL_BACK : GL_COLOR_ATTACHMENT0);
    const GLenum status = glCheckFramebufferStatus(GL_READ_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE)
      throw std::runtime_error("readFramebuffer: framebuffer " + std::to_string(fbo) + " cannot be read (" +
                               gl::framebufferStatusText(status) + ")");
    // RGBA / UNSIGNED_BYTE is the pair every GL and GLES reads from an 8-bit framebuffer.
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
  }
  std::vector<std::uint8_t> bottomUp(std::size_t(width) * std::size_t(height) * 3);
  for (std::size_t i = 0, n = std::size_t(width) * std::size_t(height); i < n; ++i) {
    bottomUp[3 * i] = rgba[4 * i];
    bottomUp[3 * i + 1] = rgba[4 * i + 1];
    bottomUp[3 * i + 2] = rgba[4 * i + 2];
  }

  Image image;
  image.width = width;
  image.height = height;
  image.rgb.resize(bottomUp.size());
  const std::size_t row = std::size_t(width) * 3;
  for (int y = 0; y < height; ++y)
    std::memcpy(image.rgb.data() + std::size_t(y) * row, bottomUp.data() + std::size_t(height - 1 - y) * row, row);
  return image;
}

void writePng(const std::string& path, const Image& image) {
  if (image.width <= 0 || image.height <= 0 || image.rgb.size() != std::size_t(image.width) * image.height * 3)
    throw std::runtime_error("writePng(\"" + path + "\"): image has no pixels");
  if (!stbi_write_png(path.c_str(), image.width, image.height, 3, image.rgb.data(), image.width * 3))
    throw std::runtime_error("writePng(\"" + path + "\"): cannot write the file (missing folder or no permission?)");
}

OffscreenTarget::OffscreenTarget(int width, int height) : m_width(width), m_height(height) {
  GLint previousDraw = 0, previousRenderbuffer = 0;
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &previousDraw);
  glGetIntegerv(GL_RENDERBUFFER_BINDING, &previousRenderbuffer);
  glGenRenderbuffers(1, &m_color);
  glBindRenderbuffer(GL_RENDERBUFFER, m_color);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
  glGenRenderbuffers(1, &m_depth);
  glBindRenderbuffer(GL_RENDERBUFFER, m_depth);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, width, height);
  glGenFramebuffers(1, &m_fbo);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, m_fbo);
  glFramebufferRenderbuffer(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, m_color);
  glFramebufferRenderbuffer(GL_DRAW_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, m_depth);
  const GLenum status = glCheckFramebufferStatus(GL_DRAW_FRAMEBUFFER);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, GLuint(previousDraw));
  glBindRenderbuffer(GL_RENDERBUFFER, GLuint(previousRenderbuffer));
  if (status != GL_FRAMEBUFFER_COMPLETE) {
    release();
    throw std::runtime_error("OffscreenTarget(" + std::to_string(width) + "x" + std::to_string(height) +
                             "): framebuffer incomplete (status " + hex(status) + ")");
  }
}

OffscreenTarget::~OffscreenTarget() { release(); }

void OffscreenTarget::release() {
  if (m_fbo) glDeleteFramebuffers(1, &m_fbo);
  if (m_color) glDeleteRenderbuffers(1, &m_color);
  if (m_depth) glDeleteRenderbuffers(1, &m_depth);
  m_fbo = m_color = m_depth = 0;
}

void OffscreenTarget::bind() {
  glBindFramebuffer(GL_FRAMEBUFFER, m_fbo);
  glViewport(0, 0, m_width, m_height);
}

}  // namespace texstream::app
