#pragma once
// KHR_debug output and object labels. Switched on by TEXSTREAM_GL_DEBUG=1 (any non-empty
// value other than 0) or by enableDebugOutput(); messages go to stderr with the labels of
// the objects involved, so "texture cg.r" appears instead of "texture 17".
#include <string>

namespace texstream::gl {

/// True when TEXSTREAM_GL_DEBUG asks for debug output.
bool debugRequestedByEnvironment();
/// Installs a KHR_debug callback printing to stderr (GL 4.3+ or KHR_debug); returns false
/// where the context offers neither. Notifications are filtered out.
bool enableDebugOutput();
/// glObjectLabel where available; a no-op otherwise. identifier: GL_TEXTURE, GL_PROGRAM...
void label(unsigned int identifier, unsigned int name, const std::string& text);
/// True once debug output has been enabled (labels are only set then: they cost a call).
bool debugOutputEnabled();

}  // namespace texstream::gl
