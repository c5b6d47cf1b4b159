#pragma once
// texstream::stream::Scalar: one float on the GPU, in a 1x1 RGBA32F texture (Krüger &
// Westermann keep CG's alpha, beta, rho this way), read by later kernels with texelFetch.
// The value is in .x; kernels may keep bookkeeping in .yzw (the CG status does).
// Reading back to the CPU is explicit: read() blocks; ScalarReadback does not.
#include <texstream/gl/Texture.h>

#include <array>
#include <string>

namespace texstream::stream {

class Scalar {
 public:
  Scalar() = default;
  explicit Scalar(std::string name, float value = 0.0f);
  /// A scalar whose texture comes from (and returns to) the runtime's texture pool, for
  /// the scalars of one solve: creating and deleting a texture is a slow driver call, and
  /// a solve needs a dozen scalars (docs/performance.md). The value
  /// is NOT set: write it, or let a pass write it, before anything reads it.
  static Scalar temporary(std::string name);
  ~Scalar();
  Scalar(Scalar&& other) noexcept;
  Scalar& operator=(Scalar&& other) noexcept;
  Scalar(const Scalar&) = delete;
  Scalar& operator=(const Scalar&) = delete;

  const gl::Texture& texture() const { return m_texture; }
  gl::Texture& mutableTexture() { return m_texture; }
  const std::string& name() const { return m_texture.name(); }

  /// Blocking read of .x (waits for the GPU to finish everything before it).
  float read() const;
  /// Blocking read of all four channels.
  std::array<float, 4> read4() const;
  void write(float value);
  void write4(const std::array<float, 4>& values);

 private:
  gl::Texture m_texture;
  bool m_pooled = false;
};

/// Non-blocking read-back of a Scalar through a buffer and a fence (the texel reaches the
/// buffer by glReadPixels, or on the compute backend by a one-invocation dispatch):
///   readback.start(rho);  ... enqueue more work ...  if (readback.ready()) use(readback.value());
/// On the compute backend with Capabilities::persistentMapping the dispatch writes into a
/// persistently mapped buffer and value() reads it once the fence has passed: mapping a
/// buffer, or glGetBufferSubData, may wait for the GPU to finish all the work enqueued
/// since (NVIDIA's driver does), and the GPU then idles until the CPU enqueues more.
class ScalarReadback {
 public:
  ScalarReadback();
  ~ScalarReadback();
  ScalarReadback(const ScalarReadback&) = delete;
  ScalarReadback& operator=(const ScalarReadback&) = delete;

  /// Copies the scalar's texel into the PBO and inserts a fence; replaces any pending copy.
  void start(const Scalar& s);
  bool pending() const { return m_fence != nullptr; }
  /// True once the copy has landed (never blocks).
  bool ready();
  /// The four channels; blocks if the copy has not landed yet. Ends the pending copy.
  std::array<float, 4> value();

 private:
  gl::ObjectOwner m_owner;  // the share group of the buffers and the fence
  unsigned int m_buffer = 0;
  void* m_fence = nullptr;
  /// The compute path's persistently mapped buffer (created on its first start) and its
  /// mapping; m_fromMapped: the pending copy lands there.
  unsigned int m_mappedBuffer = 0;
  const void* m_mapped = nullptr;
  bool m_fromMapped = false;
};

}  // namespace texstream::stream
