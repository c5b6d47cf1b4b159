#include <texstream/gl/Context.h>

#include <texstream/gl/ContextRecord.h>
#include <texstream/gl/Error.h>

#include <glad/gl.h>

#ifdef __EMSCRIPTEN__
#include <emscripten/html5_webgl.h>
#elif defined(_WIN32)
#include <windows.h>
#else
#include <dlfcn.h>
#endif

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <thread>

namespace texstream::gl {

namespace {

// ---- The window-system handle of the current context ---------------------------------

#if !defined(__EMSCRIPTEN__)
using CurrentContextFn = void* (*)();
struct WindowSystem {
  CurrentContextFn egl = nullptr, glx = nullptr, cgl = nullptr, wgl = nullptr;
};

WindowSystem& windowSystem() {
  static WindowSystem w = [] {
    WindowSystem s;
#if defined(_WIN32)
    if (HMODULE gl = GetModuleHandleA("opengl32.dll"))
      s.wgl = reinterpret_cast<CurrentContextFn>(GetProcAddress(gl, "wglGetCurrentContext"));
#else
    // The libraries stay open (as the GL loader's do): their functions are called for the
    // life of the process. A process that uses neither has no context of that kind.
    if (void* egl = dlopen("libEGL.so.1", RTLD_NOW | RTLD_GLOBAL))
      s.egl = reinterpret_cast<CurrentContextFn>(dlsym(egl, "eglGetCurrentContext"));
    if (void* glx = dlopen("libGL.so.1", RTLD_NOW | RTLD_GLOBAL))
      s.glx = reinterpret_cast<CurrentContextFn>(dlsym(glx, "glXGetCurrentContext"));
#if defined(__APPLE__)
    s.cgl = reinterpret_cast<CurrentContextFn>(dlsym(RTLD_DEFAULT, "CGLGetCurrentContext"));
#endif
#endif
    return s;
  }();
  return w;
}

// TEXSTREAM_CONTEXT_KEYS=host: read no window-system handle, as on a platform where none can
// be read, so that the host's keys (ContextScope) and the per-thread fallback can be tested.
bool handlesIgnored() {
  static const bool ignored = [] {
    const char* v = std::getenv("TEXSTREAM_CONTEXT_KEYS");
    if (!v || !*v || std::strcmp(v, "native") == 0) return false;
    if (std::strcmp(v, "host") == 0) return true;
    std::fprintf(stderr, "texstream: TEXSTREAM_CONTEXT_KEYS=\"%s\" is neither \"native\" nor \"host\"; using native\n", v);
    return false;
  }();
  return ignored;
}
#endif

std::optional<ContextId> windowSystemContext() {
#ifdef __EMSCRIPTEN__
  const EMSCRIPTEN_WEBGL_CONTEXT_HANDLE h = emscripten_webgl_get_current_context();
  if (h) return ContextId{ContextId::Kind::WebGl, std::uintptr_t(h)};
  return std::nullopt;
#else
  if (handlesIgnored()) return std::nullopt;
  const WindowSystem& w = windowSystem();
  // At most one of them has a context current on a thread (glvnd refuses a second API).
  if (w.egl)
    if (void* c = w.egl()) return ContextId{ContextId::Kind::Egl, reinterpret_cast<std::uintptr_t>(c)};
  if (w.glx)
    if (void* c = w.glx()) return ContextId{ContextId::Kind::Glx, reinterpret_cast<std::uintptr_t>(c)};
  if (w.cgl)
    if (void* c = w.cgl()) return ContextId{ContextId::Kind::Cgl, reinterpret_cast<std::uintptr_t>(c)};
  if (w.wgl)
    if (void* c = w.wgl()) return ContextId{ContextId::Kind::Wgl, reinterpret_cast<std::uintptr_t>(c)};
  return std::nullopt;
#endif
}

std::string hex(std::uintptr_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string keyText(const void* key) { return hex(reinterpret_cast<std::uintptr_t>(key)); }

// ---- Per thread -----------------------------------------------------------------------

thread_local ContextRecord* t_active = nullptr;  // the record of the texstream call running
thread_local const void* t_hostKey = nullptr;    // ContextScope / makeCurrent
thread_local int t_scopeDepth = 0;
// The record the last lookup on this thread found, valid while the registry's epoch is the
// same (weak: another thread may release it meanwhile). The weak pointer is destroyed with
// the thread's other thread-locals, before static objects at exit, whose destructors (a
// static HeadlessContext's) may still look up their context: after that the cache is
// neither read nor written (t_lastLookupGone, trivially destructible, stays readable).
struct LastLookup {
  ContextId id;
  std::weak_ptr<OwnerState> record;
  std::uint64_t epoch = 0;
  ~LastLookup();
};
thread_local bool t_lastLookupGone = false;
thread_local LastLookup t_last;
LastLookup::~LastLookup() { t_lastLookupGone = true; }

std::uintptr_t threadKey() {
  return std::uintptr_t(std::hash<std::thread::id>{}(std::this_thread::get_id()));
}

// The mark texstream leaves in each context it records: a vertex array (never shared
// between contexts) whose attribute 0 has a divisor no host sets. A context that lacks the
// mark is not the context of the record, whatever its handle.
// Below 2^24: emscripten's glGetVertexAttribiv passes the value through a float
// (Math.fround), which would drop the low bits of a larger value.
constexpr GLuint kMarkBase = 0x7e0000u;
constexpr GLuint markValue(std::uint64_t serial) { return kMarkBase + GLuint(serial & 0xffffu); }
static_assert(kMarkBase + 0xffffu < (1u << 24), "the mark must be exact as a float");

bool contextIsCurrentNoThrow() noexcept {
  try {
    ensureGlLoaded();
    return true;
  } catch (...) {
    return false;
  }
}

}  // namespace

// ---- Names ------------------------------------------------------------------------------

std::string ContextId::describe() const {
  switch (kind) {
    case Kind::Egl: return "EGL context " + hex(handle);
    case Kind::Glx: return "GLX context " + hex(handle);
    case Kind::Cgl: return "CGL context " + hex(handle);
    case Kind::Wgl: return "WGL context " + hex(handle);
    case Kind::WebGl: return "WebGL context " + std::to_string(handle);
    case Kind::Host: return "the context the host calls " + hex(handle);
    case Kind::Thread: return "this thread's context (no handle or key)";
  }
  return "a context";
}

// ---- Deletion of names ------------------------------------------------------------------

namespace {
void deleteName(ObjectKind kind, std::uintptr_t name) {
  const GLuint id = GLuint(name);
  switch (kind) {
    case ObjectKind::Texture: glDeleteTextures(1, &id); break;
    case ObjectKind::Buffer: glDeleteBuffers(1, &id); break;
    case ObjectKind::Program: glDeleteProgram(id); break;
    case ObjectKind::Sync: glDeleteSync(reinterpret_cast<GLsync>(name)); break;
    case ObjectKind::Framebuffer: glDeleteFramebuffers(1, &id); break;
    case ObjectKind::VertexArray: glDeleteVertexArrays(1, &id); break;
    case ObjectKind::Query: glDeleteQueries(1, &id); break;
  }
}
}  // namespace

void OwnerState::deletePending() {
  std::vector<std::pair<ObjectKind, std::uintptr_t>> names;
  {
    std::lock_guard<std::mutex> lock(m_mutex);
    if (m_pending.empty()) return;
    names.swap(m_pending);
  }
  for (const auto& [kind, name] : names) deleteName(kind, name);
}

void OwnerState::queue(ObjectKind kind, std::uintptr_t name) {
  std::lock_guard<std::mutex> lock(m_mutex);
  if (!dead()) m_pending.emplace_back(kind, name);
}

void OwnerState::markDead() {
  std::lock_guard<std::mutex> lock(m_mutex);
  m_dead.store(true, std::memory_order_release);
  m_pending.clear();
}

// ---- The registry ------------------------------------------------------------------------

struct Registry {
  std::mutex mutex;
  std::vector<std::shared_ptr<ContextRecord>> records;
  std::vector<std::weak_ptr<ShareGroup>> groups;  // for finding the group of a new context
  std::atomic<std::uint64_t> epoch{1};
  std::uint32_t nextSerial = 1;
  std::uint64_t nextGroup = 1;
  std::atomic<std::size_t> stale{0};

