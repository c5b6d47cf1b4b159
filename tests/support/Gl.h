#pragma once
// Test support: one headless EGL context per test process (created on first use), and
// the backends every GPU test runs on.
#include <texstream/gl/HeadlessContext.h>
#include <texstream/stream/Backend.h>
#include <texstream/stream/Runtime.h>

#include <vector>

namespace texstream::test {

/// Creates (once) and makes current the process's headless context.
gl::HeadlessContext& context();
/// Fragment always; Compute when the context has GL 4.3 (llvmpipe and NVIDIA do). A test
/// that loops over these and finds Compute missing fails: CI's llvmpipe must run both.
std::vector<stream::Backend> backends();

}  // namespace texstream::test

/// In a TEST_CASE: makes a context current and runs the rest of the test once per backend
/// (Catch2 GENERATE), with that backend in effect through a BackendScope.
#define TEXSTREAM_FOR_EACH_BACKEND()                                                     \
  ::texstream::test::context();                                                          \
  const ::texstream::stream::Backend backend =                                           \
      GENERATE(::texstream::stream::Backend::Fragment, ::texstream::stream::Backend::Compute); \
  ::texstream::stream::BackendScope backendScope_(backend);                             \
  INFO("backend: " << ::texstream::stream::backendName(backend))
