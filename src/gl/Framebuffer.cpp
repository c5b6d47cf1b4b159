#include <texstream/gl/Framebuffer.h>

#include <texstream/gl/Debug.h>
#include <texstream/gl/Error.h>
#include <texstream/gl/Texture.h>

#include <glad/gl.h>

#include <utility>

namespace texstream::gl {

std::string framebufferStatusText(unsigned int status) {
  switch (status) {
    case GL_FRAMEBUFFER_COMPLETE: return "complete";
    case GL_FRAMEBUFFER_UNDEFINED: return "undefined (no default framebuffer)";
    case GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT: return "incomplete attachment (format not renderable?)";
    case GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT: return "no attachment";
    case GL_FRAMEBUFFER_INCOMPLETE_DRAW_BUFFER: return "incomplete draw buffer";
    case GL_FRAMEBUFFER_INCOMPLETE_READ_BUFFER: return "incomplete read buffer";
    case GL_FRAMEBUFFER_UNSUPPORTED: return "unsupported combination of formats";
    case GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE: return "inconsistent multisampling";
    case GL_FRAMEBUFFER_INCOMPLETE_LAYER_TARGETS: return "inconsistent layer targets";
    default: return "unknown status " + std::to_string(status);
  }
}

Framebuffer::Framebuffer(std::string name) : m_name(std::move(name)) {
  ObjectOwner owner = ObjectOwner::currentContext();
  GLuint id = 0;
  glGenFramebuffers(1, &id);
  m_id = ObjectName(std::move(owner), ObjectKind::Framebuffer, id);
  label(GL_FRAMEBUFFER, id, m_name);
}

void Framebuffer::bindForDrawing(const std::vector<const Texture*>& colors, int layer) {
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, m_id.get());
  GLenum buffers[8];
  const int n = int(colors.size());
  if (n > 8) throw Error("Framebuffer(\"" + m_name + "\"): more than 8 colour attachments");
  for (int i = 0; i < n; ++i) {
    const Texture* t = colors[std::size_t(i)];
    if (t->isArray()) {
      glFramebufferTextureLayer(GL_DRAW_FRAMEBUFFER, GLenum(GL_COLOR_ATTACHMENT0 + i), t->id(), 0, layer);
    } else {
      glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GLenum(GL_COLOR_ATTACHMENT0 + i), GL_TEXTURE_2D, t->id(), 0);
    }
    buffers[i] = GLenum(GL_COLOR_ATTACHMENT0 + i);
  }
  for (int i = n; i < m_attached; ++i) {
    glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GLenum(GL_COLOR_ATTACHMENT0 + i), GL_TEXTURE_2D, 0, 0);
  }
  m_attached = n;
  glDrawBuffers(n, buffers);
  const GLenum status = glCheckFramebufferStatus(GL_DRAW_FRAMEBUFFER);
  if (status != GL_FRAMEBUFFER_COMPLETE) {
    std::string what;
    for (const Texture* t : colors) what += (what.empty() ? "" : ", ") + t->name();
    throw Error("Framebuffer(\"" + m_name + "\"): incomplete with [" + what + "]: " +
                framebufferStatusText(status));
  }
}

}  // namespace texstream::gl
