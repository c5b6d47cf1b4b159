#include <texstream/gl/StateGuard.h>

#include <texstream/gl/Capabilities.h>
#include <texstream/gl/ContextRecord.h>
#include <texstream/gl/Error.h>

#include <glad/gl.h>

#include <cstdio>

namespace texstream::gl {

namespace {
struct UnitBinding {
  bool saved = false;
  GLint tex2D = 0, tex2DArray = 0;
};
struct ImageBinding {
  bool saved = false;
  GLint name = 0, level = 0, layered = 0, layer = 0, access = 0, format = 0;
};

// Pixel-store parameters and the neutral value texstream's transfers need. `desktop`:
// the parameter exists only in desktop GL (ES 3.0 has the rest).
struct PixelStoreParameter {
  GLenum name;
  GLint neutral;
  bool desktopOnly;
};
constexpr PixelStoreParameter kPixelStore[] = {
    {GL_PACK_ALIGNMENT, 4, false},     {GL_PACK_ROW_LENGTH, 0, false},     {GL_PACK_SKIP_ROWS, 0, false},
    {GL_PACK_SKIP_PIXELS, 0, false},   {GL_PACK_IMAGE_HEIGHT, 0, true},    {GL_PACK_SKIP_IMAGES, 0, true},
    {GL_PACK_SWAP_BYTES, 0, true},     {GL_PACK_LSB_FIRST, 0, true},       {GL_UNPACK_ALIGNMENT, 4, false},
    {GL_UNPACK_ROW_LENGTH, 0, false},  {GL_UNPACK_SKIP_ROWS, 0, false},    {GL_UNPACK_SKIP_PIXELS, 0, false},
    {GL_UNPACK_IMAGE_HEIGHT, 0, false},{GL_UNPACK_SKIP_IMAGES, 0, false},  {GL_UNPACK_SWAP_BYTES, 0, true},
    {GL_UNPACK_LSB_FIRST, 0, true}};
constexpr std::size_t kPixelStoreCount = sizeof kPixelStore / sizeof kPixelStore[0];

}  // namespace

struct StateGuard::Saved {
  int depth = 0;
  bool desktop = true, polygonMode = false;
  GLint drawFbo = 0, readFbo = 0, program = 0, vao = 0, arrayBuffer = 0;
  GLint viewport[4] = {0, 0, 0, 0}, scissorBox[4] = {0, 0, 0, 0};
  GLint activeTexture = GL_TEXTURE0;
  GLboolean blend = 0, scissor = 0, depthTest = 0, stencilTest = 0, cull = 0, discard = 0,
            srgb = 0, programPointSize = 0;
  GLboolean colorMask[4] = {1, 1, 1, 1};
  GLint blendSrcRgb = 0, blendDstRgb = 0, blendSrcA = 0, blendDstA = 0, blendEqRgb = 0,
        blendEqA = 0;
  GLint polygonModeValue[2] = {GL_FILL, GL_FILL};
  bool pixelStoreSaved = false;
  GLint packBuffer = 0, unpackBuffer = 0;
  GLint pixelStore[kPixelStoreCount] = {};
  std::vector<UnitBinding> units;
  std::vector<ImageBinding> images;
  struct StorageBinding {
    bool saved = false;
    GLint buffer = 0;
    GLint64 offset = 0, size = 0;
  };
  std::vector<StorageBinding> storage;
  bool genericStorageSaved = false;
  GLint genericStorage = 0;
};

namespace {
// The saved state of the context's outermost guard: one per context, since a context is
// current on one thread at a time.
StateGuard::Saved& savedFor(ContextRecord& record) {
  if (!record.guardState) record.guardState = std::make_shared<StateGuard::Saved>();
  return *static_cast<StateGuard::Saved*>(record.guardState.get());
}
}  // namespace

StateGuard::Saved& StateGuard::saved(const char* caller) {
  ContextRecord* record = activeRecord();
  if (!record) throw Error(std::string(caller) + ": no StateGuard is active (library bug)");
  return savedFor(*record);
}

bool StateGuard::active() { return activeRecord() != nullptr; }

StateGuard::StateGuard() {
  if (ContextRecord* record = activeRecord()) {
    ++savedFor(*record).depth;
    return;
  }
  // The call boundary: throws "no current OpenGL context" before anything is touched, and
  // finds (and checks) the record of the context current now; the calls inside this guard
  // use it without asking again.
  ContextRecord& record = currentRecord();
  ShareGroup& group = record.group();
  group.calls.lock();
  setActiveRecord(&record);
  const Capabilities& caps = record.caps();
  Saved& s = savedFor(record);
  s.depth = 1;
  s.desktop = !caps.es;
  s.polygonMode = caps.polygonMode;
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &s.drawFbo);
  glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &s.readFbo);
  glGetIntegerv(GL_CURRENT_PROGRAM, &s.program);
  glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &s.vao);
  glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &s.arrayBuffer);
  glGetIntegerv(GL_VIEWPORT, s.viewport);
  glGetIntegerv(GL_SCISSOR_BOX, s.scissorBox);
  glGetIntegerv(GL_ACTIVE_TEXTURE, &s.activeTexture);
  s.blend = glIsEnabled(GL_BLEND);
  s.scissor = glIsEnabled(GL_SCISSOR_TEST);
  s.depthTest = glIsEnabled(GL_DEPTH_TEST);
  s.stencilTest = glIsEnabled(GL_STENCIL_TEST);
  s.cull = glIsEnabled(GL_CULL_FACE);
  s.discard = glIsEnabled(GL_RASTERIZER_DISCARD);
  if (caps.framebufferSrgb) s.srgb = glIsEnabled(GL_FRAMEBUFFER_SRGB);
  if (caps.programPointSize) s.programPointSize = glIsEnabled(GL_PROGRAM_POINT_SIZE);
  glGetBooleanv(GL_COLOR_WRITEMASK, s.colorMask);
  glGetIntegerv(GL_BLEND_SRC_RGB, &s.blendSrcRgb);
  glGetIntegerv(GL_BLEND_DST_RGB, &s.blendDstRgb);
  glGetIntegerv(GL_BLEND_SRC_ALPHA, &s.blendSrcA);
  glGetIntegerv(GL_BLEND_DST_ALPHA, &s.blendDstA);
  glGetIntegerv(GL_BLEND_EQUATION_RGB, &s.blendEqRgb);
  glGetIntegerv(GL_BLEND_EQUATION_ALPHA, &s.blendEqA);
  if (s.polygonMode) {
    // Core profiles report front and back together; some drivers write only one value.
    s.polygonModeValue[0] = s.polygonModeValue[1] = GL_FILL;
    glGetIntegerv(GL_POLYGON_MODE, s.polygonModeValue);
  }

  // The neutral state every texstream pass assumes.
  glDisable(GL_BLEND);
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_STENCIL_TEST);
  glDisable(GL_CULL_FACE);
  glDisable(GL_RASTERIZER_DISCARD);
  if (caps.framebufferSrgb) glDisable(GL_FRAMEBUFFER_SRGB);
  glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  if (s.polygonMode) glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);

  // Names released while another context was current, and the GPU-side wait for what
  // another context of the share group wrote last.
  record.deletePending();
  group.deletePending();
  group.takeOver(record);
}

