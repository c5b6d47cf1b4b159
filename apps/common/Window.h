#pragma once
// texstream::app::Window: a GLFW window with the OpenGL context asked for (a desktop core
// version or OpenGL ES, gl::GlRequest; by default the highest core: 4.6 down to 3.3), GL
// entry points loaded through texstream's glad, and Dear ImGui (Debian libimgui's GLFW and
// OpenGL3 backends) drawn into it. Windows live here, never in the library.
#include <texstream/gl/GlRequest.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

struct GLFWwindow;

namespace texstream::app {

/// Mouse state of one frame, in framebuffer pixels (origin top left).
struct MouseInput {
  float x = 0, y = 0;        ///< cursor position
  float dx = 0, dy = 0;      ///< motion since the last frame
  float scroll = 0;          ///< wheel steps since the last frame (+ = away from the user)
  bool leftDown = false, rightDown = false, middleDown = false;
  bool leftPressed = false;  ///< went down this frame
  int width = 0, height = 0; ///< framebuffer size
};

/// The window opened but GLFW could not give the context asked for.
class WindowContextError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Window {
 public:
  /// Opens the window and makes its context current; throws std::runtime_error with GLFW's
  /// reason when there is no display, WindowContextError when the context asked for (by
  /// default any desktop core from 4.6 to 3.3) cannot be had.
  Window(const std::string& title, int width, int height, std::optional<gl::GlRequest> request = std::nullopt);
  /// Shuts Dear ImGui and texstream's per-context runtime down (while the context is still
  /// current), then destroys the window.
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  GLFWwindow* handle() const { return m_window; }
  bool shouldClose() const;
  void requestClose();
  /// Polls events and starts a Dear ImGui frame.
  void beginFrame();
  /// Draws the Dear ImGui frame into the default framebuffer (call before capturing it).
  void renderGui();
  void swapBuffers();

  int framebufferWidth() const;
  int framebufferHeight() const;
  /// This frame's mouse (see guiWantsMouse() before acting on it).
  MouseInput mouse() const { return m_mouse; }
  bool guiWantsMouse() const;
  /// Paths of the files dropped onto the window since the last call (GLFW's drop callback,
  /// native builds; the browser page has its own file drop).
  std::vector<std::string> takeDroppedPaths();
  /// Feeds `paths` through the window's drop callback, as if the files had been dropped
  /// (--drop, and the tests).
  void simulateDrop(const std::vector<std::string>& paths);
#ifdef __EMSCRIPTEN__
  /// Sizes the drawing buffer to the page's canvas element (#canvas) when its CSS size
  /// changed; called once per frame by the browser main loop.
  void fitToPage();
#endif
  /// "asked for OpenGL 4.1 core, got OpenGL 4.1 (Core Profile) Mesa ... through GLFW 3.3.8 X11 GLX ..."
  const std::string& description() const { return m_description; }

 private:
  static void scrollCallback(GLFWwindow* w, double dx, double dy);
  static void dropCallback(GLFWwindow* w, int count, const char** paths);
  GLFWwindow* m_window = nullptr;
  std::string m_description;
  MouseInput m_mouse;
  double m_lastX = 0, m_lastY = 0;
  bool m_lastLeft = false, m_havePosition = false;
  double m_scrollAccum = 0;
  bool m_imguiReady = false;
  std::vector<std::string> m_dropped;
};

}  // namespace texstream::app
