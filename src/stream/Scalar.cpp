#include <texstream/stream/Scalar.h>

#include <texstream/gl/Buffer.h>
#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Runtime.h>
#include <texstream/stream/TexturePool.h>

#include <glad/gl.h>

#include <cstring>
#include <utility>

namespace texstream::stream {

Scalar::Scalar(std::string name, float value) : m_texture(1, 1, gl::TextureFormat::RGBA32F, std::move(name)) {
  if (value != 0.0f) write(value);
}

Scalar Scalar::temporary(std::string name) {
  Scalar s;
  s.m_texture = Runtime::current().pool().acquire(1, 1, gl::TextureFormat::RGBA32F, std::move(name));
  s.m_pooled = true;
  return s;
}

Scalar::~Scalar() {
  if (m_pooled) Runtime::recycle(std::move(m_texture));
}

Scalar::Scalar(Scalar&& o) noexcept : m_texture(std::move(o.m_texture)), m_pooled(std::exchange(o.m_pooled, false)) {}

Scalar& Scalar::operator=(Scalar&& o) noexcept {
  if (this != &o) {
    if (m_pooled) Runtime::recycle(std::move(m_texture));
    m_texture = std::move(o.m_texture);
    m_pooled = std::exchange(o.m_pooled, false);
  }
  return *this;
}

float Scalar::read() const { return read4()[0]; }

std::array<float, 4> Scalar::read4() const {
  std::array<float, 4> v{};
  m_texture.download(v.data());
  return v;
}

void Scalar::write(float value) { write4({value, 0.0f, 0.0f, 0.0f}); }

void Scalar::write4(const std::array<float, 4>& values) { m_texture.upload(values.data()); }

ScalarReadback::ScalarReadback() {
  Runtime::current();  // a context must be current
  gl::StateGuard guard;
  m_owner = gl::ObjectOwner::currentGroup();
  gl::StateGuard::preparePixelTransfer();
  glGenBuffers(1, &m_buffer);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, m_buffer);
  glBufferData(GL_PIXEL_PACK_BUFFER, 4 * sizeof(float), nullptr, GL_STREAM_READ);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
}

ScalarReadback::~ScalarReadback() {
  m_owner.release(gl::ObjectKind::Sync, reinterpret_cast<std::uintptr_t>(m_fence));
  m_owner.release(gl::ObjectKind::Buffer, m_buffer);
  m_owner.release(gl::ObjectKind::Buffer, m_mappedBuffer);  // unmaps it
}

void ScalarReadback::start(const Scalar& s) {
  Runtime& rt = Runtime::current();
  if (!m_owner.isCurrent()) m_owner.requireCurrent("ScalarReadback::start(\"" + s.texture().name() + "\")");
  if (rt.backend() == Backend::Compute) {
    // A dispatch copies the texel into the buffer (stream/scalar_to_buffer.glsl says why).
    gl::StateGuard guard;
    if (m_fence) glDeleteSync(static_cast<GLsync>(m_fence));
    m_fence = nullptr;
    m_fromMapped = rt.caps().persistentMapping;
    if (m_fromMapped && !m_mappedBuffer) {
      const GLbitfield flags = GL_MAP_READ_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
      gl::StateGuard::preparePixelTransfer();  // the guard restores the pack buffer binding
      glGenBuffers(1, &m_mappedBuffer);
      glBindBuffer(GL_PIXEL_PACK_BUFFER, m_mappedBuffer);
      glBufferStorage(GL_PIXEL_PACK_BUFFER, 4 * sizeof(float), nullptr, flags);
      m_mapped = glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0, 4 * sizeof(float), flags);
      glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
      if (!m_mapped) throw gl::Error("ScalarReadback::start: mapping the persistent read-back buffer failed");
    }
    Pass("stream/scalar_to_buffer").label("stream::ScalarReadback").input("u_scalar", s)
        .storage(0, m_fromMapped ? m_mappedBuffer : m_buffer).workgroups(1).run();
    // The shader's write reaches the mapping at the barrier; the CPU reads it after the fence.
    if (m_fromMapped) glMemoryBarrier(GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT);
    m_fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    glFlush();  // as below
    return;
  }
  m_fromMapped = false;
  if (!rt.caps().floatRenderTargets)
    throw gl::Error("ScalarReadback(\"" + s.texture().name() + "\"): reading an RGBA32F scalar back needs RGBA32F render targets: " +
                    rt.caps().floatTargetsMissing());
  gl::StateGuard guard;
  gl::StateGuard::preparePixelTransfer();
  if (m_fence) glDeleteSync(static_cast<GLsync>(m_fence));
  GLuint fbo = 0;
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, s.texture().id(), 0);
  glReadBuffer(GL_COLOR_ATTACHMENT0);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, m_buffer);
  // Fresh storage for each copy: a browser keeps a shadow of a read-back buffer once its
  // fence passes, and writing into the same storage again discards that shadow with a
  // performance warning every time (Chromium: "READ-usage buffer was written, then
  // fenced, but written again before being read back").
  glBufferData(GL_PIXEL_PACK_BUFFER, 4 * sizeof(float), nullptr, GL_STREAM_READ);
  // With a pack buffer bound, glReadPixels only enqueues the copy (offset 0 in the PBO).
  glReadPixels(0, 0, 1, 1, GL_RGBA, GL_FLOAT, nullptr);
  m_fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  // Back to the neutral state a (possibly enclosing) guard set: a pack buffer left bound
  // would turn the next Texture::download inside that guard into a copy into this PBO.
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
  // Without a flush the fence may never reach the GPU and ready() would stay false.
  glFlush();
}

bool ScalarReadback::ready() {
  if (!m_fence) return false;
  const GLenum r = glClientWaitSync(static_cast<GLsync>(m_fence), 0, 0);
  return r == GL_ALREADY_SIGNALED || r == GL_CONDITION_SATISFIED;
}

std::array<float, 4> ScalarReadback::value() {
  std::array<float, 4> v{};
  if (!m_fence) return v;
#ifndef __EMSCRIPTEN__
  // WebGL2 allows no blocking wait (its MAX_CLIENT_WAIT_TIMEOUT_WEBGL is 0 in browsers);
  // there getBufferSubData below waits for the copy itself.
  glClientWaitSync(static_cast<GLsync>(m_fence), GL_SYNC_FLUSH_COMMANDS_BIT, GLuint64(10'000'000'000ULL));
#endif
  glDeleteSync(static_cast<GLsync>(m_fence));
  m_fence = nullptr;
  if (m_fromMapped) {
    std::memcpy(v.data(), m_mapped, sizeof v);
    return v;
  }
  gl::StateGuard guard;
  gl::StateGuard::preparePixelTransfer();
  glBindBuffer(GL_PIXEL_PACK_BUFFER, m_buffer);
  const bool read = gl::readBufferData(GL_PIXEL_PACK_BUFFER, sizeof v, v.data());
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  if (!read) throw gl::Error("ScalarReadback::value: mapping the read-back buffer failed");
  return v;
}

}  // namespace texstream::stream
