#include <texstream/gl/Texture.h>

#include <texstream/gl/Buffer.h>
#include <texstream/gl/Capabilities.h>
#include <texstream/gl/Debug.h>
#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>

#include <glad/gl.h>

#include <cstring>
#include <utility>
#include <vector>

namespace texstream::gl {

namespace {
/// The one table of what each TextureFormat is to GL and GLSL.
struct FormatInfo {
  GLenum internal, format, type;
  int channels, bytes;
  const char* imageQualifier;
  const char* name;  ///< for messages
};
FormatInfo info(TextureFormat f) {
  switch (f) {
    case TextureFormat::RGBA32F: return {GL_RGBA32F, GL_RGBA, GL_FLOAT, 4, 16, "rgba32f", "RGBA32F"};
    case TextureFormat::RG32F: return {GL_RG32F, GL_RG, GL_FLOAT, 2, 8, "rg32f", "RG32F"};
    case TextureFormat::R32F: return {GL_R32F, GL_RED, GL_FLOAT, 1, 4, "r32f", "R32F"};
    case TextureFormat::RGBA8: return {GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, 4, 4, "rgba8", "RGBA8"};
    // Floats go in and out; the GL converts (ES 3.0 accepts GL_FLOAT data for RGBA16F).
    case TextureFormat::RGBA16F: return {GL_RGBA16F, GL_RGBA, GL_FLOAT, 4, 8, "rgba16f", "RGBA16F"};
  }
  return {GL_RGBA32F, GL_RGBA, GL_FLOAT, 4, 16, "rgba32f", "RGBA32F"};
}
}  // namespace

int bytesPerTexel(TextureFormat f) { return info(f).bytes; }
unsigned int internalFormat(TextureFormat f) { return info(f).internal; }
int channelCount(TextureFormat f) { return info(f).channels; }
const char* imageFormatQualifier(TextureFormat f) { return info(f).imageQualifier; }
bool isFloat32(TextureFormat f) {
  return f == TextureFormat::RGBA32F || f == TextureFormat::RG32F || f == TextureFormat::R32F;
}
const char* formatName(TextureFormat f) { return info(f).name; }

Texture::Texture(int width, int height, TextureFormat format, std::string name, int layers)
    : m_width(width), m_height(height), m_layers(layers), m_format(format), m_name(std::move(name)) {
  if (width <= 0 || height <= 0 || layers < 0) {
    throw Error("Texture(\"" + m_name + "\"): invalid size " + std::to_string(width) + "x" +
                std::to_string(height) + (layers ? "x" + std::to_string(layers) : ""));
  }
  StateGuard guard;
  const Capabilities& caps = capabilities();
  if (width > caps.maxTextureSize || height > caps.maxTextureSize || layers > caps.maxArrayLayers) {
    throw Error("Texture(\"" + m_name + "\"): " + std::to_string(width) + "x" + std::to_string(height) +
                (layers ? "x" + std::to_string(layers) : "") + " exceeds this context's limits (" +
                std::to_string(caps.maxTextureSize) + " texels a side, " + std::to_string(caps.maxArrayLayers) +
                " layers; " + caps.renderer + ")");
  }
  const FormatInfo fi = info(format);
  ObjectOwner owner = ObjectOwner::currentGroup();
  GLuint id = 0;
  glGenTextures(1, &id);
  m_id = ObjectName(std::move(owner), ObjectKind::Texture, id);
  const GLenum tgt = target();
  StateGuard::bindTexture(0, tgt, id);
  glTexParameteri(tgt, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(tgt, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(tgt, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(tgt, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  // Allocation is checked by asking the texture, not glGetError, so that errors the host
  // left pending stay pending. A failed allocation (GL_OUT_OF_MEMORY) leaves the texture
  // mutable (immutable storage) or without a level 0 (glTexImage).
  bool allocated = false;
  if (caps.textureStorage) {
    if (m_layers > 0) {
      glTexStorage3D(tgt, 1, fi.internal, width, height, layers);
    } else {
      glTexStorage2D(tgt, 1, fi.internal, width, height);
    }
    GLint immutable = 0;
    glGetTexParameteriv(tgt, GL_TEXTURE_IMMUTABLE_FORMAT, &immutable);
    allocated = immutable != 0;
  } else {
    // Desktop GL before 4.2 (macOS, GL 3.3-class hardware): one mutable level.
    StateGuard::preparePixelTransfer();
    glTexParameteri(tgt, GL_TEXTURE_MAX_LEVEL, 0);
    if (m_layers > 0) {
      glTexImage3D(tgt, 0, GLint(fi.internal), width, height, layers, 0, fi.format, fi.type, nullptr);
    } else {
      glTexImage2D(tgt, 0, GLint(fi.internal), width, height, 0, fi.format, fi.type, nullptr);
    }
    // ES 3.0 cannot ask a level its size (it always has immutable storage, so only a
    // TEXSTREAM_DISABLE_FEATURES run gets here there).
    GLint allocatedWidth = width;
    if (glGetTexLevelParameteriv) glGetTexLevelParameteriv(tgt, 0, GL_TEXTURE_WIDTH, &allocatedWidth);
    allocated = allocatedWidth == width;
  }
  if (!allocated) {
    const std::size_t bytes = std::size_t(width) * std::size_t(height) * std::size_t(layers > 0 ? layers : 1) *
                              std::size_t(fi.bytes);
    m_id.reset();
    throw Error("Texture(\"" + m_name + "\"): the GPU could not allocate " + std::to_string(width) + "x" +
                std::to_string(height) + (layers ? "x" + std::to_string(layers) : "") + " texels (" +
                std::to_string(bytes >> 20) + " MiB; out of GPU memory?)");
  }
  label(GL_TEXTURE, id, m_name);
  fill(0.0f);
}

unsigned int Texture::target() const { return m_layers > 0 ? GL_TEXTURE_2D_ARRAY : GL_TEXTURE_2D; }

void Texture::setName(std::string name) {
  m_name = std::move(name);
  label(GL_TEXTURE, m_id.get(), m_name);
}

void Texture::upload(const float* data, int layer) { uploadRect(0, 0, m_width, m_height, data, layer); }

void Texture::uploadRect(int x, int y, int w, int h, const float* data, int layer) {
  if (!m_id.get()) throw Error("Texture::upload(\"" + m_name + "\"): empty texture");
  if (m_format == TextureFormat::RGBA8) throw Error("Texture::upload(\"" + m_name + "\"): float upload into RGBA8");
  if (x < 0 || y < 0 || w <= 0 || h <= 0 || x + w > m_width || y + h > m_height ||
      layer < 0 || (m_layers == 0 ? layer != 0 : layer >= m_layers)) {
    throw Error("Texture::upload(\"" + m_name + "\"): rectangle or layer outside the texture");
  }
  StateGuard guard;
  if (!owner().isCurrent()) owner().requireCurrent("Texture::upload(\"" + m_name + "\")");
  StateGuard::preparePixelTransfer();
  const FormatInfo fi = info(m_format);
  StateGuard::bindTexture(0, target(), m_id.get());
  if (m_layers > 0) {
    glTexSubImage3D(GL_TEXTURE_2D_ARRAY, 0, x, y, layer, w, h, 1, fi.format, fi.type, data);
  } else {
    glTexSubImage2D(GL_TEXTURE_2D, 0, x, y, w, h, fi.format, fi.type, data);
  }
}

namespace {
// Float read-back of a float colour attachment: desktop GL reads any format/type matching
// the storage; ES 3.0 (EXT_color_buffer_float) guarantees only GL_RGBA/GL_FLOAT, so one-
// and two-channel textures are read as RGBA there and compacted.
bool readsAsRgba(const FormatInfo& fi) { return capabilities().es && fi.channels != 4; }

void compactChannels(const float* rgba, float* out, std::size_t texels, int channels) {
  for (std::size_t t = 0; t < texels; ++t) {
    for (int c = 0; c < channels; ++c) out[t * std::size_t(channels) + std::size_t(c)] = rgba[t * 4 + std::size_t(c)];
  }
}

// Read-backs go through a framebuffer, which a 32-bit float texture cannot complete on a
// context without RGBA32F render targets.
void requireReadable(const char* what, const Texture& t) {
  if (isFloat32(t.format()) && !capabilities().floatRenderTargets)
    throw Error(std::string(what) + "(\"" + t.name() + "\"): reading a " + formatName(t.format()) +
                " texture back needs RGBA32F render targets: " + capabilities().floatTargetsMissing());
}

void attachForReading(const Texture& t, int layer) {
  if (t.isArray()) {
    glFramebufferTextureLayer(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, t.id(), 0, layer);
  } else {
    glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, t.id(), 0);
  }
}
}  // namespace

void Texture::download(float* out, int layer) const {
  if (!m_id.get()) throw Error("Texture::download(\"" + m_name + "\"): empty texture");
  if (m_format == TextureFormat::RGBA8) throw Error("Texture::download(\"" + m_name + "\"): float download of RGBA8");
  requireReadable("Texture::download", *this);
  if (layer < 0 || (m_layers == 0 ? layer != 0 : layer >= m_layers)) {
    throw Error("Texture::download(\"" + m_name + "\"): layer " + std::to_string(layer) + " outside the texture");
  }
  StateGuard guard;
  if (!owner().isCurrent()) owner().requireCurrent("Texture::download(\"" + m_name + "\")");
  StateGuard::preparePixelTransfer();
  GLuint fbo = 0;
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
  attachForReading(*this, layer);
  glReadBuffer(GL_COLOR_ATTACHMENT0);
  const FormatInfo fi = info(m_format);
  if (readsAsRgba(fi)) {
    std::vector<float> rgba(std::size_t(m_width) * std::size_t(m_height) * 4);
    glReadPixels(0, 0, m_width, m_height, GL_RGBA, GL_FLOAT, rgba.data());
    compactChannels(rgba.data(), out, std::size_t(m_width) * std::size_t(m_height), fi.channels);
  } else {
    glReadPixels(0, 0, m_width, m_height, fi.format, fi.type, out);
  }
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
    requireReadable("downloadTextures", *t);
    offsets.push_back(bytes);
    bytes += std::size_t(t->width()) * std::size_t(t->height()) * std::size_t(channelCount(t->format())) * sizeof(float);
  }
  if (bytes == 0) return;
  StateGuard guard;
  for (const Texture* t : textures) {
    if (!t->owner().isCurrent()) t->owner().requireCurrent("downloadTextures(\"" + t->name() + "\")");
  }
  StateGuard::preparePixelTransfer();
  // Bytes each texture occupies in the pack buffer (ES reads one- and two-channel
  // textures as RGBA).
  std::vector<std::size_t> packed;
  std::size_t packedBytes = 0;
  for (const Texture* t : textures) {
    packed.push_back(packedBytes);
    const FormatInfo fi = info(t->format());
    packedBytes += std::size_t(t->width()) * std::size_t(t->height()) * std::size_t(readsAsRgba(fi) ? 4 : fi.channels) *
                   sizeof(float);
  }
  GLuint buffer = 0, fbo = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, buffer);
  glBufferData(GL_PIXEL_PACK_BUFFER, GLsizeiptr(packedBytes), nullptr, GL_STREAM_READ);
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
  glReadBuffer(GL_COLOR_ATTACHMENT0);
  for (std::size_t i = 0; i < textures.size(); ++i) {
    const Texture& t = *textures[i];
    attachForReading(t, 0);
    const FormatInfo fi = info(t.format());
    // With a pack buffer bound glReadPixels only enqueues the copy, at this byte offset.
    if (readsAsRgba(fi)) {
      glReadPixels(0, 0, t.width(), t.height(), GL_RGBA, GL_FLOAT, reinterpret_cast<void*>(packed[i]));
    } else {
      glReadPixels(0, 0, t.width(), t.height(), fi.format, fi.type, reinterpret_cast<void*>(packed[i]));
    }
  }
  std::vector<unsigned char> staging(packedBytes);
  const bool read = readBufferData(GL_PIXEL_PACK_BUFFER, packedBytes, staging.data());  // the one wait
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  glDeleteBuffers(1, &buffer);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
  if (!read) throw Error("downloadTextures: reading the " + std::to_string(packedBytes) + "-byte read-back buffer failed");
  for (std::size_t i = 0; i < textures.size(); ++i) {
    const Texture& t = *textures[i];
    const FormatInfo fi = info(t.format());
    const float* src = reinterpret_cast<const float*>(staging.data() + packed[i]);
    if (readsAsRgba(fi)) {
      compactChannels(src, outs[i], std::size_t(t.width()) * std::size_t(t.height()), fi.channels);
    } else {
      std::memcpy(outs[i], src, (i + 1 < textures.size() ? offsets[i + 1] : bytes) - offsets[i]);
    }
  }
}

void Texture::fill(float value) {
  if (!m_id.get()) return;
  if (isFloat32(m_format) && !capabilities().floatRenderTargets) {
    // Such a texture cannot complete a framebuffer to be cleared: upload the value instead.
    const int layers = m_layers > 0 ? m_layers : 1;
    const std::vector<float> values(std::size_t(m_width) * std::size_t(m_height) * std::size_t(channelCount(m_format)), value);
    for (int l = 0; l < layers; ++l) upload(values.data(), l);
    return;
  }
  StateGuard guard;
  if (!owner().isCurrent()) owner().requireCurrent("Texture::fill(\"" + m_name + "\")");
  GLuint fbo = 0;
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo);
  const float v[4] = {value, value, value, value};
  const int layers = m_layers > 0 ? m_layers : 1;
  for (int l = 0; l < layers; ++l) {
    if (m_layers > 0) {
      glFramebufferTextureLayer(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, m_id.get(), 0, l);
    } else {
      glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, m_id.get(), 0);
    }
    const GLenum buf = GL_COLOR_ATTACHMENT0;
    glDrawBuffers(1, &buf);
    glClearBufferfv(GL_COLOR, 0, v);
  }
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
}

}  // namespace texstream::gl
