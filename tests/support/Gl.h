#pragma once
// Test support: one headless EGL context per test process (created on first use), and
// the backends every GPU test runs on.
//
// The context is what TEXSTREAM_GL asks for (gl::GlRequest: "4.5", "4.1", "3.3", "es3.0",
// "es3.1", ...; default the highest desktop core), so ctest runs the same suite on every
// context (tests/CMakeLists.txt). TEXSTREAM_TEST_BACKENDS lists the backends the suite
// must run on ("fragment", "compute" or "fragment,compute", the default): a backend listed
// there that the context lacks fails the test rather than being skipped.
#include <texstream/gl/HeadlessContext.h>
#include <texstream/stream/Backend.h>
#include <texstream/stream/Runtime.h>

#include <catch2/catch.hpp>

#include <vector>

namespace texstream::test {

/// Creates (once) and makes current the process's headless context.
gl::HeadlessContext& context();
/// The backends of TEXSTREAM_TEST_BACKENDS (default fragment and compute); throws when one
/// of them cannot run on the context.
std::vector<stream::Backend> backends();
/// True when the suite runs the compute backend on this context.
bool testsCompute();

}  // namespace texstream::test

/// In a TEST_CASE: makes a context current and runs the rest of the test once per backend
/// (Catch2 GENERATE), with that backend in effect through a BackendScope.
#define TEXSTREAM_FOR_EACH_BACKEND()                                                     \
  ::texstream::test::context();                                                          \
  const ::texstream::stream::Backend backend =                                           \
      GENERATE(from_range(::texstream::test::backends()));                               \
  ::texstream::stream::BackendScope backendScope_(backend);                             \
  INFO("backend: " << ::texstream::stream::backendName(backend))
