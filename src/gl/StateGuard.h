#pragma once
// texstream::gl::StateGuard: every texstream call leaves the host's GL state as it found it.
//
// The outermost guard on a thread saves the state texstream may change (framebuffers,
// viewport, program, VAO, buffers bound for pixel transfers, blend, scissor, depth, stencil,
// cull, colour mask, polygon mode, pixel store alignment) and sets the neutral state the
// library's passes assume. Texture and image units are saved lazily, the first time the
// library binds one (a kernel uses a handful, a host may use dozens). Nested guards cost
// nothing, so a solver holds one guard for a whole solve and each operation inside it adds
// no glGet calls.
#include <array>
#include <vector>

namespace texstream::gl {

class StateGuard {
 public:
  StateGuard();
  ~StateGuard();
  StateGuard(const StateGuard&) = delete;
  StateGuard& operator=(const StateGuard&) = delete;

  /// Binds texture `id` (target GL_TEXTURE_2D or GL_TEXTURE_2D_ARRAY) on `unit`, saving
  /// the host's binding of that unit first. Requires an active guard.
  static void bindTexture(int unit, unsigned int target, unsigned int id);
  /// Binds an image unit for the compute backend, saving the host's binding first.
  static void bindImage(int unit, unsigned int texture, unsigned int access, unsigned int format);
  /// glBindBufferBase(GL_SHADER_STORAGE_BUFFER, index, buffer), saving the host's indexed
  /// and generic shader-storage bindings first (compute backend).
  static void bindStorageBuffer(int index, unsigned int buffer);
  /// True while some guard is alive on this thread.
  static bool active();

 private:
  struct Saved;
  static Saved& saved();
};

}  // namespace texstream::gl
