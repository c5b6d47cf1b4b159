#include <texstream/stream/Vector.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Runtime.h>
#include <texstream/stream/TexturePool.h>

#include <utility>

namespace texstream::stream {

namespace {
gl::TextureFormat requireRgba(gl::TextureFormat format) {
  if (format != gl::TextureFormat::RGBA32F && format != gl::TextureFormat::RGBA16F)
    throw gl::Error(std::string("Vector: a vector's texture is RGBA32F or RGBA16F, not ") + gl::formatName(format));
  return format;
}
}  // namespace

Vector::Vector(std::size_t n, std::string name) : Vector(Layout::forSize(n), std::move(name)) {}

Vector::Vector(const Layout& layout, std::string name, gl::TextureFormat format)
    : m_layout(layout), m_texture(layout.width(), layout.height(), requireRgba(format), std::move(name)) {}

Vector Vector::temporary(const Layout& layout, std::string name, gl::TextureFormat format) {
  Vector v = uninitializedTemporary(layout, std::move(name), format);
  // Pooled textures hold old data; the padding must be zero (identity of reductions).
  if (layout.usedTexels() < layout.texels() || layout.size() % 4 != 0) v.setZero();
  return v;
}

Vector Vector::uninitializedTemporary(const Layout& layout, std::string name, gl::TextureFormat format) {
  Vector v;
  v.m_layout = layout;
  v.m_texture = Runtime::current().pool().acquire(layout.width(), layout.height(), requireRgba(format), std::move(name));
  v.m_pooled = true;
  return v;
}

Vector::~Vector() {
  if (m_pooled) Runtime::recycle(std::move(m_texture));
}

Vector::Vector(Vector&& o) noexcept
    : m_layout(o.m_layout), m_texture(std::move(o.m_texture)), m_pooled(std::exchange(o.m_pooled, false)) {}

Vector& Vector::operator=(Vector&& o) noexcept {
  if (this != &o) {
    if (m_pooled) Runtime::recycle(std::move(m_texture));
    m_layout = o.m_layout;
    m_texture = std::move(o.m_texture);
    m_pooled = std::exchange(o.m_pooled, false);
  }
  return *this;
}

void Vector::upload(std::span<const float> values) {
  if (empty()) throw gl::Error("Vector::upload: empty vector");
  if (values.size() != size()) {
    throw gl::Error("Vector(\"" + name() + "\").upload: got " + std::to_string(values.size()) +
                    " values, the vector holds n = " + std::to_string(size()));
  }
  std::vector<float> padded(m_layout.paddedSize(), 0.0f);
  std::copy(values.begin(), values.end(), padded.begin());
  m_texture.upload(padded.data());
}

void Vector::upload(std::span<const double> values) {
  std::vector<float> f(values.begin(), values.end());
  upload(std::span<const float>(f));
}

void Vector::download(std::span<float> out) const {
  if (empty()) throw gl::Error("Vector::download: empty vector");
  if (out.size() != size()) {
    throw gl::Error("Vector(\"" + name() + "\").download: buffer holds " + std::to_string(out.size()) +
                    " values, the vector n = " + std::to_string(size()));
  }
  std::vector<float> padded(m_layout.paddedSize());
  m_texture.download(padded.data());
  std::copy(padded.begin(), padded.begin() + std::ptrdiff_t(size()), out.begin());
}

std::vector<float> Vector::download() const {
  std::vector<float> v(size());
  download(std::span<float>(v));
  return v;
}

void Vector::setZero() {
  // On the compute backend a clear (glClear*, glClearTexImage) is work for the graphics
  // engine, and between compute dispatches the switch to it and back stalls the GPU; the
  // fill kernel stays a dispatch. docs/performance.md ("CG's fixed cost per solve") has the figures.
  if (empty() || Runtime::current().backend() != Backend::Compute) {
    m_texture.fill(0.0f);
    return;
  }
  gl::StateGuard guard;
  Pass("stream/fill").label("stream::Vector::setZero").coefficient("u_a", Coefficient(0.0f))
      .uniform("u_n", int(size())).uniform("u_width", m_layout.width()).output(*this).run();
}

std::vector<std::vector<float>> downloadAll(std::span<const Vector* const> vectors) {
  std::vector<std::vector<float>> padded(vectors.size());
  std::vector<const gl::Texture*> textures;
  std::vector<float*> outs;
  for (std::size_t i = 0; i < vectors.size(); ++i) {
    if (vectors[i]->empty()) throw gl::Error("stream::downloadAll: empty vector");
    padded[i].resize(vectors[i]->layout().paddedSize());
    textures.push_back(&vectors[i]->texture());
    outs.push_back(padded[i].data());
  }
  gl::downloadTextures(textures, outs);
  for (std::size_t i = 0; i < vectors.size(); ++i) padded[i].resize(vectors[i]->size());
  return padded;
}

void requireSameLayout(const char* what, const Vector& a, const Vector& b) {
  if (a.empty() || b.empty()) {
    throw gl::Error(std::string(what) + ": vector \"" + (a.empty() ? b.name() : a.name()) + "\" is paired with an empty vector");
  }
  if (a.layout() != b.layout()) {
    throw gl::Error(std::string(what) + ": vector \"" + a.name() + "\" has " + a.layout().describe() + ", vector \"" +
                    b.name() + "\" has " + b.layout().describe());
  }
}

}  // namespace texstream::stream
