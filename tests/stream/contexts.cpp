// Tests gl/Context.* and stream/Runtime.* in a host's contexts: two contexts on one thread,
// shared and not; contexts on several threads at once; a context destroyed without
// texstream::shutdown() and its handle (or the host's key) given to a new one; calls with no
// context current; the host's keys (ContextScope) and their misuse. Each solve is checked
// by its true residual on the CPU, on every backend the suite runs. ctest runs this file
// again with TEXSTREAM_CONTEXT_KEYS=host (no window-system handle read: contexts are told
// apart by the mark texstream leaves in each, and by the host's keys).
#include <catch2/catch.hpp>

#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/gl/Context.h>
#include <texstream/gl/Error.h>
#include <texstream/gl/HeadlessContext.h>
#include <texstream/linalg/PointMatrix.h>
#include <texstream/linalg/StencilMatrix.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/solvers/krylov/ConjugateGradient.h>
#include <texstream/stream/KernelCache.h>
#include <texstream/stream/Runtime.h>
#include <texstream/stream/Vector.h>

#include <glad/egl.h>
#include <glad/gl.h>

#include <barrier>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <thread>
#include <vector>

using namespace texstream;

namespace {

bool hostKeysOnly() {
  const char* v = std::getenv("TEXSTREAM_CONTEXT_KEYS");
  return v && std::strcmp(v, "host") == 0;
}

// -Δ u = f on an nx x ny grid (Dirichlet, h = 1) by CG on `backend`; returns the true
// relative residual ||f - A u|| / ||f||, computed on the CPU in double.
double poissonResidual(stream::Backend backend, std::size_t nx, std::size_t ny, std::uint64_t seed,
                       solvers::SolverStatus* status = nullptr) {
  const std::size_t n = nx * ny;
  const std::vector<float> f = test::randomFloats(n, seed, 0.5f, 1.5f);
  auto A = linalg::StencilMatrix::poisson2D(nx, ny, "A");
  stream::Vector b(n, "b"), u(n, "u");
  b.upload(f);
  u.upload(std::vector<float>(n, 0.0f));
  solvers::CgOptions options;
  // f > 0 makes u large against f: float's floor for the true residual is near 1e-5 on the
  // largest grid here (33 x 29), and the verdict is the true residual's (a tolerance below
  // the floor ends stagnated).
  options.tolerance = 5e-5f;
  options.maxIterations = 1000;
  options.backend = backend;
  const solvers::SolverStatus s = solvers::cg(A, b, u, options);
  if (status) *status = s;
  const std::vector<float> x = u.download();
  auto at = [&](long i, long j) {
    return i < 0 || j < 0 || i >= long(nx) || j >= long(ny) ? 0.0 : double(x[std::size_t(j) * nx + std::size_t(i)]);
  };
  double r2 = 0, f2 = 0;
  for (std::size_t j = 0; j < ny; ++j) {
    for (std::size_t i = 0; i < nx; ++i) {
      const double Au = 4 * at(long(i), long(j)) - at(long(i) - 1, long(j)) - at(long(i) + 1, long(j)) -
                        at(long(i), long(j) - 1) - at(long(i), long(j) + 1);
      const double r = double(f[j * nx + i]) - Au;
      r2 += r * r;
      f2 += double(f[j * nx + i]) * double(f[j * nx + i]);
    }
  }
  return std::sqrt(r2 / f2);
}

double cpuDot(const std::vector<float>& a, const std::vector<float>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += double(a[i]) * double(b[i]);
  return s;
}

// A context made by the host itself through EGL, on the test context's display, of the
// same API and version: texstream is told nothing about it.
class HostEglContext {
 public:
  explicit HostEglContext(EGLContext share = EGL_NO_CONTEXT) {
    test::context();
    const gl::Capabilities& caps = gl::capabilities();
    m_display = eglGetCurrentDisplay();
    eglBindAPI(caps.es ? EGL_OPENGL_ES_API : EGL_OPENGL_API);
    const EGLint desktop[] = {EGL_CONTEXT_MAJOR_VERSION, caps.major, EGL_CONTEXT_MINOR_VERSION, caps.minor,
                              EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    const EGLint es[] = {EGL_CONTEXT_MAJOR_VERSION, caps.major, EGL_CONTEXT_MINOR_VERSION, caps.minor, EGL_NONE};
    m_context = eglCreateContext(m_display, EGL_NO_CONFIG_KHR, share, caps.es ? es : desktop);
    REQUIRE(m_context != EGL_NO_CONTEXT);
    makeCurrent();
  }
  ~HostEglContext() { destroy(); }
  void makeCurrent() { REQUIRE(eglMakeCurrent(m_display, EGL_NO_SURFACE, EGL_NO_SURFACE, m_context)); }
  // What a host does: no texstream::shutdown(), no context left current.
  void destroy() {
    if (m_context == EGL_NO_CONTEXT) return;
    eglMakeCurrent(m_display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(m_display, m_context);
    m_context = EGL_NO_CONTEXT;
  }
  EGLContext handle() const { return m_context; }

 private:
  EGLDisplay m_display = EGL_NO_DISPLAY;
  EGLContext m_context = EGL_NO_CONTEXT;
};

// A context the host makes on an EGL display of its own (Mesa's surfaceless platform), not
// on the test context's: on Mesa, another display is another driver screen. API and
// version as `caps` says.
class OwnDisplayContext {
 public:
  OwnDisplayContext(EGLDisplay display, const gl::Capabilities& caps) : m_display(display) {
    eglBindAPI(caps.es ? EGL_OPENGL_ES_API : EGL_OPENGL_API);
    const EGLint desktop[] = {EGL_CONTEXT_MAJOR_VERSION, caps.major, EGL_CONTEXT_MINOR_VERSION, caps.minor,
                              EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    const EGLint es[] = {EGL_CONTEXT_MAJOR_VERSION, caps.major, EGL_CONTEXT_MINOR_VERSION, caps.minor, EGL_NONE};
    m_context = eglCreateContext(m_display, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, caps.es ? es : desktop);
    if (m_context == EGL_NO_CONTEXT || !eglMakeCurrent(m_display, EGL_NO_SURFACE, EGL_NO_SURFACE, m_context))
      throw gl::Error("OwnDisplayContext: no " + caps.apiName() + " context on the surfaceless display");
  }
  // What a careful host does: texstream::shutdown(), then the context goes.
  ~OwnDisplayContext() {
    try {
      stream::Runtime::shutdown();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "~OwnDisplayContext: %s\n", e.what());
    }
    eglMakeCurrent(m_display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(m_display, m_context);
  }
  OwnDisplayContext(const OwnDisplayContext&) = delete;
  OwnDisplayContext& operator=(const OwnDisplayContext&) = delete;

 private:
  EGLDisplay m_display;
  EGLContext m_context = EGL_NO_CONTEXT;
};

// Mesa's surfaceless platform display, initialized; terminated when this goes.
class SurfacelessDisplay {
 public:
  SurfacelessDisplay() {
    const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    REQUIRE((client && std::strstr(client, "EGL_MESA_platform_surfaceless")));
    m_display = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    REQUIRE(m_display != EGL_NO_DISPLAY);
    // Not the test context's display: terminating it below must not end that context.
    REQUIRE(m_display != eglGetCurrentDisplay());
    EGLint major = 0, minor = 0;
    REQUIRE(eglInitialize(m_display, &major, &minor));
  }
  ~SurfacelessDisplay() { eglTerminate(m_display); }
  SurfacelessDisplay(const SurfacelessDisplay&) = delete;
  SurfacelessDisplay& operator=(const SurfacelessDisplay&) = delete;
  EGLDisplay get() const { return m_display; }

 private:
  EGLDisplay m_display = EGL_NO_DISPLAY;
};

}  // namespace

TEST_CASE("two contexts on one thread, alternating CG solves, each right on every backend", "[gl][contexts]") {
  test::context();
  for (const stream::Backend backend : test::backends()) {
    INFO("backend " << stream::backendName(backend));
    gl::HeadlessContext a, b;
    a.makeCurrent();
    stream::Runtime& ra = stream::Runtime::current();
    b.makeCurrent();
    stream::Runtime& rb = stream::Runtime::current();
    const gl::ContextCounts before = gl::contextCounts();
    REQUIRE(&ra != &rb);
    REQUIRE(&ra.framebuffer() != &rb.framebuffer());
    REQUIRE(&ra.kernels() != &rb.kernels());  // not a share group: programs of their own
    for (int round = 0; round < 3; ++round) {
      for (gl::HeadlessContext* c : {&a, &b}) {
        c->makeCurrent();
        solvers::SolverStatus status;
        const double residual = poissonResidual(backend, 33, 29, std::uint64_t(10 * round + (c == &a ? 1 : 2)), &status);
        INFO("round " << round << (c == &a ? ", context a" : ", context b") << ": " << status.message);
        CHECK(status.converged());
        CHECK(residual < 1e-4);
      }
    }
    CHECK(gl::contextCounts().contexts == before.contexts);
    CHECK(gl::contextCounts().staleRecords == before.staleRecords);
  }
}

TEST_CASE("contexts of one share group share textures and programs, not framebuffers", "[gl][contexts]") {
  test::context();
  for (const stream::Backend backend : test::backends()) {
    INFO("backend " << stream::backendName(backend));
    gl::HeadlessContext a;
    gl::HeadlessOptions sharing;
    sharing.shareWith = &a;
    gl::HeadlessContext b(sharing);
    const std::size_t n = 4097;
    const std::vector<float> xs = test::randomFloats(n, 71), ys = test::randomFloats(n, 72);

    a.makeCurrent();
    stream::BackendScope scopeA(backend);
    stream::Vector x(n, "x"), y(n, "y");
    x.upload(xs);
    stream::Runtime& ra = stream::Runtime::current();
    b.makeCurrent();
    stream::BackendScope scopeB(backend);
    stream::Runtime& rb = stream::Runtime::current();
    CHECK(&ra != &rb);
    CHECK(&ra.framebuffer() != &rb.framebuffer());
    CHECK(&ra.kernels() == &rb.kernels());
    CHECK(&ra.pool() == &rb.pool());

    // Written in b, read in a, and the other way round, with no call in between.
    y.upload(ys);
    CHECK(std::abs(linalg::dot(x, y) - cpuDot(xs, ys)) <= 1e-4 * std::max(1.0, std::abs(cpuDot(xs, ys))));
    linalg::axpy(2.0f, x, y);  // y = 2 x + y, in b
    a.makeCurrent();
    std::vector<float> expected(n);
    for (std::size_t i = 0; i < n; ++i) expected[i] = 2.0f * xs[i] + ys[i];
    CHECK(test::maxRelativeError(y.download(), test::toDouble(expected)) < 1e-6);
    const std::size_t programs = ra.kernels().size();
    b.makeCurrent();
    CHECK(std::abs(linalg::dot(y, y) - cpuDot(expected, expected)) <= 1e-4 * cpuDot(expected, expected));
    CHECK(ra.kernels().size() == programs);  // b compiled nothing a had compiled

    for (gl::HeadlessContext* c : {&a, &b, &a}) {
      c->makeCurrent();
      solvers::SolverStatus status;
      const double residual = poissonResidual(backend, 31, 17, c == &a ? 3 : 4, &status);
      INFO((c == &a ? "context a: " : "context b: ") << status.message);
      CHECK(status.converged());
      CHECK(residual < 1e-4);
    }

    // A point matrix made in a runs in b (its vertex buffer is shared, its vertex arrays are
    // made per context).
    a.makeCurrent();
    const std::vector<linalg::PointMatrix::Entry> entries = {{0, 1, 2.0f}, {1, 0, -1.0f}, {2, 2, 0.5f}};
    if (gl::capabilities().floatBlending) {
      linalg::PointMatrix P(3, 3, entries, "P");
      stream::Vector px(3, "px"), py(3, "py");
      px.upload(std::vector<float>{1.0f, 2.0f, 3.0f});
      b.makeCurrent();
      P.apply(px, py);
      const std::vector<float> got = py.download();
      CHECK(got == std::vector<float>{4.0f, -1.0f, 1.5f});
    }
  }
}

TEST_CASE("a texture of a context that shares nothing with the current one is refused by name", "[gl][contexts]") {
  test::context();
  gl::HeadlessContext a, b;
  a.makeCurrent();
  stream::Vector x(100, "x.of.a");
  x.upload(test::randomFloats(100, 5));
  b.makeCurrent();
  stream::Vector y(100, "y.of.b");
  REQUIRE_THROWS_WITH(linalg::dot(x, x), Catch::Contains("\"x.of.a\"") && Catch::Contains("does not share objects") &&
                                             Catch::Contains("share group of"));
  REQUIRE_THROWS_WITH(linalg::copy(x, y), Catch::Contains("\"x.of.a\""));
  REQUIRE_THROWS_WITH(x.download(), Catch::Contains("Texture::download(\"x.of.a\")"));
  REQUIRE_THROWS_WITH(x.upload(test::randomFloats(100, 6)), Catch::Contains("Texture::upload(\"x.of.a\")"));
  a.makeCurrent();
  CHECK(std::abs(linalg::dot(x, x)) > 0);  // still fine where it belongs
}

TEST_CASE("an object destroyed while another context is current deletes nothing there", "[gl][contexts]") {
  test::context();
  gl::HeadlessContext a;
  auto x = std::make_unique<stream::Vector>(64, "x");
  const GLuint name = x->texture().id();
  gl::HeadlessContext b;  // current now, shares nothing with a
  // The host's own textures in b, up to one of x's name, holding 42.
  std::vector<GLuint> hostTextures;
  const float fortyTwo[4] = {42.0f, 42.0f, 42.0f, 42.0f};
  for (int guard = 0; guard < 4096; ++guard) {
    GLuint t = 0;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, 1, 1, 0, GL_RGBA, GL_FLOAT, fortyTwo);
    hostTextures.push_back(t);
    if (t >= name) break;
  }
  glBindTexture(GL_TEXTURE_2D, 0);
  REQUIRE(std::find(hostTextures.begin(), hostTextures.end(), name) != hostTextures.end());
  x.reset();  // with b current: a's texture of that name waits for a
  CHECK(glIsTexture(name));
  {
    // The host's texture still holds 42.
    GLuint fbo = 0;
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, name, 0);
    float got[4] = {0, 0, 0, 0};
    glReadPixels(0, 0, 1, 1, GL_RGBA, GL_FLOAT, got);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fbo);
    CHECK(got[0] == 42.0f);
  }
  a.makeCurrent();
  CHECK(glIsTexture(name));
  stream::Vector y(4, "y");  // the next texstream call in a deletes it
  CHECK_FALSE(glIsTexture(name));
  b.makeCurrent();
  CHECK(glIsTexture(name));
  glDeleteTextures(GLsizei(hostTextures.size()), hostTextures.data());
}

