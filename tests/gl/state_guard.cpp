// Tests src/gl/StateGuard.*: texstream inside a host renderer. The host sets every piece of
// pixel-store, binding and capability state a renderer commonly changes, leaves a GL error
// pending, runs texstream's public operations, and finds its state, its error and correct
// results afterwards, on every backend and context the suite runs on.
#include <catch2/catch.hpp>

#include "linalg/LinalgTestSupport.h"
#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/gl/Capabilities.h>
#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/gl/Texture.h>
#include <texstream/fluid/FluidSolver.h>
#include <texstream/linalg/BcrsMatrix.h>
#include <texstream/linalg/PointMatrix.h>
#include <texstream/linalg/SegmentMatrix.h>
#include <texstream/linalg/StencilMatrix.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/solvers/krylov/ConjugateGradient.h>
#include <texstream/stream/Reduction.h>
#include <texstream/stream/Scalar.h>
#include <texstream/stream/Vector.h>

#include <glad/egl.h>
#include <glad/gl.h>

#include <cmath>
#include <map>
#include <vector>

using namespace texstream;

namespace {

// Pixel-store parameters a host may leave set, with hostile values; desktop-only ones are
// flagged (ES 3.0 lacks them).
struct HostPixelStore {
  GLenum name;
  GLint value;
  bool desktopOnly;
};
const HostPixelStore kHostPixelStore[] = {
    {GL_PACK_ALIGNMENT, 8, false},      {GL_PACK_ROW_LENGTH, 37, false},    {GL_PACK_SKIP_ROWS, 5, false},
    {GL_PACK_SKIP_PIXELS, 3, false},    {GL_PACK_IMAGE_HEIGHT, 9, true},    {GL_PACK_SKIP_IMAGES, 2, true},
    {GL_PACK_SWAP_BYTES, 1, true},      {GL_PACK_LSB_FIRST, 1, true},       {GL_UNPACK_ALIGNMENT, 2, false},
    {GL_UNPACK_ROW_LENGTH, 41, false},  {GL_UNPACK_SKIP_ROWS, 4, false},    {GL_UNPACK_SKIP_PIXELS, 25, false},
    {GL_UNPACK_IMAGE_HEIGHT, 7, false}, {GL_UNPACK_SKIP_IMAGES, 1, false},  {GL_UNPACK_SWAP_BYTES, 1, true},
    {GL_UNPACK_LSB_FIRST, 1, true}};

// "prefix" followed by v in decimal. Appended rather than "literal" + std::to_string(v):
// GCC 12 warns falsely (-Wstringop-overflow) on that operator+ inlined here.
std::string numbered(const char* prefix, unsigned v) {
  std::string label(prefix);
  label += std::to_string(v);
  return label;
}

// Everything the host set, read back from GL.
std::map<std::string, std::vector<GLint>> snapshot(const gl::Capabilities& caps) {
  std::map<std::string, std::vector<GLint>> s;
  auto ints = [&](const char* name, GLenum e, int n) {
    std::vector<GLint> v(std::size_t(n), -12345);
    glGetIntegerv(e, v.data());
    s[name] = v;
  };
  auto enabled = [&](const char* name, GLenum e) { s[name] = {GLint(glIsEnabled(e))}; };
  ints("draw framebuffer", GL_DRAW_FRAMEBUFFER_BINDING, 1);
  ints("read framebuffer", GL_READ_FRAMEBUFFER_BINDING, 1);
  ints("program", GL_CURRENT_PROGRAM, 1);
  ints("vertex array", GL_VERTEX_ARRAY_BINDING, 1);
  ints("array buffer", GL_ARRAY_BUFFER_BINDING, 1);
  ints("pixel pack buffer", GL_PIXEL_PACK_BUFFER_BINDING, 1);
  ints("pixel unpack buffer", GL_PIXEL_UNPACK_BUFFER_BINDING, 1);
  ints("viewport", GL_VIEWPORT, 4);
  ints("scissor box", GL_SCISSOR_BOX, 4);
  ints("active texture", GL_ACTIVE_TEXTURE, 1);
  ints("blend src rgb", GL_BLEND_SRC_RGB, 1);
  ints("blend dst rgb", GL_BLEND_DST_RGB, 1);
  ints("blend src alpha", GL_BLEND_SRC_ALPHA, 1);
  ints("blend dst alpha", GL_BLEND_DST_ALPHA, 1);
  ints("blend equation rgb", GL_BLEND_EQUATION_RGB, 1);
  ints("blend equation alpha", GL_BLEND_EQUATION_ALPHA, 1);
  enabled("blend", GL_BLEND);
  enabled("scissor test", GL_SCISSOR_TEST);
  enabled("depth test", GL_DEPTH_TEST);
  enabled("stencil test", GL_STENCIL_TEST);
  enabled("cull face", GL_CULL_FACE);
  GLboolean mask[4];
  glGetBooleanv(GL_COLOR_WRITEMASK, mask);
  s["colour mask"] = {mask[0], mask[1], mask[2], mask[3]};
  if (!caps.es) {
    ints("polygon mode", GL_POLYGON_MODE, 1);
    enabled("framebuffer sRGB", GL_FRAMEBUFFER_SRGB);
    enabled("program point size", GL_PROGRAM_POINT_SIZE);
  }
  for (const HostPixelStore& p : kHostPixelStore) {
    if (p.desktopOnly && caps.es) continue;
    ints(numbered("pixel store ", p.name).c_str(), p.name, 1);
  }
  GLint active = 0;
  glGetIntegerv(GL_ACTIVE_TEXTURE, &active);
  for (int unit = 0; unit < 8; ++unit) {
    glActiveTexture(GLenum(GL_TEXTURE0 + unit));
    ints(numbered("texture 2D unit ", unsigned(unit)).c_str(), GL_TEXTURE_BINDING_2D, 1);
    ints(numbered("texture 2D array unit ", unsigned(unit)).c_str(), GL_TEXTURE_BINDING_2D_ARRAY, 1);
  }
  glActiveTexture(GLenum(active));
  if (caps.storageBuffers) {
    ints("shader storage buffer", GL_SHADER_STORAGE_BUFFER_BINDING, 1);
    for (GLuint i = 0; i < 2; ++i) {
      GLint b = 0;
      glGetIntegeri_v(GL_SHADER_STORAGE_BUFFER_BINDING, i, &b);
      s[numbered("shader storage binding ", i)] = {b};
    }
  }
  if (caps.imageLoadStore) {
    for (GLuint i = 0; i < 2; ++i) {
      GLint b = 0;
      glGetIntegeri_v(GL_IMAGE_BINDING_NAME, i, &b);
      s[numbered("image unit ", i)] = {b};
    }
  }
  return s;
}

}  // namespace

