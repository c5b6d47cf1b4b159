// A process that uses texstream before any OpenGL context exists: every call, not only the
// first, fails with gl::Error "no current OpenGL context" (no crash, no dangling entry
// points from a failed load). Exit 0 when that holds; prints what failed and exits 1.
#include <texstream/gl/Error.h>
#include <texstream/stream/Vector.h>

#include <cstdio>
#include <string>

int main() {
  int failures = 0;
  for (int attempt = 1; attempt <= 3; ++attempt) {
    try {
      texstream::stream::Vector v(16, "v");
      std::printf("attempt %d: FAIL: a Vector was made with no context current\n", attempt);
      ++failures;
    } catch (const texstream::gl::Error& e) {
      const bool clear = std::string(e.what()).find("no current OpenGL context") != std::string::npos;
      std::printf("attempt %d: %s: %s\n", attempt, clear ? "ok" : "FAIL (unclear message)", e.what());
      failures += clear ? 0 : 1;
    }
  }
  std::printf("%s\n", failures == 0 ? "PASS" : "FAIL");
  return failures == 0 ? 0 : 1;
}