TEST_CASE("a context destroyed without shutdown() poisons nothing, whatever handle the next one gets", "[gl][contexts]") {
  test::context();
  for (const stream::Backend backend : test::backends()) {
    INFO("backend " << stream::backendName(backend));
    const void* key = &backend;  // the host's name for "the viewport's context"
    EGLContext first = EGL_NO_CONTEXT;
    {
      HostEglContext c;
      first = c.handle();
      gl::ContextScope scope(key);
      CHECK(poissonResidual(backend, 25, 25, 11) < 1e-4);
      // The host destroys the context: no shutdown(), and the scope's key stays the host's.
    }
    const gl::ContextCounts before = gl::contextCounts();
    HostEglContext c;
    const bool reused = c.handle() == first;
    INFO("the new context " << (reused ? "got the destroyed one's handle" : "has a handle of its own"));
    if (hostKeysOnly() || reused) {
      gl::ContextScope scope(key);
      CHECK(gl::contextCounts().staleRecords == before.staleRecords + 1);
      CHECK(poissonResidual(backend, 25, 25, 12) < 1e-4);
    } else {
      // The key still names the destroyed context: texstream cannot know it is gone.
      REQUIRE_THROWS_WITH(gl::ContextScope(key), Catch::Contains("forgetContext") && Catch::Contains("is current"));
      gl::forgetContext(key);
      gl::ContextScope scope(key);
      CHECK(poissonResidual(backend, 25, 25, 12) < 1e-4);
    }
    // Without a key at all, the same: a third context, texstream told nothing.
    c.destroy();
    HostEglContext d;
    CHECK(poissonResidual(backend, 25, 25, 13) < 1e-4);
    gl::releaseCurrentContext();
    gl::forgetContext(key);
  }
}

