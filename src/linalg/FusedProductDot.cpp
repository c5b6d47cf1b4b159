#include <texstream/linalg/FusedProductDot.h>

#include <texstream/stream/Runtime.h>

#include <glad/gl.h>

#include <algorithm>
#include <vector>

namespace texstream::linalg {

void runProductWithDot(stream::Pass& pass, const stream::Layout& layout, const stream::Epilogue& epilogue,
                       gl::Buffer& scratch, const std::string& scratchName) {
  // 16 x 16 workgroups over at most reductionGroups() of them, each stepping over tiles
  // (sparse/product_dot_whole_texture.glsl), as stream::reduce's grid is chosen.
  const int tilesX = (layout.width() + 15) / 16, tilesY = (layout.height() + 15) / 16;
  const int maxGroups = stream::Runtime::current().reductionGroups();
  const int gx = std::min(tilesX, 32), gy = std::max(1, std::min(tilesY, maxGroups / gx));
  const std::size_t bytes = 16 + 4 * std::size_t(gx) * std::size_t(gy);
  if (scratch.id() == 0 || scratch.size() < bytes) {
    // A zero counter, then one partial per workgroup; the last workgroup resets the counter.
    const std::vector<unsigned char> zeros(bytes, 0);
    scratch = gl::Buffer(scratchName, zeros.size(), zeros.data(), GL_DYNAMIC_COPY);
  }
  if (gx == tilesX && gy == tilesY) pass.define("ONE_TILE_EACH");
  pass.uniform("u_size", layout.width(), layout.height()).uniform("u_groupBase", 0).uniform("u_totalGroups", gx * gy);
  epilogue.bind(pass);
  pass.storage(0, scratch.id()).workgroups(gx, gy).inPlace().run();
}

}  // namespace texstream::linalg
