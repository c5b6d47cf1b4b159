#include <texstream/gl/Buffer.h>

#include <texstream/gl/Debug.h>
#include <texstream/gl/Error.h>

#include <glad/gl.h>

#include <utility>

namespace texstream::gl {

Buffer::Buffer(std::string name, std::size_t bytes, const void* data, unsigned int usage)
    : m_size(bytes), m_name(std::move(name)) {
  GLint previous = 0;
  glGetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &previous);
  glGenBuffers(1, &m_id);
  // GL_COPY_WRITE_BUFFER is a binding point hosts rarely rely on; restored below anyway.
  glBindBuffer(GL_COPY_WRITE_BUFFER, m_id);
  glBufferData(GL_COPY_WRITE_BUFFER, GLsizeiptr(bytes), data, usage);
  glBindBuffer(GL_COPY_WRITE_BUFFER, GLuint(previous));
  throwOnGlError("Buffer", m_name);  // GL_OUT_OF_MEMORY for huge point matrices
  label(GL_BUFFER, m_id, m_name);
}

Buffer::~Buffer() {
  if (m_id) glDeleteBuffers(1, &m_id);
}

Buffer::Buffer(Buffer&& o) noexcept
    : m_id(std::exchange(o.m_id, 0)), m_size(o.m_size), m_name(std::move(o.m_name)) {}

Buffer& Buffer::operator=(Buffer&& o) noexcept {
  if (this != &o) {
    if (m_id) glDeleteBuffers(1, &m_id);
    m_id = std::exchange(o.m_id, 0);
    m_size = o.m_size;
    m_name = std::move(o.m_name);
  }
  return *this;
}

VertexArray::VertexArray(std::string name) {
  glGenVertexArrays(1, &m_id);
  label(GL_VERTEX_ARRAY, m_id, name);
}

VertexArray::~VertexArray() {
  if (m_id) glDeleteVertexArrays(1, &m_id);
}

VertexArray::VertexArray(VertexArray&& o) noexcept : m_id(std::exchange(o.m_id, 0)) {}

VertexArray& VertexArray::operator=(VertexArray&& o) noexcept {
  if (this != &o) {
    if (m_id) glDeleteVertexArrays(1, &m_id);
    m_id = std::exchange(o.m_id, 0);
  }
  return *this;
}

}  // namespace texstream::gl
