#pragma once
// texstream::gl::ObjectName: the GL name a move-only owner holds (Texture, Buffer,
// VertexArray, Framebuffer, Program, TimerQuery), with the kind of object and the context or
// share group it belongs to (ObjectOwner, ContextRecord.h). It releases the name when it
// goes or is assigned another, through ObjectOwner::release: deleted at once where its
// context (or one of its share group) is current, else queued for the next texstream call
// there, or forgotten when that context is gone. A moved-from one holds 0 and no owner and
// releases nothing, so the owners need no destructor or move operations of their own and
// are move-only by themselves.
#include <texstream/gl/ContextRecord.h>

#include <utility>

namespace texstream::gl {

class ObjectName {
 public:
  ObjectName() = default;
  /// Takes `name`, an object of `kind` that belongs to `owner`. Find the owner before making
  /// the name (ObjectOwner::currentGroup() for textures, buffers and programs,
  /// currentContext() for framebuffers, vertex arrays and queries, or forKind): it throws
  /// without a current context, and no name is then made to leak.
  ObjectName(ObjectOwner owner, ObjectKind kind, unsigned int name)
      : m_name(name), m_kind(kind), m_owner(std::move(owner)) {}
  ~ObjectName() { reset(); }
  ObjectName(ObjectName&& other) noexcept
      : m_name(std::exchange(other.m_name, 0)), m_kind(other.m_kind), m_owner(std::move(other.m_owner)) {}
  ObjectName& operator=(ObjectName&& other) noexcept {
    if (this != &other) {
      reset();
      m_name = std::exchange(other.m_name, 0);
      m_kind = other.m_kind;
      m_owner = std::move(other.m_owner);
    }
    return *this;
  }
  ObjectName(const ObjectName&) = delete;
  ObjectName& operator=(const ObjectName&) = delete;

  /// The name (0: none).
  unsigned int get() const { return m_name; }
  ObjectKind kind() const { return m_kind; }
  /// The context or share group the name belongs to (empty when there is no name).
  const ObjectOwner& owner() const { return m_owner; }
  /// Releases the object now (ObjectOwner::release: deleted only where it belongs); the
  /// name becomes 0 and the owner empty.
  void reset() noexcept {
    if (m_name) m_owner.release(m_kind, m_name);
    m_name = 0;
    m_owner = ObjectOwner();
  }

 private:
  unsigned int m_name = 0;
  ObjectKind m_kind = ObjectKind::Texture;
  ObjectOwner m_owner;
};

}  // namespace texstream::gl
