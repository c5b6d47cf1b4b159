#include <texstream/gl/Error.h>

#include <glad/gl.h>

#include <cstdio>

namespace texstream::gl {

std::string glErrorName(unsigned int code) {
  switch (code) {
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    default: {
      char buf[32];
      std::snprintf(buf, sizeof buf, "GL error 0x%04x", code);
      return buf;
    }
  }
}

}  // namespace texstream::gl