void StateGuard::preparePixelTransfer() {
  Saved& s = saved("StateGuard::preparePixelTransfer");
  if (s.pixelStoreSaved) return;
  glGetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &s.packBuffer);
  glGetIntegerv(GL_PIXEL_UNPACK_BUFFER_BINDING, &s.unpackBuffer);
  for (std::size_t i = 0; i < kPixelStoreCount; ++i) {
    if (kPixelStore[i].desktopOnly && !s.desktop) continue;
    glGetIntegerv(kPixelStore[i].name, &s.pixelStore[i]);
    if (s.pixelStore[i] != kPixelStore[i].neutral) glPixelStorei(kPixelStore[i].name, kPixelStore[i].neutral);
  }
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  s.pixelStoreSaved = true;
}

StateGuard::~StateGuard() {
  ContextRecord* record = activeRecord();
  if (!record) return;  // released inside the guard (cannot happen: releaseCurrentContext refuses)
  Saved& s = savedFor(*record);
  if (--s.depth > 0) return;
  if (!record->handleStillCurrent()) {
    // Restoring into another context would change that one's state: left as it is.
    std::fprintf(stderr,
                 "texstream: the current context changed during a texstream call on %s (a callback made another "
                 "context current?); its state was not restored\n",
                 record->describe().c_str());
    s.pixelStoreSaved = false;
    for (auto& u : s.units) u.saved = false;
    for (auto& b : s.images) b.saved = false;
    for (auto& b : s.storage) b.saved = false;
    s.genericStorageSaved = false;
    setActiveRecord(nullptr);
    record->group().calls.unlock();
    return;
  }
  for (std::size_t i = 0; i < s.images.size(); ++i) {
    ImageBinding& b = s.images[i];
    if (!b.saved) continue;
    glBindImageTexture(GLuint(i), GLuint(b.name), b.level, GLboolean(b.layered), b.layer,
                       GLenum(b.access), GLenum(b.format ? b.format : GL_RGBA32F));
    b.saved = false;
  }
  for (std::size_t i = 0; i < s.storage.size(); ++i) {
    Saved::StorageBinding& b = s.storage[i];
    if (!b.saved) continue;
    if (b.buffer != 0 && b.size > 0) {
      glBindBufferRange(GL_SHADER_STORAGE_BUFFER, GLuint(i), GLuint(b.buffer), GLintptr(b.offset), GLsizeiptr(b.size));
    } else {
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, GLuint(i), GLuint(b.buffer));
    }
    b.saved = false;
  }
  if (s.genericStorageSaved) {
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, GLuint(s.genericStorage));
    s.genericStorageSaved = false;
  }
  for (std::size_t i = 0; i < s.units.size(); ++i) {
    UnitBinding& u = s.units[i];
    if (!u.saved) continue;
    glActiveTexture(GLenum(GL_TEXTURE0 + i));
    glBindTexture(GL_TEXTURE_2D, GLuint(u.tex2D));
    glBindTexture(GL_TEXTURE_2D_ARRAY, GLuint(u.tex2DArray));
    u.saved = false;
  }
  if (s.pixelStoreSaved) {
    for (std::size_t i = 0; i < kPixelStoreCount; ++i) {
      if (kPixelStore[i].desktopOnly && !s.desktop) continue;
      if (s.pixelStore[i] != kPixelStore[i].neutral) glPixelStorei(kPixelStore[i].name, s.pixelStore[i]);
    }
    glBindBuffer(GL_PIXEL_PACK_BUFFER, GLuint(s.packBuffer));
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, GLuint(s.unpackBuffer));
    s.pixelStoreSaved = false;
  }
  glActiveTexture(GLenum(s.activeTexture));
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, GLuint(s.drawFbo));
  glBindFramebuffer(GL_READ_FRAMEBUFFER, GLuint(s.readFbo));
  glUseProgram(GLuint(s.program));
  glBindVertexArray(GLuint(s.vao));
  glBindBuffer(GL_ARRAY_BUFFER, GLuint(s.arrayBuffer));
  glViewport(s.viewport[0], s.viewport[1], s.viewport[2], s.viewport[3]);
  glScissor(s.scissorBox[0], s.scissorBox[1], s.scissorBox[2], s.scissorBox[3]);
  auto setEnabled = [](GLenum cap, GLboolean on) { on ? glEnable(cap) : glDisable(cap); };
  setEnabled(GL_BLEND, s.blend);
  setEnabled(GL_SCISSOR_TEST, s.scissor);
  setEnabled(GL_DEPTH_TEST, s.depthTest);
  setEnabled(GL_STENCIL_TEST, s.stencilTest);
  setEnabled(GL_CULL_FACE, s.cull);
  setEnabled(GL_RASTERIZER_DISCARD, s.discard);
  if (s.desktop) {
    setEnabled(GL_FRAMEBUFFER_SRGB, s.srgb);
    setEnabled(GL_PROGRAM_POINT_SIZE, s.programPointSize);
  }
  glColorMask(s.colorMask[0], s.colorMask[1], s.colorMask[2], s.colorMask[3]);
  glBlendFuncSeparate(GLenum(s.blendSrcRgb), GLenum(s.blendDstRgb), GLenum(s.blendSrcA),
                      GLenum(s.blendDstA));
  glBlendEquationSeparate(GLenum(s.blendEqRgb), GLenum(s.blendEqA));
  if (s.polygonMode) glPolygonMode(GL_FRONT_AND_BACK, GLenum(s.polygonModeValue[0]));
  ShareGroup& group = record->group();
  group.handOver(*record);
  setActiveRecord(nullptr);
  group.calls.unlock();
}

