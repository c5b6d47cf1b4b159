#pragma once
// The browser tests' context: a WebGL2 context on the page's canvas (#canvas), made through
// emscripten's HTML5 API, with texstream's GL entry points loaded from it. It takes the
// place of gl::HeadlessContext (EGL), which the browser has not.
#include <string>

namespace texstream::test {

class BrowserContext {
 public:
  /// Creates the context and makes it current; throws gl::Error naming the canvas and
  /// emscripten's result when the browser gives no WebGL2 context.
  BrowserContext();
  BrowserContext(const BrowserContext&) = delete;
  BrowserContext& operator=(const BrowserContext&) = delete;

  void makeCurrent();
  /// "WebGL2 on #canvas: OpenGL ES 3.0 (WebGL 2.0 (OpenGL ES 3.0 Chromium)), WebKit WebGL"
  const std::string& description() const { return m_description; }

 private:
  int m_handle = 0;
  std::string m_description;
};

}  // namespace texstream::test
