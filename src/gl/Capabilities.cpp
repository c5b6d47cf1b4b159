#include <texstream/gl/Capabilities.h>

#include <texstream/gl/ContextRecord.h>
#include <texstream/gl/Error.h>

#include <glad/gl.h>

#ifdef __EMSCRIPTEN__
#include <emscripten/html5_webgl.h>
// Emscripten's own GL functions, called directly (declared in <webgl/webgl2.h>, whose GL
// declarations would clash with glad's).
extern "C" void emscripten_glGetBufferSubData(GLenum target, GLintptr offset, GLsizeiptr size, void* data);
extern "C" GLenum emscripten_glClientWaitSync(GLsync sync, GLbitfield flags, GLuint64 timeout);
extern "C" void emscripten_glWaitSync(GLsync sync, GLbitfield flags, GLuint64 timeout);
#else
#include <dlfcn.h>
#endif

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>

namespace texstream::gl {

namespace {

using GetStringFn = const GLubyte*(GLAD_API_PTR*)(GLenum);
using ProcAddressFn = void* (*)(const char*);

const char* const kNoContext =
    "texstream: no current OpenGL context on this thread (make your context current before using "
    "texstream, or create one with texstream::gl::HeadlessContext)";

bool startsWith(const char* text, const char* prefix) {
  return text && std::strncmp(text, prefix, std::strlen(prefix)) == 0;
}

#ifdef __EMSCRIPTEN__
// The entry points with a 64-bit argument. Without WASM_BIGINT emscripten's JavaScript
// functions take it as two 32-bit halves, so the pointer its proc-address lookup returns
// has another signature than glad's and calling it traps ("function signature mismatch");
// a direct call, as here, is converted by the linker.
GLenum GLAD_API_PTR clientWaitSync(GLsync sync, GLbitfield flags, GLuint64 timeout) {
  return emscripten_glClientWaitSync(sync, flags, timeout);
}
void GLAD_API_PTR waitSync(GLsync sync, GLbitfield flags, GLuint64 timeout) { emscripten_glWaitSync(sync, flags, timeout); }

// In the browser GL is WebGL2, implemented by emscripten's JavaScript library: no library
// to open; the entry points come by their exact ES names.
GLADapiproc browserProc(const char* name) {
  return reinterpret_cast<GLADapiproc>(emscripten_webgl_get_proc_address(name));
}
#else
// The system's GL libraries, opened once and never closed: entry points loaded from them
// must stay valid for the life of the process.
struct SystemGl {
  void* gl = nullptr;    // libGL / libOpenGL: desktop entry points (glvnd dispatches to any context)
  void* gles = nullptr;  // libGLESv2
  void* egl = nullptr;   // libEGL
  ProcAddressFn glxGetProcAddress = nullptr;
  ProcAddressFn eglGetProcAddress = nullptr;
  void* (*eglGetCurrentContext)() = nullptr;
};

void* openFirst(std::initializer_list<const char*> names) {
  for (const char* n : names) {
    if (void* h = dlopen(n, RTLD_NOW | RTLD_GLOBAL)) return h;
  }
  return nullptr;
}

SystemGl& systemGl() {
  static SystemGl s = [] {
    SystemGl g;
    g.gl = openFirst({"libGL.so.1", "libOpenGL.so.0", "libGL.so"});
    g.gles = openFirst({"libGLESv2.so.2", "libGLESv2.so"});
    g.egl = openFirst({"libEGL.so.1", "libEGL.so"});
    if (g.gl) g.glxGetProcAddress = reinterpret_cast<ProcAddressFn>(dlsym(g.gl, "glXGetProcAddressARB"));
    if (g.egl) {
      g.eglGetProcAddress = reinterpret_cast<ProcAddressFn>(dlsym(g.egl, "eglGetProcAddress"));
      g.eglGetCurrentContext = reinterpret_cast<void* (*)()>(dlsym(g.egl, "eglGetCurrentContext"));
    }
    return g;
  }();
  return s;
}

GLADapiproc systemProc(const char* name) {
  SystemGl& s = systemGl();
  // eglGetProcAddress for EGL contexts (it also answers for core functions since EGL 1.5);
  // glXGetProcAddressARB for the rest; the libraries' exports last.
  const bool eglCurrent = s.eglGetCurrentContext && s.eglGetCurrentContext() != nullptr;
  void* p = nullptr;
  if (eglCurrent && s.eglGetProcAddress) p = s.eglGetProcAddress(name);
  if (!p && s.glxGetProcAddress) p = s.glxGetProcAddress(name);
  if (!p && s.gl) p = dlsym(s.gl, name);
  if (!p && s.gles) p = dlsym(s.gles, name);
  return reinterpret_cast<GLADapiproc>(p);
}
#endif

// What the entry points were loaded for: glad loads the functions of the version (and the
// API) it finds in the current context and leaves the others as they were, so a process
// with contexts of several versions or of both APIs loads again for each higher one.
struct Loaded {
  GLADloadfunc loader = nullptr;
  int desktop = 0, es = 0;  // 10 * major + minor of the highest context loaded for; 0: none
};
Loaded g_loaded;
// Held while entry points are loaded and g_loaded read or written: contexts are made on any
// thread.
std::mutex g_loadMutex;

int versionNumber(const char* version) {
  // "4.5 (Core Profile) Mesa ...", "OpenGL ES 3.0 Mesa ...", "OpenGL ES 3.0 (WebGL 2.0 ...)"
  const char* p = version;
  while (*p && (*p < '0' || *p > '9')) ++p;
  int major = 0, minor = 0;
  if (std::sscanf(p, "%d.%d", &major, &minor) != 2) return 0;
  return 10 * major + minor;
}

void loadWith(GLADloadfunc load) {
  auto getString = reinterpret_cast<GetStringFn>(load("glGetString"));
  const char* version = getString ? reinterpret_cast<const char*>(getString(GL_VERSION)) : nullptr;
  if (!version) throw Error(kNoContext);
  const bool es = startsWith(version, "OpenGL ES");
  (es ? g_loaded.es : g_loaded.desktop) = std::max(es ? g_loaded.es : g_loaded.desktop, versionNumber(version));
  g_loaded.loader = load;
  const int loaded = es ? gladLoadGLES2(load) : gladLoadGL(load);
  if (!loaded || !glad_glGetString) {
    throw Error(std::string("texstream: could not load the ") + (es ? "OpenGL ES" : "OpenGL") +
                " entry points of the current context (" + version + ")");
  }
#ifdef __EMSCRIPTEN__
  // WebGL2 reads buffers with getBufferSubData (ES has no glGetBufferSubData, so glad's ES
  // loader leaves it null, and emscripten's proc-address lookup does not list it).
  if (es) {
    glad_glGetBufferSubData = &emscripten_glGetBufferSubData;
    glad_glClientWaitSync = &clientWaitSync;
    glad_glWaitSync = &waitSync;
    // WebGL2's timer queries come as EXT_disjoint_timer_query_webgl2, which glad does not
    // know, so it leaves the result query null; emscripten implements it on WebGL2's own
    // getQueryParameter.
    if (!glad_glGetQueryObjectui64vEXT)
      glad_glGetQueryObjectui64vEXT = reinterpret_cast<PFNGLGETQUERYOBJECTUI64VEXTPROC>(browserProc("glGetQueryObjectui64vEXT"));
  }
#endif
}

bool hasExtension(const std::set<std::string>& extensions, const char* name) { return extensions.count(name) > 0; }

// TEXSTREAM_DISABLE_FEATURES=compute,floatRenderTargets switches features off, so tests and
// users can see what a lesser context does.
// TEXSTREAM_MAX_TEXTURE_SIZE=N lowers the texture limit, so tests and users can see what a
// device with a smaller one refuses.
void applyMaxTextureSize(Capabilities& c) {
  const char* env = std::getenv("TEXSTREAM_MAX_TEXTURE_SIZE");
  if (!env || !*env) return;
  char* end = nullptr;
  const long n = std::strtol(env, &end, 10);
  if (*end != 0 || n < 1) {
    throw Error(std::string("TEXSTREAM_MAX_TEXTURE_SIZE: invalid value \"") + env + "\": expected a whole number >= 1");
  }
  if (n < c.maxTextureSize) {
    c.driverMaxTextureSize = c.maxTextureSize;
    c.maxTextureSize = int(n);
  }
}

void applyMaxComputeInvocations(Capabilities& c) {
  const char* env = std::getenv("TEXSTREAM_MAX_COMPUTE_INVOCATIONS");
  if (!env || !*env) return;
  char* end = nullptr;
  const long n = std::strtol(env, &end, 10);
  if (*end != 0 || n < 1) {
    throw Error(std::string("TEXSTREAM_MAX_COMPUTE_INVOCATIONS: invalid value \"") + env +
                "\": expected a whole number >= 1");
  }
  if (c.maxComputeInvocations == 0 || n >= c.maxComputeInvocations) return;  // no compute, or not lower
  c.driverMaxComputeInvocations = c.maxComputeInvocations;
  c.maxComputeInvocations = int(n);
  c.maxComputeGroupSide = std::min(c.maxComputeGroupSide, int(n));
  c.compute = c.compute && computeWorkgroupsFit(c.maxComputeInvocations, c.maxComputeGroupSide);
}

void applyMaxStorageBlockBytes(Capabilities& c) {
  const char* env = std::getenv("TEXSTREAM_MAX_STORAGE_BLOCK_BYTES");
  if (!env || !*env) return;
  char* end = nullptr;
  const long long n = std::strtoll(env, &end, 10);
  if (*end != 0 || n < 16) {
    throw Error(std::string("TEXSTREAM_MAX_STORAGE_BLOCK_BYTES: invalid value \"") + env +
                "\": expected a whole number >= 16");
  }
  if (c.maxStorageBlockBytes == 0 || n >= c.maxStorageBlockBytes) return;  // no storage buffers, or not lower
  c.driverMaxStorageBlockBytes = c.maxStorageBlockBytes;
  c.maxStorageBlockBytes = n;
}

void applyDisabledFeatures(Capabilities& c) {
  const char* env = std::getenv("TEXSTREAM_DISABLE_FEATURES");
  if (!env || !*env) return;
  struct Flag {
    const char* name;
    bool Capabilities::*member;
  };
  static const Flag flags[] = {
      {"textureStorage", &Capabilities::textureStorage}, {"compute", &Capabilities::compute},
      {"imageLoadStore", &Capabilities::imageLoadStore}, {"storageBuffers", &Capabilities::storageBuffers},
      {"memoryBarrier", &Capabilities::memoryBarrier},   {"debugOutput", &Capabilities::debugOutput},
      {"timerQueries", &Capabilities::timerQueries},     {"polygonMode", &Capabilities::polygonMode},
      {"floatRenderTargets", &Capabilities::floatRenderTargets},
      {"halfFloatRenderTargets", &Capabilities::halfFloatRenderTargets},
      {"floatBlending", &Capabilities::floatBlending},
      {"floatLinearFiltering", &Capabilities::floatLinearFiltering},
      {"pixelBuffers", &Capabilities::pixelBuffers},     {"mapBufferRead", &Capabilities::mapBufferRead},
      {"persistentMapping", &Capabilities::persistentMapping},
      {"getTexImage", &Capabilities::getTexImage},     {"renderFeedbackLoops", &Capabilities::renderFeedbackLoops}};
  std::stringstream list(env);
  std::string name;
  while (std::getline(list, name, ',')) {
    name.erase(0, name.find_first_not_of(" \t"));
    name.erase(name.find_last_not_of(" \t") + 1);
    if (name.empty()) continue;
    const Flag* f = std::find_if(std::begin(flags), std::end(flags), [&](const Flag& x) { return name == x.name; });
    if (f == std::end(flags)) {
      throw Error("TEXSTREAM_DISABLE_FEATURES: unknown feature \"" + name + "\" (known: " +
                  std::string(disableableFeatures()) + ")");
    }
    c.*(f->member) = false;
    c.disabled += (c.disabled.empty() ? "" : ",") + name;
  }
  // What depends on what.
  if (!c.imageLoadStore || !c.storageBuffers || !c.memoryBarrier) c.compute = false;
  if (!c.floatRenderTargets) c.floatBlending = false;
  if (!c.mapBufferRead) c.persistentMapping = false;
}

// Render to RGBA32F (RGBA16F): core in desktop GL 3.0+; ES needs EXT_color_buffer_float
// (or EXT_color_buffer_half_float), and some drivers refuse anyway, so the answer comes
// from a real framebuffer. Reads no GL error state: the host's pending errors stay where
// they are.
bool canRenderTo(GLenum internalFormat, bool textureStorage) {
  GLint prevFbo = 0, prevTex = 0, prevUnit = 0;
  glGetIntegerv(GL_ACTIVE_TEXTURE, &prevUnit);
  glActiveTexture(GL_TEXTURE0);
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &prevFbo);
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &prevTex);
  GLuint tex = 0, fbo = 0;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  if (textureStorage) {
    glTexStorage2D(GL_TEXTURE_2D, 1, internalFormat, 1, 1);
  } else {
    glTexImage2D(GL_TEXTURE_2D, 0, GLint(internalFormat), 1, 1, 0, GL_RGBA, GL_FLOAT, nullptr);
  }
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
  const bool complete = glCheckFramebufferStatus(GL_DRAW_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, GLuint(prevFbo));
  glBindTexture(GL_TEXTURE_2D, GLuint(prevTex));
  glActiveTexture(GLenum(prevUnit));
  glDeleteFramebuffers(1, &fbo);
  glDeleteTextures(1, &tex);
  return complete;
}

}  // namespace

