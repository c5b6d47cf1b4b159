#include <texstream/stream/ElementCopy.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Runtime.h>
#include <texstream/stream/Vector.h>

#include <glad/gl.h>

#include <utility>

namespace texstream::stream {

ElementCopy::ElementCopy(const Layout& layout, std::string name) : m_layout(layout), m_name(std::move(name)) {
  if (layout.texels() == 0) throw gl::Error("ElementCopy(\"" + m_name + "\"): empty layout");
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
