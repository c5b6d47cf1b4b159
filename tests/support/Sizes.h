#pragma once
// Test support: problem sizes of the tests that software WebGL2 would take minutes over.
// The browser build of the tests (tests/web, TEXSTREAM_WEB_TEST_SIZES) runs them smaller,
// with the same assertions; the native suite runs the sizes the tests were written for.
namespace texstream::test {

/// `native` in the native suite, `browser` in the browser build.
constexpr int sized(int native, [[maybe_unused]] int browser) {
#ifdef TEXSTREAM_WEB_TEST_SIZES
  return browser;
#else
  return native;
#endif
}

}  // namespace texstream::test
