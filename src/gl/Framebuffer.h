#pragma once
// texstream::gl::Framebuffer: move-only owner of an FBO. Incompleteness is turned into
// text right after attaching.
#include <texstream/gl/ObjectName.h>

#include <string>
#include <vector>

namespace texstream::gl {

class Texture;

class Framebuffer {
 public:
  Framebuffer() = default;
  explicit Framebuffer(std::string name);

  unsigned int id() const { return m_id.get(); }
  const std::string& name() const { return m_name; }
  /// Binds as GL_DRAW_FRAMEBUFFER, attaches `colors` to attachments 0..n-1 (layer picks a
  /// layer of an array texture), detaches the rest, sets the draw buffers, and throws
  /// Error("Framebuffer(name): incomplete: ...") if the driver refuses the combination.
  /// Caller holds a StateGuard.
  void bindForDrawing(const std::vector<const Texture*>& colors, int layer = 0);

 private:
  ObjectName m_id;  // owned by the context (GL never shares framebuffers)
  int m_attached = 0;
  std::string m_name;
};

/// GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT -> "incomplete attachment" and so on.
std::string framebufferStatusText(unsigned int status);

}  // namespace texstream::gl
