#include <texstream/gl/HeadlessContext.h>

#include <texstream/gl/Capabilities.h>
#include <texstream/gl/Context.h>
#include <texstream/gl/Debug.h>
#include <texstream/gl/Error.h>

#include <glad/egl.h>
#include <glad/gl.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <cstring>
#include <string>
#include <vector>

namespace texstream::gl {

namespace {

bool hasExtension(const char* list, const char* name) {
  if (!list) return false;
  const std::size_t len = std::strlen(name);
  for (const char* p = list; (p = std::strstr(p, name)) != nullptr; p += len) {
    if ((p == list || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0')) return true;
  }
  return false;
}

std::string eglErrorText() {
  const EGLint e = eglGetError();
  char buf[64];
  std::snprintf(buf, sizeof buf, "EGL error 0x%04x", unsigned(e));
  return buf;
}

// eglTerminate frees every context of a display, and the device platform gives every
// context of a device the same display: a display is terminated when its last
// HeadlessContext goes.
std::mutex g_displaysMutex;
std::map<EGLDisplay, int>& displayUsers() {
  static auto* users = new std::map<EGLDisplay, int>;
  return *users;
}
void useDisplay(EGLDisplay d) {
  std::lock_guard<std::mutex> lock(g_displaysMutex);
  ++displayUsers()[d];
}
// True when the caller was the display's last user.
bool leaveDisplay(EGLDisplay d) {
  std::lock_guard<std::mutex> lock(g_displaysMutex);
  auto it = displayUsers().find(d);
  if (it == displayUsers().end() || --it->second > 0) return it == displayUsers().end();
  displayUsers().erase(it);
  return true;
}

// For a candidate that gave no context: terminated unless other HeadlessContexts use it.
void terminateUnused(EGLDisplay d) {
  std::lock_guard<std::mutex> lock(g_displaysMutex);
  if (displayUsers().count(d) == 0) eglTerminate(d);
}

struct Candidate {
  EGLDisplay display;
  std::string description;
};

// Device platform: hardware devices first (no EGL_MESA_device_software), software last.
std::vector<Candidate> deviceDisplays(int requested, std::string& notes) {
  std::vector<Candidate> out;
  if (!eglQueryDevicesEXT || !eglGetPlatformDisplayEXT) {
    notes += "EGL device platform unavailable; ";
    return out;
  }
  EGLint count = 0;
  if (!eglQueryDevicesEXT(0, nullptr, &count) || count <= 0) {
    notes += "no EGL devices; ";
    return out;
  }
  std::vector<EGLDeviceEXT> devices(std::size_t(count), nullptr);
  eglQueryDevicesEXT(count, devices.data(), &count);
  if (requested >= count) {
    throw Error("HeadlessContext: TEXSTREAM_EGL_DEVICE=" + std::to_string(requested) + " but only " +
                std::to_string(count) + " EGL device(s) exist (0.." + std::to_string(count - 1) + ")");
  }
  std::vector<int> order;
  if (requested >= 0) {
    order.push_back(requested);
  } else {
    std::vector<int> software;
    for (int i = 0; i < count; ++i) {
      const char* ext = eglQueryDeviceStringEXT ? eglQueryDeviceStringEXT(devices[std::size_t(i)], EGL_EXTENSIONS) : nullptr;
      (hasExtension(ext, "EGL_MESA_device_software") ? software : order).push_back(i);
    }
    order.insert(order.end(), software.begin(), software.end());
  }
  for (int i : order) {
    EGLDisplay d = eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devices[std::size_t(i)], nullptr);
    if (d != EGL_NO_DISPLAY) {
      const char* ext = eglQueryDeviceStringEXT ? eglQueryDeviceStringEXT(devices[std::size_t(i)], EGL_EXTENSIONS) : nullptr;
      out.push_back({d, "EGL device " + std::to_string(i) + " of " + std::to_string(count) +
                            (hasExtension(ext, "EGL_MESA_device_software") ? " (software)" : "")});
    }
  }
  return out;
}

}  // namespace

HeadlessContext::HeadlessContext(const HeadlessOptions& options) {
  if (options.gl) {
    m_request = *options.gl;
  } else if (const char* env = std::getenv("TEXSTREAM_GL"); env && *env) {
    try {
      m_request = GlRequest::parse(env);
    } catch (const Error& e) {
      throw Error(std::string("TEXSTREAM_GL: ") + e.what());
    }
  }
  if (!gladLoaderLoadEGL(EGL_NO_DISPLAY)) {
    throw Error("HeadlessContext: cannot load libEGL.so.1 (install libegl1 and a driver: Mesa or NVIDIA)");
  }
  int requested = options.device;
  if (requested < 0) {
    if (const char* env = std::getenv("TEXSTREAM_EGL_DEVICE"); env && *env) {
      char* end = nullptr;
      const long v = std::strtol(env, &end, 10);
      if (*end != '\0' || v < 0) {
        throw Error(std::string("HeadlessContext: TEXSTREAM_EGL_DEVICE=\"") + env +
                    "\" is not a device index (0, 1, ...)");
      }
      requested = int(v);
    }
  }
  std::string notes;
  std::vector<Candidate> candidates;
  if (options.shareWith) {
    // The shared context's display, whatever the options say: a share group lives on one.
    if (!options.shareWith->m_display) throw Error("HeadlessContext: shareWith names a context that was never made");
    if (options.shareWith->m_request.es != m_request.es) {
      throw Error("HeadlessContext: cannot share objects between " + options.shareWith->m_request.name() + " and " +
                  m_request.name() + " contexts (one API a share group)");
    }
    candidates.push_back({static_cast<EGLDisplay>(options.shareWith->m_display), options.shareWith->m_deviceDescription});
  } else {
    candidates = deviceDisplays(requested, notes);
  }
  if (requested < 0 && !options.shareWith) {
    const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    if (eglGetPlatformDisplayEXT && hasExtension(client, "EGL_MESA_platform_surfaceless")) {
      EGLDisplay d = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
      if (d != EGL_NO_DISPLAY) candidates.push_back({d, "Mesa surfaceless platform"});
    }
    EGLDisplay d = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    if (d != EGL_NO_DISPLAY) candidates.push_back({d, "default EGL display"});
  }

  const bool debug = options.debug || debugRequestedByEnvironment();
  struct Version { int major, minor; };
  std::vector<Version> versions;
  if (m_request.highest()) {
    versions = m_request.es ? std::vector<Version>{{3, 2}, {3, 1}, {3, 0}}
                            : std::vector<Version>{{4, 6}, {4, 5}, {4, 3}, {4, 1}, {3, 3}};
  } else {
    versions.push_back({m_request.major, m_request.minor});
  }
  const EGLenum api = m_request.es ? EGL_OPENGL_ES_API : EGL_OPENGL_API;

  for (const Candidate& c : candidates) {
    EGLint maj = 0, min = 0;
    if (!eglInitialize(c.display, &maj, &min)) {
      notes += c.description + ": eglInitialize failed (" + eglErrorText() + "); ";
      continue;
    }
    gladLoaderLoadEGL(c.display);  // display extensions (no-config, surfaceless)
    if (!eglBindAPI(api)) {
      notes += c.description + (m_request.es ? ": no OpenGL ES; " : ": no desktop OpenGL; ");
      terminateUnused(c.display);
      continue;
    }
    const char* ext = eglQueryString(c.display, EGL_EXTENSIONS);
    EGLConfig config = EGL_NO_CONFIG_KHR;
    const bool noConfig = hasExtension(ext, "EGL_KHR_no_config_context");
    const bool surfaceless = hasExtension(ext, "EGL_KHR_surfaceless_context");
    if (!noConfig || !surfaceless) {
      const EGLint attribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                                m_request.es ? EGL_OPENGL_ES3_BIT : EGL_OPENGL_BIT,
                                EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE};
      EGLint n = 0;
      if (!eglChooseConfig(c.display, attribs, &config, 1, &n) || n < 1) {
        notes += c.description + ": no pbuffer config; ";
        terminateUnused(c.display);
        continue;
      }
    }
    EGLContext ctx = EGL_NO_CONTEXT;
    for (Version v : versions) {
      const EGLint desktopAttribs[] = {EGL_CONTEXT_MAJOR_VERSION, v.major, EGL_CONTEXT_MINOR_VERSION, v.minor,
                                       EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                       EGL_CONTEXT_OPENGL_DEBUG, debug ? EGL_TRUE : EGL_FALSE, EGL_NONE};
      const EGLint esAttribs[] = {EGL_CONTEXT_MAJOR_VERSION, v.major, EGL_CONTEXT_MINOR_VERSION, v.minor,
                                  EGL_CONTEXT_OPENGL_DEBUG, debug ? EGL_TRUE : EGL_FALSE, EGL_NONE};
      const EGLContext share = options.shareWith ? static_cast<EGLContext>(options.shareWith->m_context) : EGL_NO_CONTEXT;
      ctx = eglCreateContext(c.display, config, share, m_request.es ? esAttribs : desktopAttribs);
      if (ctx != EGL_NO_CONTEXT) {
        break;
      }
    }
    if (ctx == EGL_NO_CONTEXT) {
      notes += c.description + ": no " + m_request.name() + " context (" + eglErrorText() + "); ";
      terminateUnused(c.display);
      continue;
    }
    EGLSurface surface = EGL_NO_SURFACE;
    if (!surfaceless) {
      const EGLint pb[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
      surface = eglCreatePbufferSurface(c.display, config, pb);
    }
    if (!eglMakeCurrent(c.display, surface, surface, ctx)) {
      notes += c.description + ": eglMakeCurrent failed (" + eglErrorText() + "); ";
      if (surface != EGL_NO_SURFACE) eglDestroySurface(c.display, surface);
      eglDestroyContext(c.display, ctx);
      terminateUnused(c.display);
      continue;
    }
    m_display = c.display;
    m_context = ctx;
    m_surface = surface;
    m_deviceDescription = c.description;
    useDisplay(c.display);
    try {
      // The entry points are the process's: loaded for the first context, and again only for
      // a context of a higher version or of the other API, so that a context made here does
      // not rewrite the pointers another thread is calling through.
      if (!contextIsCurrent()) {
        loadGl(reinterpret_cast<void* (*)(const char*)>(eglGetProcAddress));
      } else {
        loadGlForCurrentContext();
      }
    } catch (const Error& e) {
      throw Error("HeadlessContext: " + c.description + ": " + e.what());
    }
    const GLubyte* given = glGetString(GL_VERSION);
    m_description = c.description + ", asked for " + m_request.name() + ", got " +
                    (given ? reinterpret_cast<const char*>(given) : "an unknown version") + (debug ? " (debug)" : "");
    if (debug) enableDebugOutput();
    return;
  }
  throw Error("HeadlessContext: no EGL display gave " + m_request.name() + " context: " +
              (notes.empty() ? std::string("no candidates") : notes));
}

void HeadlessContext::makeCurrent() {
  eglMakeCurrent(static_cast<EGLDisplay>(m_display), static_cast<EGLSurface>(m_surface),
                 static_cast<EGLSurface>(m_surface), static_cast<EGLContext>(m_context));
}

HeadlessContext::~HeadlessContext() {
  if (!m_display) return;
  EGLDisplay d = static_cast<EGLDisplay>(m_display);
  // The context that was current before, made current again afterwards (unless it is this).
  const EGLDisplay previousDisplay = eglGetCurrentDisplay();
  const EGLContext previous = eglGetCurrentContext();
  const EGLSurface previousDraw = eglGetCurrentSurface(EGL_DRAW), previousRead = eglGetCurrentSurface(EGL_READ);
  makeCurrent();
  try {
    releaseCurrentContext();
  } catch (const Error& e) {
    std::fprintf(stderr, "texstream: ~HeadlessContext: %s\n", e.what());
  }
  eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  if (m_surface) eglDestroySurface(d, static_cast<EGLSurface>(m_surface));
  eglDestroyContext(d, static_cast<EGLContext>(m_context));
  if (leaveDisplay(d)) eglTerminate(d);
  if (previous != EGL_NO_CONTEXT && previous != static_cast<EGLContext>(m_context))
    eglMakeCurrent(previousDisplay, previousDraw, previousRead, previous);
}

}  // namespace texstream::gl
