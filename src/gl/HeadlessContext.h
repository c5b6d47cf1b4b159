#pragma once
// texstream::gl::HeadlessContext: an OpenGL context with no window and no display, through
// EGL. Tried in order: EGL's device platform (the first NVIDIA/AMD/Intel GPU, else Mesa's
// software device; TEXSTREAM_EGL_DEVICE=N picks device N), then Mesa's surfaceless
// platform, then the default display. The context is current on the constructing thread.
// It is a desktop core context or an OpenGL ES one, as GlRequest says.
#include <optional>
#include <string>
#include <string_view>

namespace texstream::gl {

/// What context to ask for: desktop core at a version, or OpenGL ES at a version; version
/// 0.0 means the highest the driver offers (desktop: 4.6 down to 3.3; ES: 3.2 down to 3.0).
struct GlRequest {
  bool es = false;
  int major = 0, minor = 0;

  /// "3.3", "4.1", "4.3", "4.5", "4.6", "max" (highest desktop core), "es3.0", "es3.1",
  /// "es3.2", "es" (highest ES); case-insensitive. Throws Error naming the value and the
  /// accepted ones.
  static GlRequest parse(std::string_view text);
  /// The accepted spellings, for help texts.
  static const char* accepted();
  /// "OpenGL 4.1 core", "OpenGL ES 3.0", "the highest OpenGL core".
  std::string name() const;
  bool highest() const { return major == 0; }
};

struct HeadlessOptions {
  int device = -1;         ///< EGL device index; -1: TEXSTREAM_EGL_DEVICE or automatic
  /// The context to ask for; nullopt: TEXSTREAM_GL if set, else the highest desktop core.
  std::optional<GlRequest> gl;
  bool debug = false;      ///< debug context (also when TEXSTREAM_GL_DEBUG is set)
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

  /// Called just before any HeadlessContext is destroyed, while it is still current, so
  /// that per-context caches (texstream::stream::Runtime) can free their GL objects.
  static void setTeardownHook(void (*hook)());

 private:
  void* m_display = nullptr;
  void* m_context = nullptr;
  void* m_surface = nullptr;
  std::string m_description;
  GlRequest m_request;
};

}  // namespace texstream::gl
