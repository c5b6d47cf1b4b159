#include <texstream/gl/Debug.h>

#include <texstream/gl/Capabilities.h>

#include <glad/gl.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace texstream::gl {

namespace {
bool g_debugEnabled = false;

const char* sourceName(GLenum s) {
  switch (s) {
    case GL_DEBUG_SOURCE_API: return "api";
    case GL_DEBUG_SOURCE_SHADER_COMPILER: return "shader compiler";
    case GL_DEBUG_SOURCE_WINDOW_SYSTEM: return "window system";
    case GL_DEBUG_SOURCE_THIRD_PARTY: return "third party";
    case GL_DEBUG_SOURCE_APPLICATION: return "application";
    default: return "other";
  }
}
const char* typeName(GLenum t) {
  switch (t) {
    case GL_DEBUG_TYPE_ERROR: return "error";
    case GL_DEBUG_TYPE_DEPRECATED_BEHAVIOR: return "deprecated";
    case GL_DEBUG_TYPE_UNDEFINED_BEHAVIOR: return "undefined behaviour";
    case GL_DEBUG_TYPE_PERFORMANCE: return "performance";
    case GL_DEBUG_TYPE_PORTABILITY: return "portability";
    default: return "other";
  }
}

void GLAD_API_PTR onDebugMessage(GLenum source, GLenum type, GLuint id, GLenum severity,
                                 GLsizei, const GLchar* message, const void*) {
  if (severity == GL_DEBUG_SEVERITY_NOTIFICATION) return;
  std::fprintf(stderr, "texstream GL debug [%s, %s, id %u]: %s\n", sourceName(source),
               typeName(type), id, message);
}
}  // namespace

bool debugRequestedByEnvironment() {
  const char* v = std::getenv("TEXSTREAM_GL_DEBUG");
  return v && *v && std::strcmp(v, "0") != 0;
}

bool enableDebugOutput() {
  ensureGlLoaded();
  if (!capabilities().debugOutput) return false;
  glEnable(GL_DEBUG_OUTPUT);
  glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
  // Desktop 4.3 and ES 3.2 name the entry points without a suffix; KHR_debug on ES 3.0/3.1
  // with one.
  if (glDebugMessageCallback) {
    glDebugMessageCallback(onDebugMessage, nullptr);
  } else {
    glDebugMessageCallbackKHR(onDebugMessage, nullptr);
  }
  g_debugEnabled = true;
  return true;
}

bool debugOutputEnabled() { return g_debugEnabled; }

void label(unsigned int identifier, unsigned int name, const std::string& text) {
  if (!g_debugEnabled || name == 0) return;
  if (glObjectLabel) {
    glObjectLabel(identifier, name, GLsizei(text.size()), text.c_str());
  } else if (glObjectLabelKHR) {
    glObjectLabelKHR(identifier, name, GLsizei(text.size()), text.c_str());
  }
}

}  // namespace texstream::gl