TEST_CASE("contexts made and destroyed in turn, texstream told nothing: each solve right", "[gl][contexts]") {
  test::context();
  const stream::Backend backend = test::backends().front();
  std::vector<EGLContext> seen;
  std::size_t reused = 0;
  const std::size_t staleBefore = gl::contextCounts().staleRecords;
  for (int k = 0; k < 12; ++k) {
    HostEglContext c;
    if (std::find(seen.begin(), seen.end(), c.handle()) != seen.end()) ++reused;
    seen.push_back(c.handle());
    CHECK(poissonResidual(backend, 13, 11, std::uint64_t(k)) < 1e-4);
  }
  // Where the window system handed a destroyed context's handle to a new one, texstream
  // found the record stale (by its mark) rather than using the dead context's objects.
  INFO(reused << " of 12 contexts got the handle of a destroyed one");
  CHECK(gl::contextCounts().staleRecords - staleBefore >= (hostKeysOnly() ? 0 : reused));
  for (EGLContext h : seen) gl::forgetContext(h);
}

TEST_CASE("calls with no context current, after the host destroyed it, fail clearly and never crash", "[gl][contexts]") {
  test::context();
  auto c = std::make_unique<HostEglContext>();
  auto x = std::make_unique<stream::Vector>(100, "x");
  x->upload(test::randomFloats(100, 3));
  auto A = std::make_unique<linalg::StencilMatrix>(linalg::StencilMatrix::poisson2D(10, 10, "A"));
  auto u = std::make_unique<stream::Vector>(100, "u");
  c->destroy();
  REQUIRE_THROWS_WITH(linalg::dot(*x, *x), Catch::Contains("no current OpenGL context"));
  REQUIRE_THROWS_WITH(x->download(), Catch::Contains("no current OpenGL context"));
  stream::Vector y;  // an empty vector needs no context
  REQUIRE_THROWS_WITH(solvers::cg(*A, *x, *u, {}), Catch::Contains("no current OpenGL context"));
  REQUIRE_THROWS_WITH(gl::ContextScope(&c), Catch::Contains("no current OpenGL context"));
  CHECK(gl::currentContextName() == "no current OpenGL context");
  gl::releaseCurrentContext();  // nothing to do, no crash
  x.reset();
  u.reset();
  A.reset();
  c.reset();
  test::context();
  CHECK(poissonResidual(test::backends().front(), 9, 9, 1) < 1e-4);
}

