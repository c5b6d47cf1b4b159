#include <texstream/stream/Runtime.h>

#include <texstream/gl/Buffer.h>
#include <texstream/gl/Debug.h>
#include <texstream/gl/Error.h>
#include <texstream/gl/Framebuffer.h>
#include <texstream/gl/HeadlessContext.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/gl/Texture.h>
#include <texstream/stream/KernelCache.h>
#include <texstream/stream/Profiler.h>
#include <texstream/stream/TexturePool.h>

#include <cstdlib>
#include <vector>

#include <glad/gl.h>

namespace texstream::stream {

namespace {
// A plain pointer, not a unique_ptr: its GL objects can only be freed while their context
// is current, which thread exit does not guarantee; shutdown() (called by HeadlessContext,
// or by the host before destroying its context) frees it.
thread_local Runtime* t_runtime = nullptr;
}

Runtime& Runtime::current() {
  if (!t_runtime) {
    gl::ensureGlLoaded();
    t_runtime = new Runtime();
#ifndef __EMSCRIPTEN__
    // The browser has no HeadlessContext: the page's WebGL context lives as long as the page.
    gl::HeadlessContext::setTeardownHook(&Runtime::shutdown);
#endif
  }
  return *t_runtime;
}

void Runtime::shutdown() {
  delete t_runtime;
  t_runtime = nullptr;
  gl::forgetCapabilities();
}

bool Runtime::exists() { return t_runtime != nullptr; }

Runtime::Runtime() : m_caps(gl::capabilities()) {
  if (gl::debugRequestedByEnvironment() && !gl::debugOutputEnabled()) gl::enableDebugOutput();
  gl::StateGuard guard;
  m_kernels = std::make_unique<KernelCache>();
  m_pool = std::make_unique<TexturePool>();
  m_profiler = std::make_unique<Profiler>();
  m_framebuffer = std::make_unique<gl::Framebuffer>("texstream.passes");
  m_vao = std::make_unique<gl::VertexArray>("texstream.empty");
  m_unitScalar = std::make_unique<gl::Texture>(1, 1, gl::TextureFormat::RGBA32F, "texstream.one");
  m_unitScalar->fill(1.0f);
  m_defaultBackend = autoBackend(m_caps);
  if (const char* env = std::getenv("TEXSTREAM_BACKEND"); env && *env) {
    try {
      setDefaultBackend(resolveBackend(parseBackendRequest(env), m_caps));
    } catch (const gl::Error& e) {
      throw gl::Error(std::string("TEXSTREAM_BACKEND=") + env + ": " + e.what());
    }
  }
}

Runtime::~Runtime() = default;

Backend Runtime::backend() const { return m_override ? *m_override : m_defaultBackend; }

void Runtime::requireBackend(Backend b) const {
  if (b == Backend::Compute && !m_caps.compute) {
    throw gl::Error("the compute backend needs OpenGL 4.3 or OpenGL ES 3.1 (compute shaders); this context is " +
                    m_caps.apiName() + " (" + m_caps.version + ") on " + m_caps.renderer +
                    (m_caps.disabled.empty() ? "" : ", TEXSTREAM_DISABLE_FEATURES=" + m_caps.disabled) +
                    ": use the fragment backend (or auto)");
  }
}

void Runtime::setDefaultBackend(Backend b) {
  requireBackend(b);
  m_defaultBackend = b;
}

unsigned int Runtime::reductionScratch() {
  if (!m_reductionScratch) {
    // 16 bytes of counter (padded to the vec4 alignment of std430), then the partials: two
    // vec4 per group, for double-float reductions' (head, tail) pairs.
    const std::size_t bytes = 16 + 2 * std::size_t(kReductionMaxGroups) * 16;
    const std::vector<unsigned char> zeros(bytes, 0);
    m_reductionScratch = std::make_unique<gl::Buffer>("texstream.reduction.scratch", bytes, zeros.data(), GL_DYNAMIC_COPY);
  }
  return m_reductionScratch->id();
}

void Runtime::setReductionGroups(int groups) {
  if (groups < 1 || groups > kReductionMaxGroups) {
    throw gl::Error("Runtime::setReductionGroups: expected 1.." + std::to_string(kReductionMaxGroups) + " (got " +
                    std::to_string(groups) + ")");
  }
  m_reductionGroups = groups;
}

void Runtime::setReductionBlock(Backend b, int k) {
  if (k < 2 || k > 64) throw gl::Error("Runtime::setReductionBlock: block edge must be in 2..64 (got " + std::to_string(k) + ")");
  (b == Backend::Fragment ? m_blockFragment : m_blockCompute) = k;
}

}  // namespace texstream::stream
