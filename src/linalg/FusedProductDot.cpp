#include <texstream/linalg/FusedProductDot.h>

#include <glad/gl.h>

#include <vector>

namespace texstream::linalg {

void runProductWithDot(stream::Pass& pass, const stream::Layout& layout, const stream::Epilogue& epilogue,
                       gl::Buffer& scratch, const std::string& scratchName) {
  const int gx = (layout.width() + 15) / 16, gy = (layout.height() + 15) / 16;
  if (scratch.id() == 0) {
    // A zero counter, then one partial per workgroup; the last workgroup resets the counter.
    const std::vector<unsigned char> zeros(16 + 4 * std::size_t(gx) * std::size_t(gy), 0);
    scratch = gl::Buffer(scratchName, zeros.size(), zeros.data(), GL_DYNAMIC_COPY);
  }
  pass.uniform("u_size", layout.width(), layout.height()).uniform("u_groupBase", 0).uniform("u_totalGroups", gx * gy);
  epilogue.bind(pass);
  pass.storage(0, scratch.id()).workgroups(gx, gy).inPlace().run();
}

}  // namespace texstream::linalg
