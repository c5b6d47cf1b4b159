#include "support/BrowserContext.h"

#include <texstream/gl/Capabilities.h>
#include <texstream/gl/Error.h>

#include <emscripten/html5.h>
#include <glad/gl.h>

namespace texstream::test {

namespace {
const char* const kCanvas = "#canvas";
}

BrowserContext::BrowserContext() {
  EmscriptenWebGLContextAttributes attributes;
  emscripten_webgl_init_context_attributes(&attributes);
  attributes.majorVersion = 2;
  attributes.minorVersion = 0;
  attributes.antialias = EM_FALSE;
  attributes.depth = EM_FALSE;
  const EMSCRIPTEN_WEBGL_CONTEXT_HANDLE handle = emscripten_webgl_create_context(kCanvas, &attributes);
  if (handle <= 0)
    throw gl::Error("BrowserContext: no WebGL2 context on " + std::string(kCanvas) + " (emscripten result " +
                    std::to_string(int(handle)) + ")");
  m_handle = int(handle);
  makeCurrent();
  gl::loadGl(emscripten_webgl_get_proc_address);
  m_description = std::string("WebGL2 on ") + kCanvas + ": " + reinterpret_cast<const char*>(glGetString(GL_VERSION)) +
                  ", " + reinterpret_cast<const char*>(glGetString(GL_RENDERER));
}

void BrowserContext::makeCurrent() {
  if (emscripten_webgl_make_context_current(EMSCRIPTEN_WEBGL_CONTEXT_HANDLE(m_handle)) != EMSCRIPTEN_RESULT_SUCCESS)
    throw gl::Error("BrowserContext: cannot make the WebGL2 context on " + std::string(kCanvas) + " current");
}

}  // namespace texstream::test