bool computeWorkgroupsFit(int invocations, int groupSide) {
  return invocations >= kComputeWorkgroupInvocations && groupSide >= kComputeWorkgroupSide;
}

std::string Capabilities::computeMissing() const {
  if (compute) return "";
  std::string why;
  if (maxComputeInvocations > 0 && !computeWorkgroupsFit(maxComputeInvocations, maxComputeGroupSide))
    why = "workgroups of " + std::to_string(kComputeWorkgroupSide) + " x " + std::to_string(kComputeWorkgroupSide) +
          " invocations; this context allows " + std::to_string(maxComputeInvocations) + " invocations and " +
          std::to_string(maxComputeGroupSide) + " a side" +
          (driverMaxComputeInvocations > 0 ? " (TEXSTREAM_MAX_COMPUTE_INVOCATIONS=" + std::to_string(maxComputeInvocations) +
                                                 "; the driver allows " + std::to_string(driverMaxComputeInvocations) + ")"
                                           : std::string());
  else
    why = "OpenGL 4.3 or OpenGL ES 3.1 (compute shaders)";
  return why + (disabled.empty() ? "" : ", TEXSTREAM_DISABLE_FEATURES=" + disabled);
}

std::string Capabilities::summary() const { return renderer + ", " + (es ? "" : "OpenGL ") + version; }

