#pragma once
// What the current GL context can do, and the loading of GL entry points for a context
// the host made (GLFW, Qt, SDL, EGL): texstream needs nothing but that it is current.
#include <string>

namespace texstream::gl {

struct Capabilities {
  int major = 0, minor = 0;
  std::string renderer, vendor, version;
  int maxTextureSize = 0;
  int maxArrayLayers = 0;
  int maxTextureUnits = 0;      ///< fragment stage sampler units
  int maxColorAttachments = 0;
  bool compute = false;         ///< GL 4.3+: compute shaders and image load/store
  bool floatRenderTargets = false;  ///< RGBA32F colour attachments complete
  bool floatBlending = false;       ///< additive blending into RGBA32F (point matrices)
  bool timerQueries = false;
  bool debugOutput = false;

  bool atLeast(int maj, int min) const { return major > maj || (major == maj && minor >= min); }
  /// "llvmpipe (LLVM 15.0.6, 256 bits), OpenGL 4.5 (Core Profile) Mesa 22.3.6"
  std::string summary() const;
};

/// Loads GL entry points if nobody has yet (through glad's loader, which opens libGL or
/// libEGL at run time); throws Error when no context is current.
void ensureGlLoaded();
/// Queries the current context. Throws Error when it is older than 3.3 or cannot render
/// to RGBA32F, each with one clear sentence.
Capabilities queryCapabilities();

}  // namespace texstream::gl
