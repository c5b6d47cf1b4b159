#pragma once
// texstream::stream::Runtime: the state texstream keeps for one GL context: capabilities,
// the default backend, the framebuffer and vertex array of its passes, the profiler; and,
// shared by the contexts of a share group, the compiled kernels, the texture pool and a few
// GL objects.
//
// It is found from the context current on the calling thread (gl/Context.h) and created on
// first use there (a HeadlessContext, or the host's GLFW/Qt/SDL/EGL context). Call
// texstream::shutdown() before destroying that context (HeadlessContext does it for you).
#include <texstream/gl/Capabilities.h>
#include <texstream/stream/Backend.h>

#include <memory>
#include <optional>
#include <string>

namespace texstream::gl {
class ContextRecord;
}

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
struct SharedObjects;

class Runtime {
 public:
  /// The current context's runtime, created on first call. Throws gl::Error if no context
  /// is current, the context is older than GL 3.3 / ES 3.0, or it has no RGBA32F render
  /// targets. The default backend is autoBackend(caps()) unless TEXSTREAM_BACKEND says
  /// auto, fragment or compute.
  static Runtime& current();
  /// Frees the current context's runtime and its GL objects, and forgets the context
  /// (gl::releaseCurrentContext; the context must still be current).
  static void shutdown();
  /// True when the current context has a runtime (false without a current context).
  static bool exists() noexcept;
  /// Gives a pooled texture back to the pool of its share group when a context of that
  /// group is current, else lets it go (its deletion waits for that group: gl::ObjectOwner).
  static void recycle(gl::Texture&& texture) noexcept;

  const gl::Capabilities& caps() const { return m_caps; }

  /// The backend in effect now: a BackendScope's, else the default.
  Backend backend() const;
  Backend defaultBackend() const { return m_defaultBackend; }
  /// Throws gl::Error("compute backend needs OpenGL 4.3 ...") when unsupported.
  void setDefaultBackend(Backend b);
  /// Throws the same error when `b` cannot run here.
  void requireBackend(Backend b) const;

  /// Shared by the contexts of a share group, like the programs they hold.
  KernelCache& kernels();
  TexturePool& pool();
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
  const gl::Texture& unitScalar() const;

  /// Edge of the square block each mip-style reduction pass sums into one texel (Bolz
  /// §3.1.3 uses 2; larger blocks write fewer bytes, which is what the fragment path is
  /// bound by). The compute backend reduces in one dispatch instead (reductionGroups).
  int reductionBlock(Backend b) const { return b == Backend::Fragment ? m_blockFragment : m_blockCompute; }
  void setReductionBlock(Backend b, int k);

  ~Runtime();

 private:
  friend class BackendScope;
  explicit Runtime(gl::ContextRecord& record);
  gl::Capabilities m_caps;
  Backend m_defaultBackend = Backend::Fragment;  // autoBackend(m_caps) once constructed
  std::optional<Backend> m_override;
  std::shared_ptr<SharedObjects> m_shared;  // the share group's
  std::unique_ptr<Profiler> m_profiler;
  std::unique_ptr<gl::Framebuffer> m_framebuffer;
  std::unique_ptr<gl::VertexArray> m_vao;
  int m_blockFragment = 4, m_blockCompute = 8;
  int m_reductionGroups = 512;  // enough loads in flight on large GPUs (docs/performance.md)
};

}  // namespace texstream::stream