std::string Capabilities::apiName() const {
  return std::string(es ? "OpenGL ES " : "OpenGL ") + std::to_string(major) + "." + std::to_string(minor) +
         (es ? "" : " core");
}

std::string Capabilities::floatTargetsMissing() const {
  if (floatRenderTargets) return "";
  const std::string context = "this context (" + apiName() + ", " + renderer + ")";
  return std::string("RGBA32F render targets (") + kFloatTargetsExtension + " on OpenGL ES and WebGL2) are missing: " +
         (!disabled.empty() ? context + " has them switched off (TEXSTREAM_DISABLE_FEATURES=" + disabled + ")"
          : es              ? context + " lacks " + kFloatTargetsExtension
                            : context + " cannot render to RGBA32F");
}

std::string Capabilities::glslHeader(int desktopVersion, int esVersion) const {
  if (!es) return "#version " + std::to_string(desktopVersion) + " core";
  std::string h = "#version " + std::to_string(esVersion) + " es\n"
                  "precision highp float;\nprecision highp int;\n"
                  "precision highp sampler2D;\nprecision highp sampler2DArray;\n"
                  "precision highp isampler2D;\nprecision highp usampler2D;";
  if (esVersion >= 310) h += "\nprecision highp image2D;";
  return h;
}

std::string_view disableableFeatures() {
  return "textureStorage, compute, imageLoadStore, storageBuffers, memoryBarrier, debugOutput, timerQueries, "
         "polygonMode, floatRenderTargets, halfFloatRenderTargets, floatBlending, floatLinearFiltering, pixelBuffers, "
         "mapBufferRead, persistentMapping, getTexImage, renderFeedbackLoops";
}