  ContextRecord* find(const ContextId& id) {
    for (auto& r : records)
      if (r->m_id == id) return r.get();
    return nullptr;
  }

  static bool markPresent(const ContextRecord& r) {
    if (r.m_markVao == 0 || !glIsVertexArray(r.m_markVao)) return false;
    GLint previous = 0;
    glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &previous);
    glBindVertexArray(r.m_markVao);
    GLint divisor = 0;
    glGetVertexAttribiv(0, GL_VERTEX_ATTRIB_ARRAY_DIVISOR, &divisor);
    glBindVertexArray(GLuint(previous));
    return GLuint(divisor) == markValue(r.m_serial);
  }

  static void leaveMark(ContextRecord& r) {
    GLint previous = 0;
    glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &previous);
    glGenVertexArrays(1, &r.m_markVao);
    glBindVertexArray(r.m_markVao);
    glVertexAttribDivisor(0, markValue(r.m_serial));
    glBindVertexArray(GLuint(previous));
  }

  // A buffer of 16 bytes with the group's token: every context of the share group sees it
  // (buffers are shared), no other context has a buffer of that name, size and contents.
  static bool probeVisible(const ShareGroup& g, bool es) {
    if (g.m_probe == 0 || !glIsBuffer(g.m_probe)) return false;
    GLint previous = 0;
    glGetIntegerv(GL_COPY_READ_BUFFER_BINDING, &previous);
    glBindBuffer(GL_COPY_READ_BUFFER, g.m_probe);
    GLint size = 0, mapped = 0;
    glGetBufferParameteriv(GL_COPY_READ_BUFFER, GL_BUFFER_SIZE, &size);
    glGetBufferParameteriv(GL_COPY_READ_BUFFER, GL_BUFFER_MAPPED, &mapped);
    bool same = false;
    if (size == GLint(sizeof g.m_token) && !mapped) {
      unsigned char got[sizeof g.m_token] = {};
      if (!es && glGetBufferSubData) {
        glGetBufferSubData(GL_COPY_READ_BUFFER, 0, sizeof got, got);
        same = std::memcmp(got, g.m_token, sizeof got) == 0;
      } else if (glMapBufferRange) {
        if (const void* p = glMapBufferRange(GL_COPY_READ_BUFFER, 0, sizeof got, GL_MAP_READ_BIT)) {
          std::memcpy(got, p, sizeof got);
          glUnmapBuffer(GL_COPY_READ_BUFFER);
          same = std::memcmp(got, g.m_token, sizeof got) == 0;
        }
      }
    }
    glBindBuffer(GL_COPY_READ_BUFFER, GLuint(previous));
    return same;
  }

