#pragma once
// texstream::gl::ObjectName: the GL name a move-only owner holds (Texture, Buffer,
// VertexArray, Framebuffer, Program, TimerQuery). It deletes the object when it goes or is
// assigned another, and a moved-from one holds 0 and deletes nothing, so the owners need no
// destructor or move operations of their own and are move-only by themselves.
#include <utility>

namespace texstream::gl {

class ObjectName {
 public:
  /// Deletes one object of the owner's kind: glDeleteTextures(1, &name), glDeleteProgram(name)...
  using Deleter = void (*)(unsigned int name);

  ObjectName() = default;
  ObjectName(unsigned int name, Deleter deleter) : m_name(name), m_deleter(deleter) {}
  ~ObjectName() { reset(); }
  ObjectName(ObjectName&& other) noexcept
      : m_name(std::exchange(other.m_name, 0)), m_deleter(other.m_deleter) {}
  ObjectName& operator=(ObjectName&& other) noexcept {
    if (this != &other) {
      reset();
      m_name = std::exchange(other.m_name, 0);
      m_deleter = other.m_deleter;
    }
    return *this;
  }
  ObjectName(const ObjectName&) = delete;
  ObjectName& operator=(const ObjectName&) = delete;

  /// The name (0: none).
  unsigned int get() const { return m_name; }
  /// Deletes the object now; the name becomes 0.
  void reset() {
    if (m_name) m_deleter(m_name);
    m_name = 0;
  }

 private:
  unsigned int m_name = 0;
  Deleter m_deleter = nullptr;
};

}  // namespace texstream::gl