void loadGl(void* (*getProcAddress)(const char* name)) {
  if (!getProcAddress) throw Error("texstream::gl::loadGl: no getProcAddress function given");
  std::lock_guard<std::mutex> lock(g_loadMutex);
  loadWith(reinterpret_cast<GLADloadfunc>(getProcAddress));
}

bool contextIsCurrent() { return glad_glGetString != nullptr && glad_glGetString(GL_VERSION) != nullptr; }

void ensureGlLoaded() {
#ifdef __EMSCRIPTEN__
  // Without a current WebGL context emscripten's glGetString would fail in JavaScript.
  if (emscripten_webgl_get_current_context() == 0) throw Error(kNoContext);
#endif
  if (glad_glGetString != nullptr) {
    if (glad_glGetString(GL_VERSION) == nullptr) throw Error(kNoContext);
    return;
  }
  std::lock_guard<std::mutex> lock(g_loadMutex);
  if (glad_glGetString != nullptr) {  // loaded by another thread meanwhile
    if (glad_glGetString(GL_VERSION) == nullptr) throw Error(kNoContext);
    return;
  }
#ifdef __EMSCRIPTEN__
  loadWith(browserProc);
#else
  SystemGl& s = systemGl();
  if (!s.gl && !s.gles) {
    throw Error("texstream: cannot open the system's OpenGL library (libGL.so.1, libOpenGL.so.0 or libGLESv2.so.2): "
                "install libgl1 or libopengl0 and a driver (Mesa or NVIDIA)");
  }
  loadWith(systemProc);
#endif
}