  static void makeProbe(ShareGroup& g) {
    const std::uint64_t serial = g.m_serial;
    const std::uint64_t clock = std::uint64_t(std::chrono::steady_clock::now().time_since_epoch().count());
    std::memcpy(g.m_token, "txsG", 4);
    std::memcpy(g.m_token + 4, &serial, 4);
    std::memcpy(g.m_token + 8, &clock, 8);
    GLint previous = 0;
    glGetIntegerv(GL_COPY_WRITE_BUFFER_BINDING, &previous);
    glGenBuffers(1, &g.m_probe);
    glBindBuffer(GL_COPY_WRITE_BUFFER, g.m_probe);
    glBufferData(GL_COPY_WRITE_BUFFER, sizeof g.m_token, g.m_token, GL_STATIC_DRAW);
    glBindBuffer(GL_COPY_WRITE_BUFFER, GLuint(previous));
  }

  // Under the lock, in the new context.
  ContextRecord* create(const ContextId& id) {
    loadGlForCurrentContext();
    auto record = std::make_shared<ContextRecord>(id, nextSerial++);
    record->m_caps = queryCapabilities();  // throws for a context texstream cannot use
    leaveMark(*record);
    std::shared_ptr<ShareGroup> group;
#ifndef __EMSCRIPTEN__
    // WebGL contexts share nothing.
    groups.erase(std::remove_if(groups.begin(), groups.end(), [](const auto& w) { return w.expired(); }), groups.end());
    for (const auto& weak : groups) {
      auto g = weak.lock();
      if (g && !g->dead() && probeVisible(*g, record->m_caps.es)) {
        group = std::move(g);
        break;
      }
    }
#endif
    if (!group) {
      group = std::make_shared<ShareGroup>(nextGroup++);
#ifndef __EMSCRIPTEN__
      makeProbe(*group);
#endif
      groups.push_back(group);
    }
    group->m_members.push_back(record.get());
    group->m_memberCount.store(group->m_members.size());
    record->m_group = std::move(group);
    records.push_back(record);
    return record.get();
  }

