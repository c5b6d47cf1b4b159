#pragma once
// Test support: one headless EGL context per test process (created on first use; in the
// browser build the page's WebGL2 context), and the backends every GPU test runs on.
//
// The context is what TEXSTREAM_GL asks for (gl::GlRequest: "4.5", "4.1", "3.3", "es3.0",
// "es3.1", ...; default the highest desktop core), so ctest runs the same suite on every
// context (tests/CMakeLists.txt). TEXSTREAM_TEST_BACKENDS lists the backends the suite
// must run on ("fragment", "compute" or "fragment,compute", the default): a backend listed
// there that the context lacks fails the test rather than being skipped.
#ifdef __EMSCRIPTEN__
#include "support/BrowserContext.h"
#else
#include <texstream/gl/HeadlessContext.h>
#endif
#include <texstream/stream/Backend.h>
#include <texstream/stream/Runtime.h>

#include <catch2/catch.hpp>

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace texstream::test {

#ifdef __EMSCRIPTEN__
using TestContext = BrowserContext;
#else
using TestContext = gl::HeadlessContext;
#endif

/// Creates (once) and makes current the process's headless context.
TestContext& context();
/// The backends of TEXSTREAM_TEST_BACKENDS (default fragment and compute; in the browser
/// fragment, WebGL2's only one); throws when one of them cannot run on the context.
std::vector<stream::Backend> backends();
/// True when the suite runs the compute backend on this context.
bool testsCompute();
/// True where a test can count passes with the GPU profiler (stream::Profiler) within the
/// test itself: the context has timer queries and their results arrive once the GPU has
/// finished. Not in the browser: WebGL delivers query results only after the page has
/// returned to its event loop.
bool passCountsReadable();

/// The passes per label (stream::Profiler) that `work` runs, with the profiler on for it
/// alone. `work` must end by waiting for the GPU (a download, a solver's read-back) so that
/// the queries have landed. Meaningful only where passCountsReadable().
class PassCounts {
 public:
  explicit PassCounts(std::map<std::string, long long> counts) : m_counts(std::move(counts)) {}
  long long of(const std::string& label) const {
    const auto it = m_counts.find(label);
    return it == m_counts.end() ? 0 : it->second;
  }
  /// The passes of every label that contains `part`.
  long long containing(const std::string& part) const {
    long long total = 0;
    for (const auto& [label, count] : m_counts) {
      if (label.find(part) != std::string::npos) total += count;
    }
    return total;
  }

 private:
  std::map<std::string, long long> m_counts;
};
PassCounts countPasses(const std::function<void()>& work);

}  // namespace texstream::test

/// In a TEST_CASE: makes a context current and runs the rest of the test once per backend
/// (Catch2 GENERATE), with that backend in effect through a BackendScope.
#define TEXSTREAM_FOR_EACH_BACKEND()                                                     \
  ::texstream::test::context();                                                          \
  const ::texstream::stream::Backend backend =                                           \
      GENERATE(from_range(::texstream::test::backends()));                               \
  ::texstream::stream::BackendScope backendScope_(backend);                             \
  INFO("backend: " << ::texstream::stream::backendName(backend))
