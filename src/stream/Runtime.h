#pragma once
// texstream::stream::Runtime: the per-thread state texstream keeps for the GL context
// current on that thread: capabilities, the default backend, compiled kernels, the
// texture pool, the profiler and a few shared GL objects.
//
// It is created on first use from whatever context is current (a HeadlessContext, or the
// host's GLFW/Qt/SDL context). Call texstream::stream::Runtime::shutdown() before
// destroying that context (HeadlessContext does it for you).
#include <texstream/gl/Capabilities.h>
#include <texstream/stream/Backend.h>

#include <memory>
#include <optional>
#include <string>

namespace texstream::gl {
class Texture;
class Framebuffer;
class VertexArray;
class Buffer;
}  // namespace texstream::gl

namespace texstream::stream {

class KernelCache;
class TexturePool;
class Profiler;

class Runtime {
 public:
  /// This thread's runtime, created on first call. Throws gl::Error if no context is
  /// current, the context is older than GL 3.3 / ES 3.0, or it has no RGBA32F render
  /// targets. The default backend is autoBackend(caps()) unless TEXSTREAM_BACKEND says
  /// auto, fragment or compute.
  static Runtime& current();
  /// Frees this thread's runtime and its GL objects (the context must still be current).
  static void shutdown();
  /// True when this thread has a runtime.
  static bool exists();

  const gl::Capabilities& caps() const { return m_caps; }

  /// The backend in effect now: a BackendScope's, else the default.
  Backend backend() const;
  Backend defaultBackend() const { return m_defaultBackend; }
  /// Throws gl::Error("compute backend needs OpenGL 4.3 ...") when unsupported.
  void setDefaultBackend(Backend b);
  /// Throws the same error when `b` cannot run here.
  void requireBackend(Backend b) const;

  KernelCache& kernels() { return *m_kernels; }
  TexturePool& pool() { return *m_pool; }
  Profiler& profiler() { return *m_profiler; }
  gl::Framebuffer& framebuffer() { return *m_framebuffer; }
  gl::VertexArray& emptyVertexArray() { return *m_vao; }
  /// Storage for the compute backend's one-dispatch reductions (Reduction.h): a counter
  /// and one partial sum per workgroup; created on first use, always left with counter 0.
  unsigned int reductionScratch();
  static constexpr int kReductionMaxGroups = 1024;
  /// Workgroups a one-dispatch reduction launches at most (each invocation then loops over
  /// several texels); fewer groups mean fewer atomics on the shared counter and a shorter
  /// final fold, more mean more loads in flight. 1..kReductionMaxGroups.
  int reductionGroups() const { return m_reductionGroups; }
  void setReductionGroups(int groups);
  /// A 1x1 texture holding (1, 1, 1, 1): the stand-in scalar of constant coefficients.
  const gl::Texture& unitScalar() const { return *m_unitScalar; }

  /// Edge of the square block each mip-style reduction pass sums into one texel (Bolz
  /// §3.1.3 uses 2; larger blocks write fewer bytes, which is what the fragment path is
  /// bound by). The compute backend reduces in one dispatch instead (reductionGroups).
  int reductionBlock(Backend b) const { return b == Backend::Fragment ? m_blockFragment : m_blockCompute; }
  void setReductionBlock(Backend b, int k);

  ~Runtime();

 private:
  friend class BackendScope;
  Runtime();
  gl::Capabilities m_caps;
  Backend m_defaultBackend = Backend::Fragment;  // autoBackend(m_caps) once constructed
  std::optional<Backend> m_override;
  std::unique_ptr<KernelCache> m_kernels;
  std::unique_ptr<TexturePool> m_pool;
  std::unique_ptr<Profiler> m_profiler;
  std::unique_ptr<gl::Framebuffer> m_framebuffer;
  std::unique_ptr<gl::VertexArray> m_vao;
  std::unique_ptr<gl::Texture> m_unitScalar;
  std::unique_ptr<gl::Buffer> m_reductionScratch;
  int m_blockFragment = 4, m_blockCompute = 8;
  int m_reductionGroups = 512;  // enough loads in flight on large GPUs (docs/performance.md)
};

}  // namespace texstream::stream
