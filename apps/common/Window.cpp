#include "Window.h"

#include <texstream/gl/Capabilities.h>
#include <texstream/gl/Debug.h>

#include <texstream/stream/Runtime.h>

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#ifdef __EMSCRIPTEN__
#include "BrowserTouch.h"

#include <emscripten/html5.h>
#endif

#include <stdexcept>
#include <algorithm>
#include <utility>
#include <vector>

namespace texstream::app {

namespace {

std::string g_lastGlfwError;

void glfwErrorCallback(int code, const char* text) {
  g_lastGlfwError = std::string(text ? text : "unknown") + " (GLFW error " + std::to_string(code) + ")";
}

int g_windows = 0;

}  // namespace

Window::Window(const std::string& title, int width, int height, std::optional<gl::GlRequest> request) {
  glfwSetErrorCallback(glfwErrorCallback);
  if (g_windows == 0 && !glfwInit())
    throw std::runtime_error("Window(\"" + title + "\"): glfwInit failed: " + g_lastGlfwError);
  ++g_windows;

#ifdef __EMSCRIPTEN__
  // The browser's only context is WebGL2 (OpenGL ES 3.0); emscripten's GLFW gives it
  // whatever the version hints say.
  const gl::GlRequest asked = request.value_or(gl::GlRequest{true, 0, 0});
#else
  const gl::GlRequest asked = request.value_or(gl::GlRequest{});
#endif
  std::vector<std::pair<int, int>> versions;
  if (!asked.highest()) {
    versions.push_back({asked.major, asked.minor});
  } else if (asked.es) {
    versions = {{3, 2}, {3, 1}, {3, 0}};
  } else {
    // Newest first; macOS stops at 4.1 (the fragment backend still runs there).
    versions = {{4, 6}, {4, 5}, {4, 3}, {4, 1}, {3, 3}};
  }
  std::string tried;
  for (const auto& [major, minor] : versions) {
    // ES contexts come through GLX or, failing that, EGL.
    for (int creationApi : {GLFW_NATIVE_CONTEXT_API, GLFW_EGL_CONTEXT_API}) {
      if (!asked.es && creationApi == GLFW_EGL_CONTEXT_API) continue;
      glfwDefaultWindowHints();
      glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, major);
      glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, minor);
      if (asked.es) {
        glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
        glfwWindowHint(GLFW_CONTEXT_CREATION_API, creationApi);
      } else {
        glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
        glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
      }
      // A debug context makes KHR_debug messages complete (TEXSTREAM_GL_DEBUG / --gl-debug).
      glfwWindowHint(GLFW_OPENGL_DEBUG_CONTEXT, texstream::gl::debugRequestedByEnvironment() ? GLFW_TRUE : GLFW_FALSE);
      glfwWindowHint(GLFW_DEPTH_BITS, 24);
      m_window = glfwCreateWindow(width, height, title.c_str(), nullptr, nullptr);
      if (m_window) break;
      tried += (tried.empty() ? "" : "; ") + std::string(asked.es ? "ES " : "") + std::to_string(major) + "." +
               std::to_string(minor) + ": " + g_lastGlfwError;
    }
    if (m_window) break;
  }
  if (!m_window) {
    if (--g_windows == 0) glfwTerminate();
    throw WindowContextError("Window(\"" + title + "\"): GLFW gave no " + asked.name() + " context (" + tried + ")");
  }
  glfwMakeContextCurrent(m_window);
  glfwSwapInterval(1);
  try {
#ifdef __EMSCRIPTEN__
    // Exact ES names: emscripten's glfwGetProcAddress also answers names with their vendor
    // suffix stripped, which would make glad see extension functions WebGL2 lacks.
    gl::loadGl(emscripten_webgl_get_proc_address);
#else
    gl::loadGl(reinterpret_cast<void* (*)(const char*)>(glfwGetProcAddress));
#endif
  } catch (const std::exception& e) {
    glfwDestroyWindow(m_window);
    if (--g_windows == 0) glfwTerminate();
    throw std::runtime_error("Window(\"" + title + "\"): " + e.what());
  }
  const std::string version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
  const bool es = version.rfind("OpenGL ES", 0) == 0;
  m_description = "asked for " + asked.name() + ", got " + version + " through GLFW " + glfwGetVersionString();

  glfwSetWindowUserPointer(m_window, this);
  // Installed before Dear ImGui, which chains to it.
  glfwSetScrollCallback(m_window, scrollCallback);
#ifndef __EMSCRIPTEN__
  glfwSetDropCallback(m_window, dropCallback);
#endif

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini litter in the working directory
  ImGui::StyleColorsDark();
  ImGui_ImplGlfw_InitForOpenGL(m_window, true);
  // Dear ImGui's OpenGL3 backend picks its shaders from this line (GLSL ES 3.00 or 3.30).
  ImGui_ImplOpenGL3_Init(es ? "#version 300 es" : "#version 330 core");
  m_imguiReady = true;
#ifdef __EMSCRIPTEN__
  installTouchInput("#canvas");
#endif
}

Window::~Window() {
  if (!m_window) return;
  glfwMakeContextCurrent(m_window);
  if (m_imguiReady) {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
  }
  // texstream's per-context objects must go while their context is current.
  stream::Runtime::shutdown();
  glfwDestroyWindow(m_window);
  if (--g_windows == 0) glfwTerminate();
}