  // A record taken out of the registry (under the lock). Unless released (shutdown()), it
  // is discarded when this goes, outside the lock (its objects' destruction looks records
  // up): nothing of it is deleted, since its names died with its context or live on in a
  // share group texstream can no longer reach.
  struct Removed {
    std::shared_ptr<ContextRecord> record;
    bool lastOfGroup = false;
    Removed() = default;
    Removed(Removed&& o) noexcept : record(std::move(o.record)), lastOfGroup(o.lastOfGroup) {}
    Removed& operator=(Removed&& o) noexcept {
      discard();
      record = std::move(o.record);
      lastOfGroup = o.lastOfGroup;
      return *this;
    }
    ~Removed() { discard(); }
    void discard() {
      if (!record) return;
      ContextRecord& r = *record;
      r.markDead();
      r.runtime.reset();
      if (lastOfGroup && r.m_group->memberCount() == 0) {
        // The group's objects (unless a new context joined it meanwhile): deleted if some
        // context of the group is current, queued by their owners otherwise.
        std::shared_ptr<void> shared = std::move(r.m_group->shared);
        shared.reset();
      }
      record.reset();
    }
  };
  Removed remove(ContextRecord* r) {
    Removed out;
    auto it = std::find_if(records.begin(), records.end(), [&](const auto& p) { return p.get() == r; });
    if (it == records.end()) return out;
    out.record = *it;
    records.erase(it);
    auto& members = r->m_group->m_members;
    members.erase(std::remove(members.begin(), members.end(), r), members.end());
    r->m_group->m_memberCount.store(members.size());
    out.lastOfGroup = members.empty();
    epoch.fetch_add(1);
    return out;
  }

  // Releases the current context's record (shutdown()): its objects are deleted.
  void release(ContextRecord* r);
};

