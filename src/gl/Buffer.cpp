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
  ObjectOwner owner = ObjectOwner::currentGroup();
  GLint previous = 0;
  glGetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &previous);
  GLuint id = 0;
  glGenBuffers(1, &id);
  m_id = ObjectName(std::move(owner), ObjectKind::Buffer, id);
  // GL_COPY_WRITE_BUFFER is a binding point hosts rarely rely on; restored below anyway.
  glBindBuffer(GL_COPY_WRITE_BUFFER, id);
  glBufferData(GL_COPY_WRITE_BUFFER, GLsizeiptr(bytes), data, usage);
  // The size is asked back rather than read from glGetError (the host's pending errors
  // stay pending): GL_OUT_OF_MEMORY leaves the buffer without storage.
  GLint64 allocated = 0;
  glGetBufferParameteri64v(GL_COPY_WRITE_BUFFER, GL_BUFFER_SIZE, &allocated);
  glBindBuffer(GL_COPY_WRITE_BUFFER, GLuint(previous));
  if (std::size_t(allocated) != bytes) {
    m_id.reset();
    throw Error("Buffer(\"" + m_name + "\"): the GPU could not allocate " + std::to_string(bytes) +
                " bytes (out of GPU memory?)");
  }
  label(GL_BUFFER, id, m_name);
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

VertexArray::VertexArray(std::string name) {
  ObjectOwner owner = ObjectOwner::currentContext();
  GLuint id = 0;
  glGenVertexArrays(1, &id);
  m_id = ObjectName(std::move(owner), ObjectKind::VertexArray, id);
  label(GL_VERTEX_ARRAY, id, name);
}

}  // namespace texstream::gl