void Window::scrollCallback(GLFWwindow* w, double /*dx*/, double dy) {
  if (auto* self = static_cast<Window*>(glfwGetWindowUserPointer(w))) self->m_scrollAccum += dy;
}

void Window::dropCallback(GLFWwindow* w, int count, const char** paths) {
  auto* self = static_cast<Window*>(glfwGetWindowUserPointer(w));
  if (!self) return;
  for (int i = 0; i < count; ++i)
    if (paths[i]) self->m_dropped.emplace_back(paths[i]);
}

std::vector<std::string> Window::takeDroppedPaths() { return std::exchange(m_dropped, {}); }

void Window::simulateDrop(const std::vector<std::string>& paths) {
  std::vector<const char*> raw;
  for (const std::string& p : paths) raw.push_back(p.c_str());
  dropCallback(m_window, int(raw.size()), raw.data());
}

bool Window::shouldClose() const { return glfwWindowShouldClose(m_window); }
void Window::requestClose() { glfwSetWindowShouldClose(m_window, GLFW_TRUE); }

void Window::beginFrame() {
  m_scrollAccum = 0;
  glfwPollEvents();

  int ww = 0, wh = 0, fw = 0, fh = 0;
  glfwGetWindowSize(m_window, &ww, &wh);
  glfwGetFramebufferSize(m_window, &fw, &fh);
  const double sx = ww > 0 ? double(fw) / ww : 1.0, sy = wh > 0 ? double(fh) / wh : 1.0;
  double cx = 0, cy = 0;
  glfwGetCursorPos(m_window, &cx, &cy);
  cx *= sx;
  cy *= sy;
  MouseInput m;
  m.x = float(cx);
  m.y = float(cy);
  m.dx = m_havePosition ? float(cx - m_lastX) : 0.0f;
  m.dy = m_havePosition ? float(cy - m_lastY) : 0.0f;
  m.scroll = float(m_scrollAccum);
  m.leftDown = glfwGetMouseButton(m_window, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS;
  m.rightDown = glfwGetMouseButton(m_window, GLFW_MOUSE_BUTTON_RIGHT) == GLFW_PRESS;
  m.middleDown = glfwGetMouseButton(m_window, GLFW_MOUSE_BUTTON_MIDDLE) == GLFW_PRESS;
  m.leftPressed = m.leftDown && !m_lastLeft;
#ifdef __EMSCRIPTEN__
  // A finger on the canvas stands in for the mouse (emscripten's GLFW presses the button
  // on a touch but leaves the cursor where the mouse was).
  const TouchFrame touch = takeTouchFrame();
  if (touch.touching) {
    m.x = touch.x;
    m.y = touch.y;
    m.dx = touch.dx;
    m.dy = touch.dy;
    m.scroll += touch.pinchSteps;
    m.leftDown = touch.fingers == 1 || (touch.began && touch.fingers == 0);  // a tap within one frame
    m.rightDown = m.middleDown = false;
    m.leftPressed = touch.began;
    cx = touch.x;
    cy = touch.y;
  }
#endif
  m.width = fw;
  m.height = fh;
  m_mouse = m;
  m_lastX = cx;
  m_lastY = cy;
  m_lastLeft = m.leftDown;
  m_havePosition = true;

  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  // The backend's step is the clock's difference between frames, which is zero where the
  // clock stands still (a browser's virtual time, a coarse timer); Dear ImGui asserts a
  // positive one ("Need a positive DeltaTime!").
  ImGuiIO& io = ImGui::GetIO();
  if (!(io.DeltaTime > 0.0f)) io.DeltaTime = 1.0f / 60.0f;
#ifdef __EMSCRIPTEN__
  if (touch.touching) {
    io.MousePos = ImVec2(touch.x / float(sx), touch.y / float(sy));
    io.MouseDown[0] = m.leftDown;
    io.MouseDown[1] = io.MouseDown[2] = false;
  }
#endif
  ImGui::NewFrame();
}

void Window::renderGui() {
  ImGui::Render();
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glViewport(0, 0, framebufferWidth(), framebufferHeight());
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

void Window::swapBuffers() { glfwSwapBuffers(m_window); }

int Window::framebufferWidth() const {
  int w = 0, h = 0;
  glfwGetFramebufferSize(m_window, &w, &h);
  return w;
}

int Window::framebufferHeight() const {
  int w = 0, h = 0;
  glfwGetFramebufferSize(m_window, &w, &h);
  return h;
}

#ifdef __EMSCRIPTEN__
void Window::fitToPage() {
  // The page lays the canvas out with CSS; its drawing buffer follows the CSS size (one
  // buffer pixel per CSS pixel, as emscripten's GLFW maps mouse positions).
  double cssWidth = 0, cssHeight = 0;
  if (emscripten_get_element_css_size("#canvas", &cssWidth, &cssHeight) != EMSCRIPTEN_RESULT_SUCCESS) return;
  const int w = std::max(1, int(cssWidth)), h = std::max(1, int(cssHeight));
  if (w != framebufferWidth() || h != framebufferHeight()) glfwSetWindowSize(m_window, w, h);
}
#endif

bool Window::guiWantsMouse() const { return m_imguiReady && ImGui::GetIO().WantCaptureMouse; }

}  // namespace texstream::app