namespace {
Registry& registry() {
  // Never destroyed: records may be released by static objects' destructors at exit
  // (a static HeadlessContext).
  static Registry* r = new Registry;
  return *r;
}

[[noreturn]] void throwKeyMisuse(const void* key, const std::string& why) {
  throw Error((t_scopeDepth > 0 ? "ContextScope(" : "texstream::makeCurrent(") + keyText(key) + "): " + why);
}

// The record for the current context; nullptr when `create` is false and there is none.
// Checks the record's mark; a record whose mark is missing is discarded (the context it
// named is gone) and, when `create`, a new one made.
//
// With a window-system handle, the handle finds the record (and a host key is checked
// against it). Without one, the host's key finds it; without a key either, the mark alone
// (every record's, until one is found here).
ContextRecord* lookup(bool create) {
  ensureGlLoaded();  // throws "no current OpenGL context"
  const std::optional<ContextId> native = windowSystemContext();
  const void* key = t_hostKey;
  const ContextId id = native ? *native
                       : key  ? ContextId{ContextId::Kind::Host, reinterpret_cast<std::uintptr_t>(key)}
                              : ContextId{ContextId::Kind::Thread, threadKey()};
  Registry& reg = registry();
  if (!t_lastLookupGone && t_last.id == id && t_last.epoch == reg.epoch.load(std::memory_order_acquire)) {
    if (const std::shared_ptr<OwnerState> last = t_last.record.lock()) {
      auto* record = static_cast<ContextRecord*>(last.get());
      if ((!key || record->hostKey == key) && Registry::markPresent(*record)) return record;
    }
  }
  Registry::Removed stale;
  ContextRecord* record = nullptr;
  {
    std::lock_guard<std::mutex> lock(reg.mutex);
    // The record whose mark is in the current context, of those `id` does not find.
    auto marked = [&](const ContextRecord* except) -> ContextRecord* {
      for (const auto& other : reg.records)
        if (other.get() != except && Registry::markPresent(*other)) return other.get();
      return nullptr;
    };
    if (native || key) {
      record = reg.find(id);
      if (record && !Registry::markPresent(*record)) {
        if (!native) {
          if (ContextRecord* here = marked(record)) {
            // The key's context may be alive and simply not current.
            throwKeyMisuse(key, "the current context is " +
                                    (here->hostKey ? "the one the host calls " + keyText(here->hostKey)
                                                   : std::string("one used without a key")) +
                                    ", not the one this key names (make that context current first, or, if the "
                                    "host destroyed it without texstream::shutdown(), call texstream::forgetContext(key))");
          }
        }
        stale = reg.remove(record);
        reg.stale.fetch_add(1);
        record = nullptr;
      }
    }
    if (native && key) {
      // The key must name this context and no other.
      if (record && record->hostKey && record->hostKey != key) {
        throwKeyMisuse(key, "the current context (" + native->describe() + ") is the one the host calls " +
                                keyText(record->hostKey) + " (a context has one key)");
      }
      for (const auto& other : reg.records) {
        if (other.get() != record && other->hostKey == key) {
          throwKeyMisuse(key, "this key names " + other->describe() + ", but " + native->describe() +
                                  " is current: make the context this key names current first (or, if the host "
                                  "destroyed it without texstream::shutdown(), call texstream::forgetContext(key))");
        }
      }
    }
    if (!record && !native) {
      if (ContextRecord* here = marked(nullptr)) {
        if (key && here->hostKey && here->hostKey != key) {
          throwKeyMisuse(key, "the current context is the one the host calls " + keyText(here->hostKey) +
                                  " (a context has one key)");
        }
        record = here;
      }
    }
    if (!record && create) record = reg.create(id);
    if (record && key && !record->hostKey) record->hostKey = key;
    if (record && !t_lastLookupGone) {
      t_last.id = id;
      t_last.record = record->weak_from_this();
      t_last.epoch = reg.epoch.load(std::memory_order_acquire);
    }
  }
  return record;  // `stale` is discarded now, outside the lock
}

}  // namespace

void Registry::release(ContextRecord* r) {
  std::shared_ptr<ContextRecord> keep;
  bool lastOfGroup = false;
  {
    std::lock_guard<std::mutex> lock(mutex);
    Removed removed = remove(r);
    keep = std::move(removed.record);  // released below, not discarded
    lastOfGroup = removed.lastOfGroup;
  }
  if (!keep) return;
  ShareGroup& group = *r->m_group;
  std::lock_guard<std::recursive_mutex> calls(group.calls);
  // While the objects go, the record is the active one: their owners see it current.
  setActiveRecord(r);
  r->runtime.reset();
  if (lastOfGroup) group.shared.reset();
  r->deletePending();
  group.deletePending();
  glDeleteVertexArrays(1, &r->m_markVao);
  r->m_markVao = 0;
  if (lastOfGroup) {
    if (group.m_handover) glDeleteSync(static_cast<GLsync>(group.m_handover));
    group.m_handover = nullptr;
    // Objects still alive (a Vector the host keeps) hold the group: its probe stays, so that
    // the group is found again if texstream is used in one of its contexts later.
    if (r->m_group.use_count() == 1) {
      if (group.m_probe) glDeleteBuffers(1, &group.m_probe);
      group.m_probe = 0;
      group.markDead();
    }
  }
  r->markDead();
  setActiveRecord(nullptr);
}

// ---- Records and groups -----------------------------------------------------------------