TEST_CASE("texstream inside a host renderer: the host's state and pending error survive, results are exact",
          "[gl][host]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  const gl::Capabilities& caps = gl::capabilities();
  const std::size_t n = 1237;  // a prime: the last texel is partly padding
  const std::vector<float> xs = test::randomFloats(n, 11), ys = test::randomFloats(n, 12);

  // The host's objects and state.
  GLuint fbo = 0, readFbo = 0, vao = 0, buffers[4] = {}, textures[3] = {};
  glGenFramebuffers(1, &fbo);
  glGenFramebuffers(1, &readFbo);
  glGenVertexArrays(1, &vao);
  glGenBuffers(4, buffers);
  glGenTextures(3, textures);
  gl::Texture hostColor(32, 32, gl::TextureFormat::RGBA8, "host.color");
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, hostColor.id(), 0);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, readFbo);
  glBindVertexArray(vao);
  glBindBuffer(GL_ARRAY_BUFFER, buffers[0]);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, buffers[1]);
  glBufferData(GL_PIXEL_PACK_BUFFER, 64, nullptr, GL_STREAM_READ);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, buffers[2]);
  glBufferData(GL_PIXEL_UNPACK_BUFFER, 64, nullptr, GL_STREAM_DRAW);
  for (int unit : {0, 1, 2, 5, 7}) {
    glActiveTexture(GLenum(GL_TEXTURE0 + unit));
    glBindTexture(GL_TEXTURE_2D, textures[0]);
    glBindTexture(GL_TEXTURE_2D_ARRAY, textures[1]);
  }
  glActiveTexture(GL_TEXTURE3);
  glViewport(3, 4, 17, 19);
  glScissor(1, 2, 5, 6);
  glEnable(GL_SCISSOR_TEST);
  glEnable(GL_BLEND);
  glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ZERO);
  glBlendEquationSeparate(GL_FUNC_SUBTRACT, GL_MAX);
  glEnable(GL_DEPTH_TEST);
  glEnable(GL_STENCIL_TEST);
  glEnable(GL_CULL_FACE);
  glColorMask(GL_TRUE, GL_FALSE, GL_TRUE, GL_FALSE);
  if (!caps.es) {
    glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
    glEnable(GL_FRAMEBUFFER_SRGB);
    glEnable(GL_PROGRAM_POINT_SIZE);
  }
  for (const HostPixelStore& p : kHostPixelStore) {
    if (!(p.desktopOnly && caps.es)) glPixelStorei(p.name, p.value);
  }
  if (caps.storageBuffers) {
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffers[3]);
    glBufferData(GL_SHADER_STORAGE_BUFFER, 64, nullptr, GL_STATIC_DRAW);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buffers[3]);
  }
  if (caps.imageLoadStore) {
    glBindTexture(GL_TEXTURE_2D, textures[2]);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA32F, 4, 4);
    glBindImageTexture(1, textures[2], 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA32F);
    glBindTexture(GL_TEXTURE_2D, textures[0]);  // unit 3 holds the host's texture too
  }
  REQUIRE(glGetError() == GL_NO_ERROR);
  const auto before = snapshot(caps);
  glEnable(0xBAD0);  // the host's pending error: GL_INVALID_ENUM

  // texstream's public operations, each checked against the CPU.
  stream::Vector x(n, "x"), y(n, "y");
  x.upload(xs);
  y.upload(ys);
  REQUIRE(x.download() == xs);
  linalg::axpy(0.5f, x, y);  // y = 0.5 x + y
  const std::vector<float> axpy = y.download();
  REQUIRE(axpy.size() == n);
  for (std::size_t i = 0; i < n; ++i) REQUIRE(std::abs(axpy[i] - (0.5 * xs[i] + ys[i])) <= 1e-6);
  stream::Scalar d("d");
  linalg::dot(x, x, d);
  double reference = 0;
  for (float v : xs) reference += double(v) * double(v);
  REQUIRE(std::abs(d.read() - reference) <= 1e-5 * reference);
  gl::Texture small(3, 5, gl::TextureFormat::R32F, "small");
  const std::vector<float> smallData = test::randomFloats(15, 13);
  small.upload(smallData.data());
  std::vector<float> smallBack(15);
  const gl::Texture* list[] = {&small};
  float* outs[] = {smallBack.data()};
  gl::downloadTextures(list, outs);
  REQUIRE(smallBack == smallData);
  const auto A = linalg::StencilMatrix::poisson2D(9, 7, "host.poisson");
  stream::Vector b(A.rows(), "host.b"), sol(A.rows(), "host.x");
  b.upload(test::randomFloats(A.rows(), 14));
  solvers::CgOptions opts;
  opts.tolerance = 1e-5f;
  REQUIRE(solvers::cg(A, b, sol, opts).converged());
  // Every sparse format's product (the point matrix blends, where the context can).
  const linalg::Csr csr = test::randomCsr(301, 301, 5.0, 15);
  const std::vector<double> xd = test::toDouble(test::randomFloats(301, 16));
  const std::vector<double> yd = csr.multiply(xd);
  stream::Vector sx(301, "host.sx"), sy(301, "host.sy");
  sx.upload(xd);
  linalg::SegmentMatrix(csr, "host.segment").apply(sx, sy);
  REQUIRE(test::maxErrorOver(sy.download(), yd, test::productScale(csr, xd)) <= 1e-6);
  linalg::BcrsMatrix(csr, "host.bcrs", {.blockSize = 2}).apply(sx, sy);
  REQUIRE(test::maxErrorOver(sy.download(), yd, test::productScale(csr, xd)) <= 1e-6);
  if (caps.floatBlending) {
    linalg::PointMatrix::fromCsr(csr, "host.points").apply(sx, sy);
    REQUIRE(test::maxErrorOver(sy.download(), yd, test::productScale(csr, xd)) <= 1e-6);
  }
  // A whole fluid step: advection, forces, the layered multigrid, particles.
  fluid::FluidParameters fluidParams;
  fluidParams.nx = fluidParams.ny = 33;
  fluidParams.particles = 256;
  fluid::FluidSolver fluidSolver(fluidParams);
  fluidSolver.step();

  // The host's error is still pending (and nothing else), and every piece of state is back.
  REQUIRE(glGetError() == GL_INVALID_ENUM);
  REQUIRE(glGetError() == GL_NO_ERROR);
  const auto after = snapshot(caps);
  for (const auto& [name, value] : before) {
    INFO("state: " << name);
    REQUIRE(after.at(name) == value);
  }

  // Back to a neutral state for the other tests in this process.
  for (const HostPixelStore& p : kHostPixelStore) {
    if (!(p.desktopOnly && caps.es)) glPixelStorei(p.name, (p.name == GL_PACK_ALIGNMENT || p.name == GL_UNPACK_ALIGNMENT) ? 4 : 0);
  }
  if (!caps.es) {
    glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    glDisable(GL_FRAMEBUFFER_SRGB);
    glDisable(GL_PROGRAM_POINT_SIZE);
  }
  glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  for (GLenum cap : {GL_SCISSOR_TEST, GL_BLEND, GL_DEPTH_TEST, GL_STENCIL_TEST, GL_CULL_FACE}) glDisable(cap);
  glBlendEquationSeparate(GL_FUNC_ADD, GL_FUNC_ADD);
  glBlendFuncSeparate(GL_ONE, GL_ZERO, GL_ONE, GL_ZERO);
  if (caps.storageBuffers) {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, 0);
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  }
  if (caps.imageLoadStore) glBindImageTexture(1, 0, 0, GL_FALSE, 0, GL_READ_ONLY, GL_RGBA32F);
  glBindVertexArray(0);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  for (int unit = 0; unit < 8; ++unit) {
    glActiveTexture(GLenum(GL_TEXTURE0 + unit));
    glBindTexture(GL_TEXTURE_2D, 0);
    glBindTexture(GL_TEXTURE_2D_ARRAY, 0);
  }
  glActiveTexture(GL_TEXTURE0);
  glDeleteVertexArrays(1, &vao);
  glDeleteFramebuffers(1, &fbo);
  glDeleteFramebuffers(1, &readFbo);
  glDeleteBuffers(4, buffers);
  glDeleteTextures(3, textures);
  REQUIRE(glGetError() == GL_NO_ERROR);
}

TEST_CASE("with the context released, every texstream call says there is no current context", "[gl][host]") {
  test::context();
  stream::Vector kept(10, "kept");
  EGLDisplay display = eglGetCurrentDisplay();
  REQUIRE(display != EGL_NO_DISPLAY);
  REQUIRE(eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT));
  for (int attempt = 0; attempt < 2; ++attempt) {
    INFO("attempt " << attempt);
    REQUIRE_THROWS_WITH(stream::Vector(10, "v"), Catch::Contains("no current OpenGL context"));
    REQUIRE_THROWS_WITH(kept.download(), Catch::Contains("no current OpenGL context"));
  }
  test::context();  // current again: everything works as before
  const std::vector<float> ones(10, 1.0f);
  kept.upload(ones);
  REQUIRE(kept.download() == ones);
}
