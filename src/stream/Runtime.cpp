#include <texstream/stream/Runtime.h>

#include <texstream/gl/Buffer.h>
#include <texstream/gl/Context.h>
#include <texstream/gl/ContextRecord.h>
#include <texstream/gl/Debug.h>
#include <texstream/gl/Error.h>
#include <texstream/gl/Framebuffer.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/gl/Texture.h>
#include <texstream/stream/KernelCache.h>
#include <texstream/stream/Profiler.h>
#include <texstream/stream/TexturePool.h>

#include <cstdlib>
#include <vector>

#include <glad/gl.h>

namespace texstream::stream {

/// What the contexts of one share group share: programs, pooled textures and buffers
/// (gl/ContextRecord.h keeps it as the group's `shared`).
struct SharedObjects {
  KernelCache kernels;
  TexturePool pool;
  std::unique_ptr<gl::Texture> unitScalar;
  std::unique_ptr<gl::Buffer> reductionScratch;
};

Runtime& Runtime::current() {
  gl::ContextRecord& record = gl::currentRecord();
  if (!record.runtime) record.runtime = std::shared_ptr<Runtime>(new Runtime(record));
  return *static_cast<Runtime*>(record.runtime.get());
}

void Runtime::shutdown() { gl::releaseCurrentContext(); }

bool Runtime::exists() noexcept {
  const gl::ContextRecord* record = gl::findCurrentRecord();
  return record && record->runtime;
}

void Runtime::recycle(gl::Texture&& texture) noexcept {
  if (texture.id() == 0) return;
  try {
    gl::ContextRecord* record = gl::findCurrentRecord();
    if (record && record->runtime && texture.owner().isCurrent()) {
      static_cast<Runtime*>(record->runtime.get())->pool().release(std::move(texture));
      return;
    }
  } catch (...) {
  }
  gl::Texture gone(std::move(texture));  // released by its owner (gl::ObjectOwner)
}

Runtime::Runtime(gl::ContextRecord& record) : m_caps(record.caps()) {
  // Debug output is a setting of each context.
  if (gl::debugRequestedByEnvironment()) gl::enableDebugOutput();
  gl::StateGuard guard;
  gl::ShareGroup& group = record.group();
  if (!group.shared) {
    auto shared = std::make_shared<SharedObjects>();
    shared->unitScalar = std::make_unique<gl::Texture>(1, 1, gl::TextureFormat::RGBA32F, "texstream.one");
    shared->unitScalar->fill(1.0f);
    group.shared = shared;
  }
  m_shared = std::static_pointer_cast<SharedObjects>(group.shared);
  m_profiler = std::make_unique<Profiler>();
  m_framebuffer = std::make_unique<gl::Framebuffer>("texstream.passes");
  m_vao = std::make_unique<gl::VertexArray>("texstream.empty");
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

KernelCache& Runtime::kernels() { return m_shared->kernels; }
TexturePool& Runtime::pool() { return m_shared->pool; }
const gl::Texture& Runtime::unitScalar() const { return *m_shared->unitScalar; }

Backend Runtime::backend() const { return m_override ? *m_override : m_defaultBackend; }

void Runtime::requireBackend(Backend b) const {
  if (b == Backend::Compute && !m_caps.compute) {
    throw gl::Error("the compute backend needs " + m_caps.computeMissing() + "; this context is " +
                    m_caps.apiName() + " (" + m_caps.version + ") on " + m_caps.renderer +
                    ": use the fragment backend (or auto)");
  }
}

void Runtime::setDefaultBackend(Backend b) {
  requireBackend(b);
  m_defaultBackend = b;
}

unsigned int Runtime::reductionScratch() {
  std::unique_ptr<gl::Buffer>& scratch = m_shared->reductionScratch;
  if (!scratch) {
    // 16 bytes of counter (padded to the vec4 alignment of std430), then the partials: two
    // vec4 per group, for double-float reductions' (head, tail) pairs.
    const std::size_t bytes = 16 + 2 * std::size_t(kReductionMaxGroups) * 16;
    const std::vector<unsigned char> zeros(bytes, 0);
    scratch = std::make_unique<gl::Buffer>("texstream.reduction.scratch", bytes, zeros.data(), GL_DYNAMIC_COPY);
  }
  return scratch->id();
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