bool ContextRecord::isCurrent() const { return !dead() && findCurrentRecord() == this; }

bool ContextRecord::handleStillCurrent() const {
  if (m_id.kind == ContextId::Kind::Host || m_id.kind == ContextId::Kind::Thread) return true;
  const std::optional<ContextId> native = windowSystemContext();
  return native && *native == m_id;
}

bool ShareGroup::isCurrent() const {
  if (dead()) return false;
  if (const ContextRecord* r = findCurrentRecord()) return &r->group() == this;
  // A context texstream holds no record for (it was released with shutdown() while objects
  // of its group lived on): the probe says whether it is one of the group's.
  if (!contextIsCurrentNoThrow() || m_probe == 0) return false;
#ifdef __EMSCRIPTEN__
  return false;
#else
  const char* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
  return version && Registry::probeVisible(*this, std::strncmp(version, "OpenGL ES", 9) == 0);
#endif
}

std::string ShareGroup::describe() const {
  std::lock_guard<std::mutex> lock(registry().mutex);
  if (m_members.empty()) return "a share group texstream holds no context of";
  std::string s = "the share group of " + m_members.front()->describe();
  if (m_members.size() > 1) s += " and " + std::to_string(m_members.size() - 1) + " more";
  return s;
}

void ShareGroup::handOver(const ContextRecord& from) {
  if (memberCount() < 2) return;
  if (m_handover) glDeleteSync(static_cast<GLsync>(m_handover));
  m_handover = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  m_handoverFrom = &from;
  // Another context waits for this fence only once it has reached the GPU.
  glFlush();
}

void ShareGroup::takeOver(const ContextRecord& to) {
  if (m_handover && m_handoverFrom != &to) {
    glWaitSync(static_cast<GLsync>(m_handover), 0, GL_TIMEOUT_IGNORED);
    m_handoverFrom = &to;  // this context's commands now follow the fence
  }
}

ContextRecord& currentRecord() {
  if (t_active) return *t_active;
  return *lookup(true);
}

ContextRecord* findCurrentRecord() noexcept {
  if (t_active) return t_active;
  try {
    return lookup(false);
  } catch (...) {
    return nullptr;
  }
}

ContextRecord* activeRecord() noexcept { return t_active; }
void setActiveRecord(ContextRecord* record) noexcept { t_active = record; }

// ---- Owners -------------------------------------------------------------------------------

ObjectOwner ObjectOwner::currentGroup() {
  ContextRecord& r = currentRecord();
  return ObjectOwner(std::static_pointer_cast<OwnerState>(r.groupPointer()));
}

ObjectOwner ObjectOwner::currentContext() { return ObjectOwner(currentRecord().shared_from_this()); }

ObjectOwner ObjectOwner::forKind(ObjectKind kind) {
  switch (kind) {
    case ObjectKind::Framebuffer:
    case ObjectKind::VertexArray:
    case ObjectKind::Query: return currentContext();
    default: return currentGroup();
  }
}

void ObjectOwner::release(ObjectKind kind, std::uintptr_t name) const noexcept {
  if (!m_state || name == 0 || m_state->dead()) return;
  try {
    if (m_state->isCurrent()) {
      deleteName(kind, name);
    } else {
      m_state->queue(kind, name);
    }
  } catch (...) {
    // Deletion is best effort: a name that cannot be deleted now is forgotten.
  }
}

bool ObjectOwner::isCurrent() const { return m_state && m_state->isCurrent(); }

std::string ObjectOwner::describe() const { return m_state ? m_state->describe() : "no context"; }

void ObjectOwner::requireCurrent(const std::string& what) const {
  if (isCurrent()) return;
  if (!m_state) throw Error(what + ": the object has no GL name (moved from, or never made)");
  const std::string here = currentContextName();
  if (m_state->dead()) {
    throw Error(what + " belongs to a context texstream has released (texstream::shutdown()) or that is gone; the "
                       "current one is " + here);
  }
  throw Error(what + " belongs to " + m_state->describe() + ", not to the current context (" + here +
              "), which does not share objects with it: make it in this context, or create the contexts as one share group");
}

