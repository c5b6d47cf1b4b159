// A headless host: the program makes its own EGL context (no window system, and not
// texstream::HeadlessContext), solves a Poisson problem with texstream's CG in it, draws
// the answer with its own shader into its own framebuffer, and checks the answer, the
// drawing and its GL state. Then it does what hosts do: it destroys the context without
// texstream::shutdown() and makes a new one, in which texstream must start afresh.
#include <texstream/texstream.h>

#include <glad/gl.h>

#include <EGL/egl.h>
#include <EGL/eglext.h>

#include "HostExample.h"
#include "HostGl.h"

#include <algorithm>
#include <cstring>

namespace {

example::Checks check{"texstream-example-egl"};

// EGL's device platform (the first device; Mesa's software one on a machine without a GPU),
// else the default display.
EGLDisplay openDisplay() {
  auto queryDevices = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
  auto platformDisplay = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
  EGLDeviceEXT device = nullptr;
  EGLint count = 0;
  EGLDisplay display = EGL_NO_DISPLAY;
  if (queryDevices && platformDisplay && queryDevices(1, &device, &count) && count > 0)
    display = platformDisplay(EGL_PLATFORM_DEVICE_EXT, device, nullptr);
  if (display == EGL_NO_DISPLAY) display = eglGetDisplay(EGL_DEFAULT_DISPLAY);
  if (display == EGL_NO_DISPLAY || !eglInitialize(display, nullptr, nullptr)) {
    std::printf("texstream-example-egl: no EGL display\n");
    std::exit(1);
  }
  return display;
}

// A desktop OpenGL 3.3 core context (or newer), current with no surface.
EGLContext makeContext(EGLDisplay display) {
  eglBindAPI(EGL_OPENGL_API);
  const EGLint attributes[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                               EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
  const EGLContext context = eglCreateContext(display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attributes);
  if (context == EGL_NO_CONTEXT || !eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context)) {
    std::printf("texstream-example-egl: no OpenGL 3.3 core context (EGL error 0x%x)\n", unsigned(eglGetError()));
    std::exit(1);
  }
  return context;
}

// The host's frame: its own framebuffer and state, texstream's solve, its own drawing.
void frame(const char* label, float scale) {
  const int size = 64;
  GLuint target = 0, fbo = 0;
  glGenTextures(1, &target);
  glBindTexture(GL_TEXTURE_2D, target);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, size, size, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, target, 0);
  example::HostRenderer renderer;
  glUseProgram(renderer.program());
  glBindVertexArray(renderer.vertexArray());
  glViewport(0, 0, size, size);
  glEnable(GL_SCISSOR_TEST);
  glScissor(0, 0, size, size);
  glEnable(GL_BLEND);
  glClearColor(0.1f, 0.2f, 0.3f, 1.0f);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  const std::string before = example::hostState();

  const std::vector<texstream::Backend> backends =
      texstream::stream::Runtime::current().caps().compute
          ? std::vector<texstream::Backend>{texstream::Backend::Fragment, texstream::Backend::Compute}
          : std::vector<texstream::Backend>{texstream::Backend::Fragment};
  for (const texstream::Backend backend : backends) {
    const std::string where = std::string(label) + ", " + texstream::stream::backendName(backend) + " backend";
    const example::Poisson problem(48, 40, scale);
    auto A = texstream::StencilMatrix::poisson2D(problem.nx, problem.ny, "A");
    texstream::Vector b(problem.size(), "b"), u(problem.size(), "u");
    b.upload(problem.f);
    texstream::CgOptions options;
    options.tolerance = 5e-5f;  // above float's floor for this problem (about 1e-5): "converged" is the true residual's
    options.maxIterations = 1000;
    options.backend = backend;
    const texstream::SolverStatus status = texstream::cg(A, b, u, options);
    const std::vector<float> x = u.download();
    const double residual = problem.residual(x);
    check(status.converged() && residual < 1e-4,
          where + ": CG " + texstream::solvers::outcomeName(status.outcome) + " after " +
              std::to_string(status.iterations) + " iterations, true residual " + std::to_string(residual));
    const std::string after = example::hostState();
    check(after == before, where + ": the host's state is as it left it" + (after == before ? "" : "\n  before " + before + "\n  after  " + after));

    // The host samples texstream's texture directly.
    const float top = *std::max_element(x.begin(), x.end());
    glClear(GL_COLOR_BUFFER_BIT);
    renderer.draw(u.texture().id(), u.layout().width(), int(problem.nx), int(problem.ny), top);
    const int px = size / 2, py = size / 3;
    const std::size_t i = std::size_t((px + 0.5) / size * double(problem.nx)), j = std::size_t((py + 0.5) / size * double(problem.ny));
    const int expected = int(std::lround(255.0 * x[j * problem.nx + i] / top));
    const int got = example::greyAt(px, py);
    check(std::abs(got - expected) <= 2, where + ": the host drew u from texstream's texture (grey " + std::to_string(got) +
                                             ", expected " + std::to_string(expected) + ")");
    glUseProgram(renderer.program());  // greyAt and draw leave the host's own state
    glBindVertexArray(renderer.vertexArray());
    glBindTexture(GL_TEXTURE_2D, target);
  }
  glDeleteFramebuffers(1, &fbo);
  glDeleteTextures(1, &target);
}

}  // namespace

int main() {
  const EGLDisplay display = openDisplay();
  EGLContext context = makeContext(display);
  // The host's GL functions come from texstream's glad (a host with its own loader calls nothing).
  texstream::gl::loadGl(reinterpret_cast<void* (*)(const char*)>(eglGetProcAddress));
  std::printf("texstream-example-egl: %s on %s\n", reinterpret_cast<const char*>(glGetString(GL_VERSION)),
              reinterpret_cast<const char*>(glGetString(GL_RENDERER)));
  frame("first context", 1.0f);

  // Destroyed without texstream::shutdown(): texstream finds out by itself at the next call.
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(display, context);
  try {
    texstream::Vector v(10, "v");
    check(false, "a call with no context current is refused");
  } catch (const texstream::Error& e) {
    check(std::strstr(e.what(), "no current OpenGL context") != nullptr,
          std::string("a call with no context current is refused: ") + e.what());
  }
  const EGLContext old = context;
  context = makeContext(display);
  std::printf("texstream-example-egl: a new context (%s the destroyed one's handle)\n", context == old ? "with" : "not with");
  frame("second context", 2.0f);
  const texstream::gl::ContextCounts counts = texstream::gl::contextCounts();
  check(counts.contexts >= 1, "texstream holds " + std::to_string(counts.contexts) + " context record(s), " +
                                  std::to_string(counts.staleRecords) + " found stale");

  // The orderly way out: texstream's objects go while their context is current.
  texstream::shutdown();
  check(texstream::gl::contextCounts().contexts + 1 == counts.contexts, "texstream::shutdown() released the context");
  texstream::forgetContext(old);  // the destroyed context texstream could not release
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(display, context);
  eglTerminate(display);
  return check.exitCode();
}