TEST_CASE("ContextScope and makeCurrent: misuse is named", "[gl][contexts]") {
  // test::backends() makes the test's own context current: asked once, first.
  const stream::Backend backend = test::backends().front();
  gl::HeadlessContext a, b;
  a.makeCurrent();
  {
    gl::ContextScope scope(&a);
    REQUIRE_THROWS_WITH(gl::ContextScope(&b), Catch::Contains("opened inside ContextScope") &&
                                                  Catch::Contains("nested scopes must name the same context"));
    gl::ContextScope same(&a);  // the same key nests
    REQUIRE_THROWS_WITH(gl::makeCurrent(&b), Catch::Contains("is open on this thread"));
    CHECK(poissonResidual(backend, 12, 12, 1) < 1e-4);
  }
  REQUIRE_THROWS_WITH(gl::ContextScope(nullptr), Catch::Contains("the key is null"));
  b.makeCurrent();
  {
    gl::ContextScope scope(&b);
    CHECK(poissonResidual(backend, 12, 12, 2) < 1e-4);
  }
  // a's key while b is current.
  REQUIRE_THROWS_WITH(gl::ContextScope(&a), Catch::Contains("ContextScope(0x") &&
                                                (Catch::Contains("is current") || Catch::Contains("the current context")));
  // makeCurrent: the same checks, kept until the next one.
  REQUIRE_THROWS_WITH(gl::makeCurrent(&a), Catch::Contains("texstream::makeCurrent(0x"));
  gl::makeCurrent(&b);
  CHECK(poissonResidual(backend, 12, 12, 3) < 1e-4);
  a.makeCurrent();
  gl::makeCurrent(&a);
  CHECK(poissonResidual(backend, 12, 12, 4) < 1e-4);
  gl::makeCurrent(nullptr);
  CHECK(gl::currentContextName().find(hostKeysOnly() ? "this thread's context" : "EGL context 0x") == 0);
}

