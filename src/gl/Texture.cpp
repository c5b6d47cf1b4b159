#include <texstream/gl/Texture.h>

#include <texstream/gl/Debug.h>
#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>

#include <glad/gl.h>

#include <cstring>
#include <utility>
#include <vector>

namespace texstream::gl {

namespace {
struct FormatInfo {
  GLenum internal, format, type;
  int channels, bytes;
};
FormatInfo info(TextureFormat f) {
  switch (f) {
    case TextureFormat::RGBA32F: return {GL_RGBA32F, GL_RGBA, GL_FLOAT, 4, 16};
    case TextureFormat::RG32F: return {GL_RG32F, GL_RG, GL_FLOAT, 2, 8};
    case TextureFormat::R32F: return {GL_R32F, GL_RED, GL_FLOAT, 1, 4};
    case TextureFormat::RGBA8: return {GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, 4, 4};
  }
  return {GL_RGBA32F, GL_RGBA, GL_FLOAT, 4, 16};
}
}  // namespace

int bytesPerTexel(TextureFormat f) { return info(f).bytes; }
int channelCount(TextureFormat f) { return info(f).channels; }
const char* imageFormatQualifier(TextureFormat f) {
  switch (f) {
    case TextureFormat::RGBA32F: return "rgba32f";
    case TextureFormat::RG32F: return "rg32f";
    case TextureFormat::R32F: return "r32f";
    case TextureFormat::RGBA8: return "rgba8";
  }
  return "rgba32f";
}

Texture::Texture(int width, int height, TextureFormat format, std::string name, int layers)
    : m_width(width), m_height(height), m_layers(layers), m_format(format), m_name(std::move(name)) {
  if (width <= 0 || height <= 0 || layers < 0) {
    throw Error("Texture(\"" + m_name + "\"): invalid size " + std::to_string(width) + "x" +
                std::to_string(height) + (layers ? "x" + std::to_string(layers) : ""));
  }
  StateGuard guard;
  while (glGetError() != GL_NO_ERROR) {
  }
  const FormatInfo fi = info(format);
  glGenTextures(1, &m_id);
  const GLenum tgt = target();
  StateGuard::bindTexture(0, tgt, m_id);
  // Immutable storage; fails with GL_INVALID_VALUE beyond GL_MAX_TEXTURE_SIZE and with
  // GL_OUT_OF_MEMORY when the GPU has no room.
  if (m_layers > 0) {
    glTexStorage3D(tgt, 1, fi.internal, width, height, layers);
  } else {
    glTexStorage2D(tgt, 1, fi.internal, width, height);
  }
  glTexParameteri(tgt, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(tgt, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(tgt, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(tgt, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  try {
    throwOnGlError("Texture", m_name);
  } catch (...) {
    release();
    throw;
  }
  label(GL_TEXTURE, m_id, m_name);
  fill(0.0f);
}

Texture::~Texture() { release(); }

void Texture::release() {
  if (m_id) glDeleteTextures(1, &m_id);
  m_id = 0;
}

Texture::Texture(Texture&& o) noexcept
    : m_id(std::exchange(o.m_id, 0)), m_width(o.m_width), m_height(o.m_height),
      m_layers(o.m_layers), m_format(o.m_format), m_name(std::move(o.m_name)) {}

Texture& Texture::operator=(Texture&& o) noexcept {
  if (this != &o) {
    release();
    m_id = std::exchange(o.m_id, 0);
    m_width = o.m_width;
    m_height = o.m_height;
    m_layers = o.m_layers;
    m_format = o.m_format;
    m_name = std::move(o.m_name);
  }
  return *this;
}

unsigned int Texture::target() const { return m_layers > 0 ? GL_TEXTURE_2D_ARRAY : GL_TEXTURE_2D; }

void Texture::setName(std::string name) {
  m_name = std::move(name);
  label(GL_TEXTURE, m_id, m_name);
}

void Texture::upload(const float* data, int layer) { uploadRect(0, 0, m_width, m_height, data, layer); }

void Texture::uploadRect(int x, int y, int w, int h, const float* data, int layer) {
  if (!m_id) throw Error("Texture::upload(\"" + m_name + "\"): empty texture");
  if (m_format == TextureFormat::RGBA8) throw Error("Texture::upload(\"" + m_name + "\"): float upload into RGBA8");
  if (x < 0 || y < 0 || w <= 0 || h <= 0 || x + w > m_width || y + h > m_height ||
      layer < 0 || (m_layers == 0 ? layer != 0 : layer >= m_layers)) {
    throw Error("Texture::upload(\"" + m_name + "\"): rectangle or layer outside the texture");
  }
  StateGuard guard;
  const FormatInfo fi = info(m_format);
  StateGuard::bindTexture(0, target(), m_id);
  if (m_layers > 0) {
    glTexSubImage3D(GL_TEXTURE_2D_ARRAY, 0, x, y, layer, w, h, 1, fi.format, fi.type, data);
  } else {
    glTexSubImage2D(GL_TEXTURE_2D, 0, x, y, w, h, fi.format, fi.type, data);
  }
}

void Texture::download(float* out, int layer) const {
  if (!m_id) throw Error("Texture::download(\"" + m_name + "\"): empty texture");
  if (m_format == TextureFormat::RGBA8) throw Error("Texture::download(\"" + m_name + "\"): float download of RGBA8");
  StateGuard guard;
  GLuint fbo = 0;
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
  if (m_layers > 0) {
    glFramebufferTextureLayer(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, m_id, 0, layer);
  } else {
    glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, m_id, 0);
  }
  glReadBuffer(GL_COLOR_ATTACHMENT0);
  const FormatInfo fi = info(m_format);
  // Float read-back of float attachments is core in desktop GL; format/type match storage.
  glReadPixels(0, 0, m_width, m_height, fi.format, fi.type, out);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
}

void downloadTextures(std::span<const Texture* const> textures, std::span<float* const> outs) {
  if (textures.size() != outs.size())
    throw Error("downloadTextures: " + std::to_string(textures.size()) + " textures but " +
                std::to_string(outs.size()) + " destinations");
  std::vector<std::size_t> offsets;
  std::size_t bytes = 0;
  for (const Texture* t : textures) {
    if (!t || !t->id()) throw Error("downloadTextures: empty texture");
    if (t->format() == TextureFormat::RGBA8) throw Error("downloadTextures(\"" + t->name() + "\"): float download of RGBA8");
    offsets.push_back(bytes);
    bytes += std::size_t(t->width()) * std::size_t(t->height()) * std::size_t(channelCount(t->format())) * sizeof(float);
  }
  if (bytes == 0) return;
  StateGuard guard;
  GLuint buffer = 0, fbo = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, buffer);
  glBufferData(GL_PIXEL_PACK_BUFFER, GLsizeiptr(bytes), nullptr, GL_STREAM_READ);
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
  glReadBuffer(GL_COLOR_ATTACHMENT0);
  for (std::size_t i = 0; i < textures.size(); ++i) {
    const Texture& t = *textures[i];
    if (t.isArray()) glFramebufferTextureLayer(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, t.id(), 0, 0);
    else glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t.id(), 0);
    const FormatInfo fi = info(t.format());
    // With a pack buffer bound glReadPixels only enqueues the copy, at this byte offset.
    glReadPixels(0, 0, t.width(), t.height(), fi.format, fi.type, reinterpret_cast<void*>(offsets[i]));
  }
  const void* mapped = glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0, GLsizeiptr(bytes), GL_MAP_READ_BIT);  // the one wait
  if (!mapped) {
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    glDeleteBuffers(1, &buffer);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fbo);
    throw Error("downloadTextures: mapping the " + std::to_string(bytes) + "-byte read-back buffer failed");
  }
  for (std::size_t i = 0; i < textures.size(); ++i) {
    const std::size_t end = i + 1 < textures.size() ? offsets[i + 1] : bytes;
    std::memcpy(outs[i], static_cast<const char*>(mapped) + offsets[i], end - offsets[i]);
  }
  glUnmapBuffer(GL_PIXEL_PACK_BUFFER);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  glDeleteBuffers(1, &buffer);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
}

void Texture::fill(float value) {
  if (!m_id) return;
  StateGuard guard;
  GLuint fbo = 0;
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo);
  const float v[4] = {value, value, value, value};
  const int layers = m_layers > 0 ? m_layers : 1;
  for (int l = 0; l < layers; ++l) {
    if (m_layers > 0) {
      glFramebufferTextureLayer(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, m_id, 0, l);
    } else {
      glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, m_id, 0);
    }
    const GLenum buf = GL_COLOR_ATTACHMENT0;
    glDrawBuffers(1, &buf);
    glClearBufferfv(GL_COLOR, 0, v);
  }
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
}

}  // namespace texstream::gl
