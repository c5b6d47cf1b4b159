#include "support/Gl.h"

#include <memory>

namespace texstream::test {

gl::HeadlessContext& context() {
  static std::unique_ptr<gl::HeadlessContext> ctx = std::make_unique<gl::HeadlessContext>();
  ctx->makeCurrent();
  return *ctx;
}

std::vector<stream::Backend> backends() {
  context();
  std::vector<stream::Backend> b{stream::Backend::Fragment};
  if (stream::Runtime::current().caps().compute) b.push_back(stream::Backend::Compute);
  return b;
}

}  // namespace texstream::test