Capabilities queryCapabilities() {
  ensureGlLoaded();
  Capabilities c;
  auto str = [](GLenum e) {
    const GLubyte* s = glGetString(e);
    return s ? std::string(reinterpret_cast<const char*>(s)) : std::string();
  };
  c.renderer = str(GL_RENDERER);
  c.vendor = str(GL_VENDOR);
  c.version = str(GL_VERSION);
  c.es = startsWith(c.version.c_str(), "OpenGL ES");
  if (glad_glGetIntegerv) {
    glGetIntegerv(GL_MAJOR_VERSION, &c.major);
    glGetIntegerv(GL_MINOR_VERSION, &c.minor);
  }
  if (c.es ? !c.atLeast(3, 0) : !c.atLeast(3, 3)) {
    throw Error("texstream needs OpenGL 3.3 core or OpenGL ES 3.0 or newer; this context is " + c.version + " (" +
                c.renderer + ")");
  }
  std::set<std::string> extensions;
  GLint count = 0;
  glGetIntegerv(GL_NUM_EXTENSIONS, &count);
  for (GLint i = 0; i < count; ++i) {
    if (const GLubyte* e = glGetStringi(GL_EXTENSIONS, GLuint(i))) extensions.insert(reinterpret_cast<const char*>(e));
  }
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &c.maxTextureSize);
  glGetIntegerv(GL_MAX_ARRAY_TEXTURE_LAYERS, &c.maxArrayLayers);
  glGetIntegerv(GL_MAX_TEXTURE_IMAGE_UNITS, &c.maxTextureUnits);
  glGetIntegerv(GL_MAX_COLOR_ATTACHMENTS, &c.maxColorAttachments);

  // Each flag also requires the entry points it uses to be loaded.
  const bool desktop = !c.es;
  c.textureStorage = (c.es || c.atLeast(4, 2) || hasExtension(extensions, "GL_ARB_texture_storage")) &&
                     glad_glTexStorage2D && glad_glTexStorage3D;
  c.imageLoadStore = (desktop ? c.atLeast(4, 2) : c.atLeast(3, 1)) && glad_glBindImageTexture;
  c.memoryBarrier = (desktop ? c.atLeast(4, 2) : c.atLeast(3, 1)) && glad_glMemoryBarrier;
  c.storageBuffers = (desktop ? c.atLeast(4, 3) : c.atLeast(3, 1)) && glad_glBindBufferBase && glad_glGetIntegeri_v;
  if (c.storageBuffers && glad_glGetInteger64v) {
    GLint64 blockBytes = 0;
    glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &blockBytes);
    c.maxStorageBlockBytes = std::int64_t(blockBytes);
  }
  c.compute = (desktop ? c.atLeast(4, 3) : c.atLeast(3, 1)) && glad_glDispatchCompute && c.imageLoadStore &&
              c.storageBuffers && c.memoryBarrier;
  if (c.compute) {
    GLint sizeX = 0, sizeY = 0;
    glGetIntegerv(GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS, &c.maxComputeInvocations);
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_SIZE, 0, &sizeX);
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_SIZE, 1, &sizeY);
    c.maxComputeGroupSide = std::min(sizeX, sizeY);
    c.compute = computeWorkgroupsFit(c.maxComputeInvocations, c.maxComputeGroupSide);
  }
  c.debugOutput = (desktop && c.atLeast(4, 3)) || (c.es && c.atLeast(3, 2)) ||
                  hasExtension(extensions, "GL_KHR_debug");
  c.debugOutput = c.debugOutput && ((glad_glDebugMessageCallback && glad_glObjectLabel) ||
                                    (glad_glDebugMessageCallbackKHR && glad_glObjectLabelKHR));
  c.timerQueries = desktop ? (glad_glBeginQuery && glad_glGetQueryObjectui64v)
                           : (hasExtension(extensions, "GL_EXT_disjoint_timer_query") ||
                              hasExtension(extensions, "GL_EXT_disjoint_timer_query_webgl2")) &&
                                 glad_glGetQueryObjectui64vEXT;
  c.polygonMode = desktop && glad_glPolygonMode;
  c.framebufferSrgb = desktop;
  c.programPointSize = desktop;
  c.pixelBuffers = true;  // desktop 2.1 and ES 3.0 both have pixel pack/unpack buffers
