#pragma once
// texstream::gl::ContextRecord and ShareGroup: what texstream keeps for one GL context and
// for the share group it belongs to (Context.h says how they are found), and ObjectOwner,
// which every owner of a GL name holds so that the name is deleted only in a context that
// has it.
//
// A record is found for the context current on the calling thread by currentRecord(): at
// the start of a texstream call (the outermost StateGuard) it checks that the context is
// still the one it recorded; inside the call the same record is used without a check.
#include <texstream/gl/Capabilities.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace texstream::gl {

enum class ObjectKind : std::uint8_t { Texture, Buffer, Program, Sync, Framebuffer, VertexArray, Query };

/// A context or a share group as the holder of GL names.
class OwnerState : public std::enable_shared_from_this<OwnerState> {
 public:
  virtual ~OwnerState() = default;
  /// True when the context current on this thread has this owner's objects.
  virtual bool isCurrent() const = 0;
  /// "EGL context 0x..." or "the share group of EGL context 0x..." (for messages).
  virtual std::string describe() const = 0;

  /// Deletes the names queued while another context (or none) was current; this owner's
  /// context must be current.
  void deletePending();
  /// Queues a name for deletion the next time this owner's context is current.
  void queue(ObjectKind kind, std::uintptr_t name);
  /// The owner's context (or every context of the group) is gone, or texstream released
  /// it: queued and later names are forgotten, never deleted.
  void markDead();
  bool dead() const { return m_dead.load(std::memory_order_acquire); }

 private:
  mutable std::mutex m_mutex;
  std::vector<std::pair<ObjectKind, std::uintptr_t>> m_pending;
  std::atomic<bool> m_dead{false};
};

/// Which context or share group a GL name belongs to. Textures, buffers, programs and sync
/// objects belong to the share group of the context that made them; framebuffers, vertex
/// arrays and queries to that context alone.
class ObjectOwner {
 public:
  ObjectOwner() = default;
  /// The current context's share group / the current context (a record is made for a
  /// context texstream has not seen). Throws Error without a current context.
  static ObjectOwner currentGroup();
  static ObjectOwner currentContext();
  static ObjectOwner forKind(ObjectKind kind);

  /// Deletes `name` now if the owner's context (or one of its group) is current, else
  /// queues it for the next texstream call there; forgets it if that context is gone.
  /// Never throws, never calls GL without a current context that has the name.
  void release(ObjectKind kind, std::uintptr_t name) const noexcept;
  /// True when the name can be used in the current context.
  bool isCurrent() const;
  /// Throws Error("<what>: ... belongs to <owner>, not to <current context>...") unless
  /// isCurrent(). `what` names the object: Pass("axpy"): input "x".
  void requireCurrent(const std::string& what) const;
  std::string describe() const;
  bool empty() const { return !m_state; }
  const OwnerState* state() const { return m_state.get(); }

 private:
  explicit ObjectOwner(std::shared_ptr<OwnerState> state) : m_state(std::move(state)) {}
  std::shared_ptr<OwnerState> m_state;
};

class ShareGroup;

/// How texstream identifies a context: the window-system handle, the host's key, or the
/// thread (neither).
struct ContextId {
  enum class Kind : std::uint8_t { Egl, Glx, Cgl, Wgl, WebGl, Host, Thread };
  Kind kind = Kind::Thread;
  std::uintptr_t handle = 0;
  bool operator==(const ContextId&) const = default;
  /// "EGL context 0x55d3c4a1e2f0", "the context the host calls 0x...", ...
  std::string describe() const;
};

class ContextRecord : public OwnerState {
 public:
  ContextRecord(ContextId id, std::uint32_t serial) : m_id(id), m_serial(serial) {}
  bool isCurrent() const override;
  std::string describe() const override { return m_id.describe(); }

  const ContextId& id() const { return m_id; }
  std::uint32_t serial() const { return m_serial; }
  ShareGroup& group() const { return *m_group; }
  const std::shared_ptr<ShareGroup>& groupPointer() const { return m_group; }
  const Capabilities& caps() const { return m_caps; }
  /// False when the window-system handle current now is another context's (a host
  /// callback switched contexts inside a texstream call); true where no handle is read.
  bool handleStillCurrent() const;

  /// The stream layer's per-context state (stream::Runtime), created there on first use.
  std::shared_ptr<void> runtime;
  /// StateGuard's saved host state for this context (created by StateGuard on first use).
  std::shared_ptr<void> guardState;
  /// The host key bound to this context (ContextScope / makeCurrent), if any.
  const void* hostKey = nullptr;

 private:
  friend struct Registry;
  ContextId m_id;
  std::uint32_t m_serial;
  std::shared_ptr<ShareGroup> m_group;
  Capabilities m_caps;
  unsigned int m_markVao = 0;  // the mark texstream leaves in the context (Context.cpp)
};

class ShareGroup : public OwnerState {
 public:
  explicit ShareGroup(std::uint64_t serial) : m_serial(serial) {}
  bool isCurrent() const override;
  std::string describe() const override;

  /// The stream layer's per-group state (programs, pooled textures, buffers).
  std::shared_ptr<void> shared;
  /// Held for the whole of a texstream call in any context of the group: calls in contexts
  /// that share objects never run at the same time on two threads.
  std::recursive_mutex calls;
  /// Contexts of the group that texstream has records for (under the registry's lock).
  std::size_t memberCount() const { return m_memberCount.load(std::memory_order_acquire); }

  /// At the end of a call in `from`: a fence other contexts of the group wait for
  /// (glWaitSync) before they use what the call wrote (GL's rule for shared objects).
  void handOver(const ContextRecord& from);
  /// At the start of a call in `to`: waits (on the GPU) for the last hand-over from
  /// another context of the group.
  void takeOver(const ContextRecord& to);

 private:
  friend struct Registry;
  std::uint64_t m_serial;
  std::vector<ContextRecord*> m_members;
  std::atomic<std::size_t> m_memberCount{0};
  unsigned int m_probe = 0;         // a buffer every context of the group can see (Context.cpp)
  unsigned char m_token[16] = {};   // its contents
  void* m_handover = nullptr;       // GLsync
  const ContextRecord* m_handoverFrom = nullptr;
};

/// The record of the context current on this thread: inside a texstream call the call's;
/// otherwise found (and checked) or made now. Throws Error when no context is current, or
/// when a ContextScope's key names another context.
ContextRecord& currentRecord();
/// The same without making a record for a context texstream has not seen, and without
/// throwing: nullptr then, or without a current context.
ContextRecord* findCurrentRecord() noexcept;
/// Used by StateGuard: the record its outermost instance entered (nullptr outside a call).
ContextRecord* activeRecord() noexcept;
void setActiveRecord(ContextRecord* record) noexcept;

}  // namespace texstream::gl
