#pragma once
// texstream::gl::HeadlessContext: an OpenGL context with no window and no display, through
// EGL. Tried in order: EGL's device platform (the first NVIDIA/AMD/Intel GPU, else Mesa's
// software device; TEXSTREAM_EGL_DEVICE=N picks device N), then Mesa's surfaceless
// platform, then the default display. The context is current on the constructing thread.
#include <string>

namespace texstream::gl {

struct HeadlessOptions {
  int device = -1;         ///< EGL device index; -1: TEXSTREAM_EGL_DEVICE or automatic
  int major = 4, minor = 5;  ///< requested version; falls back to 4.3 and 3.3 core
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
  /// "device 0 of 2 (EGL_NV_device_cuda), OpenGL 4.5 core": how the context was found.
  const std::string& description() const { return m_description; }

  /// Called just before any HeadlessContext is destroyed, while it is still current, so
  /// that per-context caches (texstream::stream::Runtime) can free their GL objects.
  static void setTeardownHook(void (*hook)());

 private:
  void* m_display = nullptr;
  void* m_context = nullptr;
  void* m_surface = nullptr;
  std::string m_description;
};

}  // namespace texstream::gl