// On Mesa's llvmpipe two threads must not draw at once in unshared contexts of one display:
// a draw that binds a texture, or an upload that maps one, walks (llvmpipe_flush_resource)
// the binned scenes of every context of the display's screen and reads a resource list that
// the other thread is resetting (SIGSEGV in swrast_dri.so). tests/drivers/llvmpipe_threads.c,
// plain EGL and GL, crashes the same way on one display, with or without LP_NUM_THREADS=0,
// and never with a display for each thread (Mesa 22.3.6; counts in docs/hosts.md, Threads). So on llvmpipe the second thread's unshared context is the host's own, on Mesa's
// surfaceless platform (another display, another screen); elsewhere it is a HeadlessContext
// of the same display. A share group lives on one display; texstream serializes its calls.
TEST_CASE("contexts on two threads at once: unshared run side by side, shared are serialized", "[gl][contexts]") {
  test::context();
  const stream::Backend backend = test::backends().back();
  const gl::Capabilities caps = gl::capabilities();
  const bool llvmpipe = caps.renderer.find("llvmpipe") != std::string::npos;
  for (const bool shared : {false, true}) {
    INFO((shared ? "one share group" : "two share groups"));
    const bool ownDisplay = llvmpipe && !shared;
    std::optional<SurfacelessDisplay> surfaceless;
    if (ownDisplay) surfaceless.emplace();
    std::unique_ptr<gl::HeadlessContext> first;
    std::barrier started(2);
    double residuals[2][4] = {};
    auto worker = [&](int index) {
      try {
        std::unique_ptr<gl::HeadlessContext> own;
        std::unique_ptr<OwnDisplayContext> host;
        if (index == 0) {
          first = std::make_unique<gl::HeadlessContext>();
        }
        started.arrive_and_wait();
        if (index == 1) {
          gl::HeadlessOptions options;
          if (shared) options.shareWith = first.get();
          if (ownDisplay) {
            host = std::make_unique<OwnDisplayContext>(surfaceless->get(), caps);
          } else {
            own = std::make_unique<gl::HeadlessContext>(options);
          }
        }
        for (int k = 0; k < 4; ++k) residuals[index][k] = poissonResidual(backend, 21 + 2 * index, 23, std::uint64_t(100 * index + k));
        started.arrive_and_wait();
        host.reset();
        own.reset();
        if (index == 0) first.reset();
      } catch (const std::exception& e) {
        FAIL_CHECK("thread " << index << ": " << e.what());
        started.arrive_and_drop();
      }
    };
    std::thread t0(worker, 0), t1(worker, 1);
    t0.join();
    t1.join();
    for (int index = 0; index < 2; ++index)
      for (int k = 0; k < 4; ++k) CHECK(residuals[index][k] < 1e-4);
  }
  test::context();
}

