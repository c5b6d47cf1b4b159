#pragma once
// texstream::app::Window: a GLFW window with an OpenGL core context (4.5, else 4.3, else
// 3.3), GL entry points loaded through glad, and Dear ImGui (Debian libimgui's GLFW and
// OpenGL3 backends) drawn into it. Windows live here, never in the library.
#include <string>

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

class Window {
 public:
  /// Opens the window and makes its context current; throws std::runtime_error with GLFW's
  /// reason when no display or no 3.3 core context is available.
  Window(const std::string& title, int width, int height);
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
  /// "OpenGL 4.5 core context through GLFW 3.3.8 X11 GLX ..."
  const std::string& description() const { return m_description; }

 private:
  static void scrollCallback(GLFWwindow* w, double dx, double dy);
  GLFWwindow* m_window = nullptr;
  std::string m_description;
  MouseInput m_mouse;
  double m_lastX = 0, m_lastY = 0;
  bool m_lastLeft = false, m_havePosition = false;
  double m_scrollAccum = 0;
  bool m_imguiReady = false;
};

}  // namespace texstream::app