// ---- The public calls ----------------------------------------------------------------

ContextScope::ContextScope(const void* key) {
  if (!key) throw Error("ContextScope: the key is null (a key is a non-null pointer naming the host's context)");
  if (t_scopeDepth > 0 && t_hostKey != key) {
    throw Error("ContextScope(" + keyText(key) + "): opened inside ContextScope(" + keyText(t_hostKey) +
                ") on the same thread; nested scopes must name the same context (close the outer scope before "
                "making another context current)");
  }
  if (!contextIsCurrentNoThrow()) {
    throw Error("ContextScope(" + keyText(key) + "): no current OpenGL context on this thread (make the context "
                "current before opening its scope)");
  }
  m_previous = t_hostKey;
  t_hostKey = key;
  ++t_scopeDepth;
  try {
    if (!t_active) lookup(true);  // the key is bound (and checked) now
  } catch (...) {
    --t_scopeDepth;
    t_hostKey = m_previous;
    throw;
  }
}

ContextScope::~ContextScope() {
  --t_scopeDepth;
  t_hostKey = m_previous;
}

void makeCurrent(const void* key) {
  if (t_scopeDepth > 0 && key != t_hostKey) {
    throw Error("texstream::makeCurrent(" + keyText(key) + "): ContextScope(" + keyText(t_hostKey) +
                ") is open on this thread; close it first");
  }
  if (!key) {
    t_hostKey = nullptr;
    return;
  }
  if (!contextIsCurrentNoThrow()) {
    throw Error("texstream::makeCurrent(" + keyText(key) + "): no current OpenGL context on this thread (make the "
                "context current first, then tell texstream)");
  }
  const void* previous = t_hostKey;
  t_hostKey = key;
  try {
    if (!t_active) lookup(true);
  } catch (...) {
    t_hostKey = previous;
    throw;
  }
}

void releaseCurrentContext() {
  if (t_active) {
    throw Error("texstream::shutdown(): called inside a texstream call (a solver's callback?) on " +
                t_active->describe() + "; call it between texstream calls");
  }
  if (!contextIsCurrentNoThrow()) return;
  ContextRecord* r = nullptr;
  try {
    r = lookup(false);
  } catch (const Error&) {
    return;  // a key that names another context: nothing of this one to release
  }
  if (r) registry().release(r);
}

void forgetContext(const void* key) {
  if (!key) return;
  Registry& reg = registry();
  std::vector<Registry::Removed> removed;
  {
    std::lock_guard<std::mutex> lock(reg.mutex);
    std::vector<ContextRecord*> matching;
    for (const auto& r : reg.records) {
      if (r->hostKey == key || (r->id().kind != ContextId::Kind::Host && r->id().kind != ContextId::Kind::Thread &&
                                r->id().handle == reinterpret_cast<std::uintptr_t>(key))) {
        matching.push_back(r.get());
      }
    }
    for (ContextRecord* r : matching) {
      if (r == t_active) throw Error("texstream::forgetContext(" + keyText(key) + "): the context is in use by a texstream call");
      removed.push_back(reg.remove(r));
    }
  }
  removed.clear();  // discarded outside the lock
}

std::string currentContextName() {
  if (t_active) return t_active->describe();
  if (!contextIsCurrentNoThrow()) return "no current OpenGL context";
  if (const std::optional<ContextId> native = windowSystemContext()) return native->describe();
  if (t_hostKey) return ContextId{ContextId::Kind::Host, reinterpret_cast<std::uintptr_t>(t_hostKey)}.describe();
  return ContextId{}.describe();
}

ContextCounts contextCounts() {
  Registry& reg = registry();
  std::lock_guard<std::mutex> lock(reg.mutex);
  ContextCounts c;
  c.contexts = reg.records.size();
  std::vector<const ShareGroup*> seen;
  for (const auto& r : reg.records) {
    if (std::find(seen.begin(), seen.end(), &r->group()) == seen.end()) seen.push_back(&r->group());
  }
  c.shareGroups = seen.size();
  c.staleRecords = reg.stale.load();
  return c;
}

}  // namespace texstream::gl
