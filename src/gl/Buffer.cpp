#include <texstream/gl/Buffer.h>

#include <texstream/gl/Capabilities.h>
#include <texstream/gl/Debug.h>
#include <texstream/gl/Error.h>

#include <glad/gl.h>

#include <cstring>
#include <utility>

namespace texstream::gl {

Buffer::Buffer(std::string name, std::size_t bytes, const void* data, unsigned int usage)
    : m_size(bytes), m_name(std::move(name)) {
  m_owner = ObjectOwner::currentGroup();
  GLint previous = 0;
  glGetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &previous);
  glGenBuffers(1, &m_id);
  // GL_COPY_WRITE_BUFFER is a binding point hosts rarely rely on; restored below anyway.
  glBindBuffer(GL_COPY_WRITE_BUFFER, m_id);
  glBufferData(GL_COPY_WRITE_BUFFER, GLsizeiptr(bytes), data, usage);
  // The size is asked back rather than read from glGetError (the host's pending errors
  // stay pending): GL_OUT_OF_MEMORY leaves the buffer without storage.
  GLint64 allocated = 0;
  glGetBufferParameteri64v(GL_COPY_WRITE_BUFFER, GL_BUFFER_SIZE, &allocated);
  glBindBuffer(GL_COPY_WRITE_BUFFER, GLuint(previous));
  if (std::size_t(allocated) != bytes) {
    glDeleteBuffers(1, &m_id);
    m_id = 0;
    throw Error("Buffer(\"" + m_name + "\"): the GPU could not allocate " + std::to_string(bytes) +
                " bytes (out of GPU memory?)");
  }
  label(GL_BUFFER, m_id, m_name);
}

Buffer::~Buffer() { m_owner.release(ObjectKind::Buffer, m_id); }

Buffer::Buffer(Buffer&& o) noexcept
    : m_id(std::exchange(o.m_id, 0)), m_owner(std::move(o.m_owner)), m_size(o.m_size), m_name(std::move(o.m_name)) {}

Buffer& Buffer::operator=(Buffer&& o) noexcept {
  if (this != &o) {
    m_owner.release(ObjectKind::Buffer, m_id);
    m_id = std::exchange(o.m_id, 0);
    m_owner = std::move(o.m_owner);
    m_size = o.m_size;
    m_name = std::move(o.m_name);
  }
  return *this;
}

bool readBufferData(unsigned int target, std::size_t bytes, void* out) {
  if (bytes == 0) return true;
  if (capabilities().mapBufferRead) {
    const void* mapped = glMapBufferRange(target, 0, GLsizeiptr(bytes), GL_MAP_READ_BIT);
    if (!mapped) return false;
    std::memcpy(out, mapped, bytes);
    glUnmapBuffer(target);
    return true;
  }
  if (!glGetBufferSubData) {
    throw Error("readBufferData: this context can neither map buffers for reading nor read them with "
                "glGetBufferSubData (OpenGL ES without mapBufferRead)");
  }
  glGetBufferSubData(target, 0, GLsizeiptr(bytes), out);
  return true;
}

VertexArray::VertexArray(std::string name) : m_owner(ObjectOwner::currentContext()) {
  glGenVertexArrays(1, &m_id);
  label(GL_VERTEX_ARRAY, m_id, name);
}

VertexArray::~VertexArray() { m_owner.release(ObjectKind::VertexArray, m_id); }

VertexArray::VertexArray(VertexArray&& o) noexcept : m_id(std::exchange(o.m_id, 0)), m_owner(std::move(o.m_owner)) {}

VertexArray& VertexArray::operator=(VertexArray&& o) noexcept {
  if (this != &o) {
    m_owner.release(ObjectKind::VertexArray, m_id);
    m_id = std::exchange(o.m_id, 0);
    m_owner = std::move(o.m_owner);
  }
  return *this;
}

}  // namespace texstream::gl
