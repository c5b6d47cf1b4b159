#include <texstream/stream/TexturePool.h>

namespace texstream::stream {

gl::Texture TexturePool::acquire(int width, int height, gl::TextureFormat format, std::string name) {
  auto it = m_free.find(Key{width, height, int(format)});
  if (it != m_free.end() && !it->second.empty()) {
    gl::Texture t = std::move(it->second.back());
    it->second.pop_back();
    t.setName(std::move(name));
    return t;
  }
  return gl::Texture(width, height, format, std::move(name));
}

void TexturePool::release(gl::Texture&& texture) {
  // A texture of another share group is not this pool's to reuse: it is let go (its owner
  // deletes it where it belongs).
  if (texture.id() == 0 || texture.isArray() || !texture.owner().isCurrent()) return;
  m_free[Key{texture.width(), texture.height(), int(texture.format())}].push_back(std::move(texture));
}

void TexturePool::clear() { m_free.clear(); }

std::size_t TexturePool::freeCount() const {
  std::size_t n = 0;
  for (const auto& [k, v] : m_free) n += v.size();
  return n;
}

std::size_t TexturePool::freeBytes() const {
  std::size_t bytes = 0;
  for (const auto& [k, v] : m_free) {
    bytes += v.size() * std::size_t(std::get<0>(k)) * std::size_t(std::get<1>(k)) *
             std::size_t(gl::bytesPerTexel(gl::TextureFormat(std::get<2>(k))));
  }
  return bytes;
}

}  // namespace texstream::stream
