#include <texstream/gl/Capabilities.h>

#include <texstream/gl/Error.h>

#include <glad/gl.h>

namespace texstream::gl {

std::string Capabilities::summary() const { return renderer + ", OpenGL " + version; }

void ensureGlLoaded() {
  if (glad_glGetString != nullptr && glad_glGetString(GL_VERSION) != nullptr) return;
  // No current context: glGetString returns NULL (or the pointer is not loaded yet).
  const int loaded = gladLoaderLoadGL();
  if (!loaded || !glad_glGetString || glad_glGetString(GL_VERSION) == nullptr) {
    throw Error(
        "texstream: no current OpenGL context (make your context current before using "
        "texstream, or create one with texstream::gl::HeadlessContext)");
  }
}

Capabilities queryCapabilities() {
  ensureGlLoaded();
  Capabilities c;
  glGetIntegerv(GL_MAJOR_VERSION, &c.major);
  glGetIntegerv(GL_MINOR_VERSION, &c.minor);
  auto str = [](GLenum e) {
    const GLubyte* s = glGetString(e);
    return s ? std::string(reinterpret_cast<const char*>(s)) : std::string();
  };
  c.renderer = str(GL_RENDERER);
  c.vendor = str(GL_VENDOR);
  c.version = str(GL_VERSION);
  if (!c.atLeast(3, 3)) {
    throw Error("texstream needs OpenGL 3.3 or newer; this context is " + c.version + " (" +
                c.renderer + ")");
  }
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &c.maxTextureSize);
  glGetIntegerv(GL_MAX_ARRAY_TEXTURE_LAYERS, &c.maxArrayLayers);
  glGetIntegerv(GL_MAX_TEXTURE_IMAGE_UNITS, &c.maxTextureUnits);
  glGetIntegerv(GL_MAX_COLOR_ATTACHMENTS, &c.maxColorAttachments);
  c.compute = c.atLeast(4, 3) && glad_glDispatchCompute != nullptr;
  c.timerQueries = true;  // core since 3.3
  c.debugOutput = glad_glDebugMessageCallback != nullptr;

  // Render to RGBA32F: core in desktop GL 3.0+, but some drivers (and GLES-class
  // implementations) refuse; test once with a real FBO.
  while (glGetError() != GL_NO_ERROR) {
  }
  GLint prevFbo = 0, prevTex = 0;
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &prevFbo);
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &prevTex);
  GLuint tex = 0, fbo = 0;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA32F, 1, 1);
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
  c.floatRenderTargets = glCheckFramebufferStatus(GL_DRAW_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE &&
                         glGetError() == GL_NO_ERROR;
  c.floatBlending = c.floatRenderTargets;  // desktop GL blends RGBA32F targets
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, GLuint(prevFbo));
  glBindTexture(GL_TEXTURE_2D, GLuint(prevTex));
  glDeleteFramebuffers(1, &fbo);
  glDeleteTextures(1, &tex);
  if (!c.floatRenderTargets) {
    throw Error("texstream needs RGBA32F render targets, which " + c.renderer +
                " does not offer (framebuffer incomplete)");
  }
  return c;
}

}  // namespace texstream::gl
