#pragma once
// texstream::gl::StateGuard: every texstream call leaves the host's GL state as it found it.
//
// The outermost guard on a thread checks that a context is current (Error "no current
// OpenGL context" otherwise, every time), saves the state texstream may change (framebuffers,
// viewport, program, VAO, array buffer, blend, scissor, depth, stencil, cull, colour mask,
// and where the context has them polygon mode, sRGB writes and program point size) and sets
// the neutral state the library's passes assume. Texture and image units, shader-storage
// bindings and the whole pixel-store state (pack/unpack buffers, alignment, row length,
// image height, skips, byte swapping) are saved lazily, the first time the library needs
// them (a kernel uses a handful of units, a host may use dozens; most calls transfer no
// pixels). Only state that exists in the context is read or written. Nested guards cost
// nothing, so a solver holds one guard for a whole solve and each operation inside it adds
// no glGet calls. GL error flags are never read or cleared here: the host's stay pending.
//
// The outermost guard is texstream's call boundary: it finds the record of the current
// context (ContextRecord.h), checks that it is still that context's, holds the share
// group's lock until it ends (calls in contexts that share objects never overlap), deletes
// names released while the context was not current, and hands over to the group's other
// contexts with a fence. The state it saves is the context's own, so a host that makes
// another context current between texstream calls finds each context as it left it.
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
  /// Saves the host's pixel-store state and pixel pack/unpack buffer bindings (once per
  /// outermost guard) and sets tight packing, no skips and no bound buffers, so uploads
  /// and read-backs see exactly the caller's arrays. Call before any pixel transfer.
  static void preparePixelTransfer();
  /// True while some guard is alive on this thread.
  static bool active();

  /// The host state an outermost guard saved (one per context; StateGuard.cpp).
  struct Saved;

 private:
  static Saved& saved(const char* caller);
};

}  // namespace texstream::gl
