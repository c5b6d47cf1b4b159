#pragma once
// texstream::stream::TexturePool: recycled textures for temporaries (reduction levels,
// the targets of in-place passes), Krüger & Westermann's clMemMan idea: allocating GL
// textures inside an iteration is slow, so released textures wait here for reuse.
#include <texstream/gl/Texture.h>

#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace texstream::stream {

class TexturePool {
 public:
  /// A texture of this shape, reused if one is free (contents undefined), else new.
  gl::Texture acquire(int width, int height, gl::TextureFormat format, std::string name);
  /// Gives a texture back for reuse.
  void release(gl::Texture&& texture);
  /// Deletes every free texture.
  void clear();
  std::size_t freeCount() const;
  std::size_t freeBytes() const;

 private:
  using Key = std::tuple<int, int, int>;
  std::map<Key, std::vector<gl::Texture>> m_free;
};

}  // namespace texstream::stream