#ifdef __EMSCRIPTEN__
  c.mapBufferRead = false;  // WebGL2 reads buffers with getBufferSubData, never by mapping
#else
  c.mapBufferRead = glad_glMapBufferRange != nullptr;
#endif
  c.persistentMapping = c.mapBufferRead && desktop && c.atLeast(4, 4) && glad_glBufferStorage;
  c.getTexImage = desktop && glad_glGetTexImage;
  // Rendering into a texture while sampling other texels of it is defined after a texture
  // barrier (GL 4.5 §9.3.1, ARB_texture_barrier); without one, in-place passes copy.
  c.renderFeedbackLoops = desktop && glad_glTextureBarrier;
  c.floatBlending = desktop || hasExtension(extensions, "GL_EXT_float_blend");
  c.floatLinearFiltering = desktop || hasExtension(extensions, "GL_OES_texture_float_linear");
  const bool colorBufferFloat = desktop || hasExtension(extensions, "GL_EXT_color_buffer_float");
  const bool colorBufferHalfFloat = colorBufferFloat || hasExtension(extensions, "GL_EXT_color_buffer_half_float");
  c.floatRenderTargets = colorBufferFloat && canRenderTo(GL_RGBA32F, c.textureStorage);
  c.halfFloatRenderTargets = colorBufferHalfFloat && canRenderTo(GL_RGBA16F, c.textureStorage);
  if (!c.floatRenderTargets) c.floatBlending = false;

  applyMaxTextureSize(c);
  applyMaxComputeInvocations(c);
  applyMaxStorageBlockBytes(c);
  applyDisabledFeatures(c);
  if (!c.floatRenderTargets && !c.halfFloatRenderTargets) {
    // What the page or the terminal shows on such a device: the extensions, and what runs.
    std::string why = ": the float framebuffers are incomplete";
    if (!c.disabled.empty()) {
      why = " (TEXSTREAM_DISABLE_FEATURES=" + c.disabled + ")";
    } else if (c.es && !colorBufferHalfFloat) {
      why = std::string(": it lacks ") + Capabilities::kFloatTargetsExtension + " and " +
            Capabilities::kHalfFloatTargetsExtension;
    }
    throw Error("texstream needs RGBA32F render targets (" + std::string(Capabilities::kFloatTargetsExtension) +
                "), or RGBA16F ones (" + Capabilities::kHalfFloatTargetsExtension +
                ") for the fluid's half-float mode, and this context (" + c.apiName() + ", " + c.renderer +
                ") offers neither" + why +
                ": it can run none of texstream's solvers or demos (every pass renders into a float texture)");
  }
  return c;
}

void loadGlForCurrentContext() {
  ensureGlLoaded();
  const char* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
  if (!version) throw Error(kNoContext);
  const bool es = startsWith(version, "OpenGL ES");
  std::lock_guard<std::mutex> lock(g_loadMutex);
  if (versionNumber(version) > (es ? g_loaded.es : g_loaded.desktop) && g_loaded.loader) loadWith(g_loaded.loader);
}

const Capabilities& capabilities() { return currentRecord().caps(); }

}  // namespace texstream::gl
