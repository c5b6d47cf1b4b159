#pragma once
// Which OpenGL context texstream works in, and what it keeps for each (docs/hosts.md).
//
// Everything texstream caches for GL (capabilities, framebuffers, vertex arrays, programs,
// pooled textures) belongs to one context, and is found from the context current on the
// calling thread: its handle is read from EGL, GLX, CGL, WGL or emscripten, whichever the
// process uses, once per texstream call. A context texstream has not seen before gets its
// own record on first use. Contexts that share objects (a share group: Qt's shared
// QOpenGLWidgets, GLFW's `share` window, an EGL share context) are found to share them, and
// then share texstream's programs, pooled textures and buffers; framebuffers, vertex arrays
// and timer queries, which GL never shares, stay per context.
//
// Where no handle can be read, the host says which context is current, with a key of its
// own (any pointer that names the context: the QOpenGLContext, the SDL_GLContext, the
// GLFWwindow):
//   { texstream::ContextScope scope(widgetContext); texstream::cg(A, b, x); }
// Where a handle can be read, a key is checked against it: a key given for a context that
// is not current is an error. Without a handle and without a key, the thread's context is
// one record, as if each thread had one context.
//
// A context destroyed without texstream::shutdown() poisons nothing: each texstream call
// checks (with a mark texstream leaves in every context it uses) that the context it knows
// by a handle is still the one current, and starts afresh where the host has made a new
// context with a recycled handle. Objects of a destroyed context are forgotten, never
// deleted elsewhere.
//
// Threads: see docs/hosts.md. In short: calls in contexts of different share groups run
// concurrently on different threads; calls in contexts of one share group are serialized
// by texstream; one texstream object (a Vector, a matrix) must not be used from two
// threads at once.
#include <cstddef>
#include <string>

namespace texstream::gl {

/// Says, for its lifetime, that the context current on this thread is the one the host
/// calls `key` (a non-null pointer of the host's that names the context). Throws Error when
/// no context is current, when `key` is null, when a scope with another key is already open
/// on this thread (nested scopes must name the same context), and when `key` is known for a
/// context other than the current one. Neither copyable nor movable: a scope belongs to the
/// thread and block that opened it.
class ContextScope {
 public:
  explicit ContextScope(const void* key);
  ~ContextScope();
  ContextScope(const ContextScope&) = delete;
  ContextScope& operator=(const ContextScope&) = delete;

 private:
  const void* m_previous = nullptr;
};

/// Tells texstream that the host has made the context it calls `key` current on this
/// thread, until the next makeCurrent on this thread; nullptr forgets it. For hosts with
/// their own make-current hook (no scope to open). The same checks as ContextScope; it is
/// refused while a ContextScope is open on this thread.
void makeCurrent(const void* key);

/// Frees what texstream holds for the context current on this thread (its framebuffers,
/// vertex arrays and timer queries; and, when no other context texstream knows shares its
/// objects, the programs, pooled textures and buffers of its share group) and forgets the
/// context. Call it with the context current before destroying it (texstream::shutdown()
/// does this; HeadlessContext does it itself). Without a current context, or for a context
/// texstream has not seen, it does nothing. Throws Error when called inside a texstream
/// call (from a solver's callback).
void releaseCurrentContext();

/// Forgets, without a GL call, every context texstream knows by the host key or the
/// window-system handle `key` (an EGLContext, GLXContext, SDL_GLContext...): for a host that
/// destroyed a context without texstream::shutdown() and cannot make it current any more.
/// Not needed for correctness (texstream finds out by itself when a handle comes back for
/// another context); it frees texstream's memory for it, and lets the key name a new context.
void forgetContext(const void* key);

/// "EGL context 0x55d3c4a1e2f0" (or "GLX context ...", "WebGL context 1", "the context the
/// host calls 0x...", "this thread's context"): the context current on this thread as
/// texstream names it in messages; "no current OpenGL context" without one.
std::string currentContextName();

/// What texstream holds now, for tests and diagnostics.
struct ContextCounts {
  std::size_t contexts = 0;     ///< contexts with a record
  std::size_t shareGroups = 0;  ///< share groups with at least one such context
  /// Records found stale (their context was destroyed without shutdown() and the handle
  /// or key came back for another context) since the process started.
  std::size_t staleRecords = 0;
};
ContextCounts contextCounts();

}  // namespace texstream::gl
