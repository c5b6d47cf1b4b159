#include <texstream/stream/ElementCopy.h>

#include <texstream/gl/Capabilities.h>
#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Runtime.h>
#include <texstream/stream/Vector.h>

#include <glad/gl.h>

#include <cstdint>
#include <utility>

namespace texstream::stream {

namespace {

std::int64_t copyBytes(const Layout& layout) { return std::int64_t(layout.texels()) * 16; }

}  // namespace

bool ElementCopy::fits(const Layout& layout) {
  const gl::Capabilities& caps = Runtime::current().caps();
  return caps.storageBuffers && layout.texels() > 0 && copyBytes(layout) <= caps.maxStorageBlockBytes;
}

ElementCopy::ElementCopy(const Layout& layout, std::string name) : m_layout(layout), m_name(std::move(name)) {
  const std::string where = "ElementCopy(\"" + m_name + "\")";
  if (layout.texels() == 0) throw gl::Error(where + ": empty layout");
  const gl::Capabilities& caps = Runtime::current().caps();
  if (!caps.storageBuffers) throw gl::Error(where + ": " + caps.apiName() + " has no shader storage buffers");
  if (copyBytes(layout) > caps.maxStorageBlockBytes) {
    throw gl::Error(where + ": vectors of " + layout.describe() + " take " + std::to_string(copyBytes(layout)) +
                    " bytes, more than one storage block may span on this context (" +
                    std::to_string(caps.maxStorageBlockBytes) + " bytes" +
                    (caps.driverMaxStorageBlockBytes > 0
                         ? ", TEXSTREAM_MAX_STORAGE_BLOCK_BYTES; the driver allows " +
                               std::to_string(caps.driverMaxStorageBlockBytes)
                         : std::string()) +
                    ")");
  }
  m_buffer = gl::Buffer(m_name, layout.texels() * 16, nullptr, GL_DYNAMIC_COPY);
}

void ElementCopy::requireLayoutOf(const Vector& x, const std::string& where) const {
  if (m_buffer.id() == 0) throw gl::Error(where + ": the element copy is empty (default-constructed)");
  if (!(x.layout() == m_layout)) {
    throw gl::Error(where + ": element copy \"" + m_name + "\" holds vectors of " + m_layout.describe() +
                    ", vector \"" + x.name() + "\" has " + x.layout().describe());
  }
}

void ElementCopy::copyFrom(const Vector& x) {
  const std::string where = "ElementCopy(\"" + m_name + "\").copyFrom";
  requireLayoutOf(x, where);
  if (Runtime::current().backend() != Backend::Compute) {
    throw gl::Error(where + ": element copies are written by compute kernels (the compute backend only)");
  }
  gl::StateGuard guard;
  Pass("stream/copy_elements")
      .label("stream::ElementCopy")
      .input("u_x", x)
      .uniform("u_size", m_layout.width(), m_layout.height())
      .storage(0, m_buffer.id())
      .workgroups((m_layout.width() + 15) / 16, (m_layout.height() + 15) / 16)
      .run();
}

}  // namespace texstream::stream
