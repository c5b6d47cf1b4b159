#pragma once
// texstream::gl::HeadlessContext: an OpenGL context with no window and no display, through
// EGL. Tried in order: EGL's device platform (the first NVIDIA/AMD/Intel GPU, else Mesa's
// software device; TEXSTREAM_EGL_DEVICE=N picks device N), then Mesa's surfaceless
// platform, then the default display. The context is current on the constructing thread.
// It is a desktop core context or an OpenGL ES one, as GlRequest says. Its destructor frees
// what texstream holds for it (texstream::shutdown()) before destroying it.
#include <texstream/gl/GlRequest.h>

#include <optional>
#include <string>

namespace texstream::gl {

struct HeadlessOptions {
  int device = -1;         ///< EGL device index; -1: TEXSTREAM_EGL_DEVICE or automatic
  /// The context to ask for; nullopt: TEXSTREAM_GL if set, else the highest desktop core.
  std::optional<GlRequest> gl;
  bool debug = false;      ///< debug context (also when TEXSTREAM_GL_DEBUG is set)
  /// A context to share objects with (textures, buffers, programs): the new context joins
  /// its share group. It must be of the same API; the device is the one it is on.
  const class HeadlessContext* shareWith = nullptr;
};

class HeadlessContext {
 public:
  explicit HeadlessContext(const HeadlessOptions& options = {});
  ~HeadlessContext();
  HeadlessContext(const HeadlessContext&) = delete;
  HeadlessContext& operator=(const HeadlessContext&) = delete;

  /// Makes the context current on the calling thread.
  void makeCurrent();
  /// "EGL device 0 of 2 (software), asked for OpenGL 4.1 core, got OpenGL 4.5 (Core
  /// Profile) Mesa 22.3.6": how the context was found, what was asked and what was given.
  const std::string& description() const { return m_description; }
  /// What was asked for.
  const GlRequest& request() const { return m_request; }

  /// The EGLContext (for messages and texstream::forgetContext).
  void* handle() const { return m_context; }

 private:
  void* m_display = nullptr;
  void* m_context = nullptr;
  void* m_surface = nullptr;
  std::string m_description;
  std::string m_deviceDescription;  // "EGL device 0 of 1 (software)"
  GlRequest m_request;
};

}  // namespace texstream::gl
