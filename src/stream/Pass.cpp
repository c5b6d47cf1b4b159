#include <texstream/stream/Pass.h>

#include <texstream/gl/Buffer.h>
#include <texstream/gl/Error.h>
#include <texstream/gl/Framebuffer.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/gl/Texture.h>
#include <texstream/stream/KernelCache.h>
#include <texstream/stream/Profiler.h>
#include <texstream/stream/Runtime.h>
#include <texstream/stream/Scalar.h>
#include <texstream/stream/TexturePool.h>
#include <texstream/stream/Vector.h>

#include <glad/gl.h>

#include <utility>

namespace texstream::stream {

Pass::Pass(std::string kernel) : m_kernel(std::move(kernel)) {}

Pass& Pass::define(const std::string& name, const std::string& value) {
  m_defines.emplace_back(name, value);
  return *this;
}
Pass& Pass::define(const std::string& name, long long value) { return define(name, std::to_string(value)); }

Pass& Pass::input(const std::string& sampler, const gl::Texture& texture) {
  if (texture.id() == 0) throw gl::Error("Pass(\"" + m_kernel + "\"): input " + sampler + " is an empty texture");
  m_inputs.push_back({sampler, &texture});
  return *this;
}
Pass& Pass::input(const std::string& sampler, const Vector& v) { return input(sampler, v.texture()); }
Pass& Pass::input(const std::string& sampler, const Scalar& s) { return input(sampler, s.texture()); }

Pass& Pass::uniform(const std::string& name, int v) {
  return addUniform({.name = name, .kind = Uniform::Int, .count = 1, .i = {v}});
}
Pass& Pass::uniform(const std::string& name, int a, int b) {
  return addUniform({.name = name, .kind = Uniform::Int, .count = 2, .i = {a, b}});
}
Pass& Pass::uniform(const std::string& name, int a, int b, int c, int d) {
  return addUniform({.name = name, .kind = Uniform::Int, .count = 4, .i = {a, b, c, d}});
}
Pass& Pass::uniform(const std::string& name, float v) {
  return addUniform({.name = name, .kind = Uniform::Float, .count = 1, .f = {v}});
}
Pass& Pass::uniform(const std::string& name, float a, float b) {
  return addUniform({.name = name, .kind = Uniform::Float, .count = 2, .f = {a, b}});
}
Pass& Pass::uniform(const std::string& name, float a, float b, float c, float d) {
  return addUniform({.name = name, .kind = Uniform::Float, .count = 4, .f = {a, b, c, d}});
}
Pass& Pass::uniformArray(const std::string& name, const std::vector<int>& values) {
  return addUniform({.name = name, .kind = Uniform::IntArray, .ia = values});
}
Pass& Pass::uniformArray(const std::string& name, const std::vector<float>& values) {
  return addUniform({.name = name, .kind = Uniform::FloatArray, .fa = values});
}
Pass& Pass::addUniform(Uniform u) {
  m_uniforms.push_back(std::move(u));
  return *this;
}

Pass& Pass::coefficient(const std::string& name, const Coefficient& c) {
  uniform(name + ".factor", c.factor);
  uniform(name + ".mode", c.scalar ? (c.reciprocal ? 2 : 1) : 0);
  // Constant coefficients still bind a real 1x1 texture: an unbound sampler would share
  // unit 0 with whatever sampler type sits there, which GL rejects at draw time.
  return input(name + ".scalar", c.scalar ? c.scalar->texture() : Runtime::current().unitScalar());
}

Pass& Pass::output(Vector& v) { return output(v.mutableTexture()); }
Pass& Pass::output(Scalar& s) { return output(s.mutableTexture()); }
Pass& Pass::output(gl::Texture& t) {
  if (t.id() == 0) throw gl::Error("Pass(\"" + m_kernel + "\"): output is an empty texture");
  if (t.isArray()) throw gl::Error("Pass(\"" + m_kernel + "\"): output \"" + t.name() + "\" is an array texture");
  m_outputs.push_back(&t);
  return *this;
}

Pass& Pass::workgroups(int x, int y, int z) {
  if (x <= 0 || y <= 0 || z <= 0) throw gl::Error("Pass(\"" + m_kernel + "\"): workgroup counts must be positive");
  m_groups[0] = x, m_groups[1] = y, m_groups[2] = z;
  return *this;
}

Pass& Pass::alsoDispatch(const std::string& define, int x, int y, int z) {
  if (x <= 0 || y <= 0 || z <= 0) throw gl::Error("Pass(\"" + m_kernel + "\"): workgroup counts must be positive");
  if (define.empty()) throw gl::Error("Pass(\"" + m_kernel + "\"): alsoDispatch needs a define naming its variant");
  m_secondDefine = define;
  m_secondGroups[0] = x, m_secondGroups[1] = y, m_secondGroups[2] = z;
  return *this;
}

Pass& Pass::storage(int index, unsigned int buffer) {
  for (auto& [bound, id] : m_storage) {
    if (bound == index) {
      id = buffer;  // a later binding of the same index replaces the earlier
      return *this;
    }
  }
  m_storage.emplace_back(index, buffer);
  return *this;
}

Pass& Pass::backend(Backend b) {
  m_backend = b;
  return *this;
}

Pass& Pass::inPlace() {
  m_inPlace = true;
  return *this;
}

Pass& Pass::label(std::string text) {
  m_label = std::move(text);
  return *this;
}

void Pass::setUniforms(const gl::Program& program) const {
  for (std::size_t i = 0; i < m_inputs.size(); ++i) {
    const int loc = program.uniformLocation(m_inputs[i].sampler);
    if (loc >= 0) glUniform1i(loc, GLint(i));
  }
  for (const Uniform& u : m_uniforms) {
    const int loc = program.uniformLocation(u.name);
    if (loc < 0) continue;  // optimised away by the compiler: nothing to set
    switch (u.kind) {
      case Uniform::Int:
        if (u.count == 1) glUniform1i(loc, u.i[0]);
        else if (u.count == 2) glUniform2i(loc, u.i[0], u.i[1]);
        else glUniform4i(loc, u.i[0], u.i[1], u.i[2], u.i[3]);
        break;
      case Uniform::Float:
        if (u.count == 1) glUniform1f(loc, u.f[0]);
        else if (u.count == 2) glUniform2f(loc, u.f[0], u.f[1]);
        else glUniform4f(loc, u.f[0], u.f[1], u.f[2], u.f[3]);
        break;
      case Uniform::IntArray: glUniform1iv(loc, GLsizei(u.ia.size()), u.ia.data()); break;
      case Uniform::FloatArray: glUniform1fv(loc, GLsizei(u.fa.size()), u.fa.data()); break;
    }
  }
  // The guard of common/double_float.glsl against algebraic simplification (no `precise`).
  if (const int one = program.uniformLocation("u_doubleFloatOne"); one >= 0) glUniform1f(one, 1.0f);
}

void Pass::run() {
  const bool raw = m_groups[0] > 0;
  if (m_outputs.empty() && !raw) throw gl::Error("Pass(\"" + m_kernel + "\"): no output");
  run(raw ? std::vector<Rect>{} : std::vector<Rect>{Rect{0, 0, m_outputs[0]->width(), m_outputs[0]->height()}});
}

void Pass::run(const std::vector<Rect>& rects) {
  // The call boundary first: the runtime below is the record's the guard has checked.
  gl::StateGuard guard;
  Runtime& rt = Runtime::current();
  const bool raw = m_groups[0] > 0;
  // A raw kernel may write storage buffers only (stream::ScalarReadback's copy).
  if (m_outputs.empty() && !raw) throw gl::Error("Pass(\"" + m_kernel + "\"): no output");
  const Backend backend = raw ? Backend::Compute : (m_backend ? *m_backend : rt.backend());
  rt.requireBackend(backend);
  const int width = m_outputs.empty() ? 0 : m_outputs[0]->width(), height = m_outputs.empty() ? 0 : m_outputs[0]->height();
  for (const gl::Texture* o : m_outputs) {
    // Raw compute kernels address each image themselves (a vector and a Scalar, say).
    if (!raw && (o->width() != width || o->height() != height)) {
      throw gl::Error("Pass(\"" + m_kernel + "\"): outputs differ in size (\"" + m_outputs[0]->name() + "\" " +
                      std::to_string(width) + "x" + std::to_string(height) + ", \"" + o->name() + "\" " +
                      std::to_string(o->width()) + "x" + std::to_string(o->height()) + ")");
    }
  }
  if (backend == Backend::Fragment && !rt.caps().floatRenderTargets) {
    // A half-float-only context (iOS Safari): the framebuffer would be incomplete.
    for (const gl::Texture* o : m_outputs) {
      if (gl::isFloat32(o->format()))
        throw gl::Error("Pass(\"" + m_kernel + "\"): cannot render into the " + gl::formatName(o->format()) +
                        " texture \"" + o->name() + "\": " + rt.caps().floatTargetsMissing() +
                        " (texstream's solvers and reductions need 32-bit floats)");
    }
  }
  // Textures of a context that does not share objects with the current one would be
  // other textures of the same names here.
  for (const Input& in : m_inputs) {
    if (!in.texture->owner().isCurrent())
      in.texture->owner().requireCurrent("Pass(\"" + m_kernel + "\"): input " + in.sampler + " (\"" + in.texture->name() + "\")");
  }
  for (const gl::Texture* o : m_outputs) {
    if (!o->owner().isCurrent()) o->owner().requireCurrent("Pass(\"" + m_kernel + "\"): output \"" + o->name() + "\"");
  }
  for (const Rect& r : rects) {
    if (r.x < 0 || r.y < 0 || r.x + r.w > width || r.y + r.h > height) {
      throw gl::Error("Pass(\"" + m_kernel + "\"): rectangle outside the output \"" + m_outputs[0]->name() + "\"");
    }
  }

  if (!m_secondDefine.empty() && !raw)
    throw gl::Error("Pass(\"" + m_kernel + "\"): alsoDispatch needs workgroups() (a raw compute kernel)");
  KernelVariant variant{m_kernel, m_defines, backend, {}, raw};
  for (const gl::Texture* o : m_outputs) variant.outputs.push_back(o->format());
  const gl::Program& program = rt.kernels().get(variant);
  const gl::Program* second = nullptr;
  if (!m_secondDefine.empty()) {
    KernelVariant other = variant;
    other.defines.emplace_back(m_secondDefine, "1");
    second = &rt.kernels().get(other);
  }

  // Outputs that are also inputs get a fresh pooled target; it replaces them afterwards.
  // An in-place pass writes its output directly, except on the fragment backend of a
  // context that cannot render into a texture it samples: there its target starts as a
  // copy of the output, so the texels the pass does not write keep their values.
  std::vector<gl::Texture> replacements(m_outputs.size());
  std::vector<gl::Texture*> targets(m_outputs.begin(), m_outputs.end());
  const bool copyInPlace = m_inPlace && backend == Backend::Fragment && !rt.caps().renderFeedbackLoops;
  for (std::size_t i = 0; i < m_outputs.size() && (!m_inPlace || copyInPlace); ++i) {
    for (const Input& in : m_inputs) {
      if (in.texture->id() == m_outputs[i]->id() && copyInPlace) {
        replacements[i] = rt.pool().acquire(m_outputs[i]->width(), m_outputs[i]->height(), m_outputs[i]->format(),
                                            m_outputs[i]->name());
        Pass("stream/copy_texels").input("u_source", *m_outputs[i]).output(replacements[i]).backend(backend).run();
        targets[i] = &replacements[i];
        break;
      }
      if (in.texture->id() == m_outputs[i]->id()) {
        const bool whole = raw || (rects.size() == 1 && rects[0].x == 0 && rects[0].y == 0 &&
                                   rects[0].w == width && rects[0].h == height);
        if (!whole) {
          throw gl::Error("Pass(\"" + m_kernel + "\"): output \"" + m_outputs[i]->name() +
                          "\" is also an input, which needs a pass over the whole output");
        }
        replacements[i] = rt.pool().acquire(m_outputs[i]->width(), m_outputs[i]->height(), m_outputs[i]->format(),
                                            m_outputs[i]->name());
        targets[i] = &replacements[i];
        break;
      }
    }
  }

  const std::string& title = m_label.empty() ? m_kernel : m_label;
  rt.profiler().begin(title);
  for (std::size_t i = 0; i < m_inputs.size(); ++i)
    gl::StateGuard::bindTexture(int(i), m_inputs[i].texture->target(), m_inputs[i].texture->id());
  glUseProgram(program.id());
  setUniforms(program);

  if (backend == Backend::Fragment) {
    // An in-place pass samples texels an earlier draw wrote into the texture it renders to.
    if (m_inPlace && !copyInPlace) glTextureBarrier();
    std::vector<const gl::Texture*> colors(targets.begin(), targets.end());
    rt.framebuffer().bindForDrawing(colors);
    glViewport(0, 0, width, height);
    glBindVertexArray(rt.emptyVertexArray().id());
    const int rectLoc = program.uniformLocation("u_rect");
    const int sizeLoc = program.uniformLocation("u_targetSize");
    glUniform2f(sizeLoc, float(width), float(height));
    for (const Rect& r : rects) {
      if (r.w <= 0 || r.h <= 0) continue;
      glUniform4f(rectLoc, float(r.x), float(r.y), float(r.w), float(r.h));
      glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    }
  } else {
    for (std::size_t i = 0; i < targets.size(); ++i) {
      // Image u_image<i> is declared with layout(binding = i) (KernelCache.cpp).
      gl::StateGuard::bindImage(int(i), targets[i]->id(), GL_WRITE_ONLY, gl::internalFormat(targets[i]->format()));
    }
    for (const auto& [index, buffer] : m_storage) gl::StateGuard::bindStorageBuffer(index, buffer);
    if (raw) {
      glDispatchCompute(GLuint(m_groups[0]), GLuint(m_groups[1]), GLuint(m_groups[2]));
      if (second) {
        glUseProgram(second->id());
        setUniforms(*second);
        glDispatchCompute(GLuint(m_secondGroups[0]), GLuint(m_secondGroups[1]), GLuint(m_secondGroups[2]));
      }
    } else {
      const int rectLoc = program.uniformLocation("u_rect");
      for (const Rect& r : rects) {
        if (r.w <= 0 || r.h <= 0) continue;
        glUniform4i(rectLoc, r.x, r.y, r.w, r.h);
        glDispatchCompute(GLuint((r.w + kWorkgroupSize - 1) / kWorkgroupSize),
                          GLuint((r.h + kWorkgroupSize - 1) / kWorkgroupSize), 1);
      }
    }
    // Later passes read these texels by texelFetch, render targets, pixel transfers; storage
    // buffers by later kernels and by the CPU (a mapped or glGetBufferSubData read).
    glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT |
                    GL_FRAMEBUFFER_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT | GL_PIXEL_BUFFER_BARRIER_BIT |
                    (m_storage.empty() ? 0 : GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT));
  }
  rt.profiler().end();

  for (std::size_t i = 0; i < m_outputs.size(); ++i) {
    if (replacements[i].id() == 0) continue;
    std::swap(*m_outputs[i], replacements[i]);
    rt.pool().release(std::move(replacements[i]));
  }
}

}  // namespace texstream::stream
