#pragma once
// texstream::stream::Vector: the texture vector of Krüger & Westermann §44.2.1 — n floats
// in an RGBA32F texture (Layout.h), owned, named, uploaded and downloaded in the user's
// element order. The texture can be sampled directly by the host's renderer:
//   glBindTexture(GL_TEXTURE_2D, x.texture().id());
// (after an operation that writes x in place the id may change; ask again each frame).
#include <texstream/gl/Texture.h>
#include <texstream/stream/Layout.h>

#include <span>
#include <string>
#include <vector>

namespace texstream::stream {

class Vector {
 public:
  Vector() = default;
  /// n scalars, zero-initialised, in Layout::forSize(n).
  Vector(std::size_t n, std::string name);
  /// `format` RGBA16F stores half floats: for fields that can do with them where RGBA32F
  /// render targets are missing (Capabilities::halfFloatRenderTargets); the solvers and
  /// reductions take RGBA32F vectors.
  Vector(const Layout& layout, std::string name, gl::TextureFormat format = gl::TextureFormat::RGBA32F);
  /// A vector whose texture comes from (and returns to) the runtime's texture pool:
  /// for temporaries inside operations. Contents are NOT zeroed except the padding.
  static Vector temporary(const Layout& layout, std::string name, gl::TextureFormat format = gl::TextureFormat::RGBA32F);
  /// temporary() without the padding's zeroing (a pass where the layout has padding): for
  /// a vector whose first writer covers every texel and leaves the padding zero before
  /// anything reads it (CG's set-up residual and its first update; not a sparse product,
  /// which may leave padding texels untouched).
  static Vector uninitializedTemporary(const Layout& layout, std::string name,
                                       gl::TextureFormat format = gl::TextureFormat::RGBA32F);
  ~Vector();
  Vector(Vector&& other) noexcept;
  Vector& operator=(Vector&& other) noexcept;
  Vector(const Vector&) = delete;
  Vector& operator=(const Vector&) = delete;

  std::size_t size() const { return m_layout.size(); }
  const Layout& layout() const { return m_layout; }
  const std::string& name() const { return m_texture.name(); }
  const gl::Texture& texture() const { return m_texture; }
  gl::TextureFormat format() const { return m_texture.format(); }
  /// For passes that write this vector (Pass::output).
  gl::Texture& mutableTexture() { return m_texture; }
  bool empty() const { return m_texture.id() == 0; }

  /// Exactly size() values; throws Error naming the vector and both sizes otherwise.
  void upload(std::span<const float> values);
  void upload(std::span<const double> values);
  void download(std::span<float> out) const;
  std::vector<float> download() const;
  /// Sets every element (padding stays zero).
  void setZero();

 private:
  Layout m_layout;
  gl::Texture m_texture;
  bool m_pooled = false;
};

/// Every vector's size() values, with one wait for the GPU for all of them
/// (gl::downloadTextures) instead of one a vector.
std::vector<std::vector<float>> downloadAll(std::span<const Vector* const> vectors);

/// Throws Error("what: vector \"a\" has n=..., vector \"b\" has n=...") unless same layout.
void requireSameLayout(const char* what, const Vector& a, const Vector& b);

}  // namespace texstream::stream
