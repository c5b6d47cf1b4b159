#include "support/Gl.h"

#include <texstream/gl/Error.h>
#include <texstream/stream/Profiler.h>
#include <texstream/stream/Runtime.h>

#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>

namespace texstream::test {

TestContext& context() {
  static std::unique_ptr<TestContext> ctx = [] {
    auto c = std::make_unique<TestContext>();
    // Once per process, so ctest's log says which context each variant ran on.
    std::printf("texstream test context: %s\n", c->description().c_str());
    return c;
  }();
  ctx->makeCurrent();
  return *ctx;
}

std::vector<stream::Backend> backends() {
  context();
  const char* env = std::getenv("TEXSTREAM_TEST_BACKENDS");
#ifdef __EMSCRIPTEN__
  const char* const defaultBackends = "fragment";
#else
  const char* const defaultBackends = "fragment,compute";
#endif
  std::stringstream list(env && *env ? env : defaultBackends);
  std::vector<stream::Backend> out;
  std::string name;
  while (std::getline(list, name, ',')) {
    const stream::Backend b = stream::parseBackend(name);
    // Throws "the compute backend needs OpenGL 4.3 or OpenGL ES 3.1 ..." where it cannot run.
    stream::Runtime::current().requireBackend(b);
    out.push_back(b);
  }
  if (out.empty()) throw gl::Error("TEXSTREAM_TEST_BACKENDS lists no backend");
  return out;
}

bool passCountsReadable() {
#ifdef __EMSCRIPTEN__
  return false;
#else
  return stream::Profiler::available();
#endif
}

PassCounts countPasses(const std::function<void()>& work) {
  stream::Profiler& profiler = stream::Runtime::current().profiler();
  profiler.reset();
  profiler.setEnabled(true);
  work();
  profiler.collect();
  profiler.setEnabled(false);
  std::map<std::string, long long> counts;
  for (const auto& [label, stat] : profiler.stats()) counts[label] = stat.passes;
  profiler.reset();
  return PassCounts(std::move(counts));
}

bool testsCompute() {
  for (stream::Backend b : backends()) {
    if (b == stream::Backend::Compute) return true;
  }
  return false;
}

}  // namespace texstream::test
