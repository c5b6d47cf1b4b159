#pragma once
// texstream::gl::GlRequest: which OpenGL context a program asks for (--gl, TEXSTREAM_GL),
// desktop core or OpenGL ES at a version, whichever way the context is then made (EGL in
// HeadlessContext, GLFW in the apps' windows).
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

}  // namespace texstream::gl
