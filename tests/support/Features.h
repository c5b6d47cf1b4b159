#pragma once
// Test support: a context that lacks features, simulated with TEXSTREAM_DISABLE_FEATURES
// (gl/Capabilities.h) for the lifetime of a DisabledFeatures object.
#include "support/Gl.h"

#include <texstream/stream/Runtime.h>

#include <cstdlib>
#include <string>

namespace texstream::test {

/// Re-reads the context's capabilities with `features` (comma-separated) switched off, and
/// with everything back on when it goes.
class DisabledFeatures {
 public:
  explicit DisabledFeatures(const std::string& features) {
    context();
    if (!features.empty()) setenv("TEXSTREAM_DISABLE_FEATURES", features.c_str(), 1);
    stream::Runtime::shutdown();
  }
  ~DisabledFeatures() {
    unsetenv("TEXSTREAM_DISABLE_FEATURES");
    stream::Runtime::shutdown();
  }
  DisabledFeatures(const DisabledFeatures&) = delete;
  DisabledFeatures& operator=(const DisabledFeatures&) = delete;
};

}  // namespace texstream::test
