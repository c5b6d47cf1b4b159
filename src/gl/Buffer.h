#pragma once
// texstream::gl::Buffer and VertexArray: move-only owners of buffer objects and VAOs.
#include <texstream/gl/ObjectName.h>

#include <cstddef>
#include <string>

namespace texstream::gl {

class Buffer {
 public:
  Buffer() = default;
  /// Allocates `bytes` (optionally initialised from `data`) with the given usage hint
  /// (GL_STATIC_DRAW, GL_STREAM_READ...).
  Buffer(std::string name, std::size_t bytes, const void* data, unsigned int usage);

  unsigned int id() const { return m_id.get(); }
  std::size_t size() const { return m_size; }
  const std::string& name() const { return m_name; }
  /// The share group the buffer belongs to.
  const ObjectOwner& owner() const { return m_id.owner(); }

 private:
  ObjectName m_id;
  std::size_t m_size = 0;
  std::string m_name;
};

/// Copies the first `bytes` of the buffer bound to `target` into `out`, waiting for the GPU:
/// by mapping where the context can map buffers for reading, else glGetBufferSubData
/// (desktop GL, WebGL2). Returns false when the map fails.
bool readBufferData(unsigned int target, std::size_t bytes, void* out);

class VertexArray {
 public:
  VertexArray() = default;
  explicit VertexArray(std::string name);
  unsigned int id() const { return m_id.get(); }
  /// The context the vertex array belongs to (GL never shares vertex arrays).
  const ObjectOwner& owner() const { return m_id.owner(); }

 private:
  ObjectName m_id;
};

}  // namespace texstream::gl