void StateGuard::bindTexture(int unit, unsigned int target, unsigned int id) {
  Saved& s = saved("StateGuard::bindTexture");
  if (int(s.units.size()) <= unit) s.units.resize(std::size_t(unit) + 1);
  UnitBinding& u = s.units[std::size_t(unit)];
  glActiveTexture(GLenum(GL_TEXTURE0 + unit));
  if (!u.saved) {
    glGetIntegerv(GL_TEXTURE_BINDING_2D, &u.tex2D);
    glGetIntegerv(GL_TEXTURE_BINDING_2D_ARRAY, &u.tex2DArray);
    u.saved = true;
  }
  glBindTexture(target, id);
}

void StateGuard::bindImage(int unit, unsigned int texture, unsigned int access, unsigned int format) {
  Saved& s = saved("StateGuard::bindImage");
  if (int(s.images.size()) <= unit) s.images.resize(std::size_t(unit) + 1);
  ImageBinding& b = s.images[std::size_t(unit)];
  if (!b.saved) {
    glGetIntegeri_v(GL_IMAGE_BINDING_NAME, GLuint(unit), &b.name);
    glGetIntegeri_v(GL_IMAGE_BINDING_LEVEL, GLuint(unit), &b.level);
    glGetIntegeri_v(GL_IMAGE_BINDING_LAYERED, GLuint(unit), &b.layered);
    glGetIntegeri_v(GL_IMAGE_BINDING_LAYER, GLuint(unit), &b.layer);
    glGetIntegeri_v(GL_IMAGE_BINDING_ACCESS, GLuint(unit), &b.access);
    glGetIntegeri_v(GL_IMAGE_BINDING_FORMAT, GLuint(unit), &b.format);
    b.saved = true;
  }
  glBindImageTexture(GLuint(unit), texture, 0, GL_FALSE, 0, access, format);
}

void StateGuard::bindStorageBuffer(int index, unsigned int buffer) {
  Saved& s = saved("StateGuard::bindStorageBuffer");
  if (!s.genericStorageSaved) {
    glGetIntegerv(GL_SHADER_STORAGE_BUFFER_BINDING, &s.genericStorage);
    s.genericStorageSaved = true;
  }
  if (int(s.storage.size()) <= index) s.storage.resize(std::size_t(index) + 1);
  Saved::StorageBinding& b = s.storage[std::size_t(index)];
  if (!b.saved) {
    glGetIntegeri_v(GL_SHADER_STORAGE_BUFFER_BINDING, GLuint(index), &b.buffer);
    glGetInteger64i_v(GL_SHADER_STORAGE_BUFFER_START, GLuint(index), &b.offset);
    glGetInteger64i_v(GL_SHADER_STORAGE_BUFFER_SIZE, GLuint(index), &b.size);
    b.saved = true;
  }
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, GLuint(index), buffer);
}

}  // namespace texstream::gl
