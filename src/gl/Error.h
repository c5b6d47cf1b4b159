#pragma once
// texstream::gl::Error: the one exception type thrown at the GL boundary.
// Messages start with the function and the object's name, e.g.
//   Program("spmv_segment K=7"): shaders/spmv_segment.glsl:23: 'foo' undeclared
#include <stdexcept>
#include <string>
#include <string_view>

namespace texstream::gl {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

/// "GL_INVALID_OPERATION" for 0x0502 and so on.
std::string glErrorName(unsigned int code);

}  // namespace texstream::gl