TEST_CASE("each context keeps the state its host left in it", "[gl][contexts]") {
  const stream::Backend backend = test::backends().front();
  gl::HeadlessContext a, b;
  struct HostState {
    GLint viewport[4];
    GLint texture0;
    GLboolean blend;
  };
  auto read = [] {
    HostState s{};
    glGetIntegerv(GL_VIEWPORT, s.viewport);
    GLint unit = 0;
    glGetIntegerv(GL_ACTIVE_TEXTURE, &unit);
    glActiveTexture(GL_TEXTURE0);
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &s.texture0);
    glActiveTexture(GLenum(unit));
    s.blend = glIsEnabled(GL_BLEND);
    return s;
  };
  GLuint hostTexture[2] = {0, 0};
  HostState set[2];
  for (int i = 0; i < 2; ++i) {
    (i == 0 ? a : b).makeCurrent();
    glGenTextures(1, &hostTexture[i]);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, hostTexture[i]);
    glViewport(3 + i, 5, 101 + i, 77);
    if (i == 0) glEnable(GL_BLEND);
    set[i] = read();
  }
  for (int round = 0; round < 2; ++round) {
    for (int i = 0; i < 2; ++i) {
      (i == 0 ? a : b).makeCurrent();
      CHECK(poissonResidual(backend, 15, 15, std::uint64_t(round * 2 + i)) < 1e-4);
      const HostState now = read();
      CHECK(std::memcmp(now.viewport, set[i].viewport, sizeof now.viewport) == 0);
      CHECK(now.texture0 == set[i].texture0);
      CHECK(now.blend == set[i].blend);
    }
  }
}
