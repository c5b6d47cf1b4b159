#pragma once
// Test support: a context that lacks features, simulated with TEXSTREAM_DISABLE_FEATURES
// (gl/Capabilities.h) for the lifetime of a DisabledFeatures object, or one whose compute
// workgroups are smaller (TEXSTREAM_MAX_COMPUTE_INVOCATIONS) for that of a ComputeLimit.
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

/// Re-reads the context's capabilities with at most `invocations` a compute workgroup (and
/// as many a side), as a GLES 3.1 device with smaller workgroups has; the driver's limits
/// again when it goes.
class ComputeLimit {
 public:
  explicit ComputeLimit(int invocations) {
    context();
    setenv("TEXSTREAM_MAX_COMPUTE_INVOCATIONS", std::to_string(invocations).c_str(), 1);
    stream::Runtime::shutdown();
  }
  ~ComputeLimit() {
    unsetenv("TEXSTREAM_MAX_COMPUTE_INVOCATIONS");
    stream::Runtime::shutdown();
  }
  ComputeLimit(const ComputeLimit&) = delete;
  ComputeLimit& operator=(const ComputeLimit&) = delete;
};

/// Re-reads the context's capabilities with storage blocks of at most `bytes` (as a desktop
/// GL 4.3 that allows the minimum 16 MiB); the driver's limit again when it goes.
class StorageBlockLimit {
 public:
  explicit StorageBlockLimit(long long bytes) {
    context();
    setenv("TEXSTREAM_MAX_STORAGE_BLOCK_BYTES", std::to_string(bytes).c_str(), 1);
    stream::Runtime::shutdown();
  }
  ~StorageBlockLimit() {
    unsetenv("TEXSTREAM_MAX_STORAGE_BLOCK_BYTES");
    stream::Runtime::shutdown();
  }
  StorageBlockLimit(const StorageBlockLimit&) = delete;
  StorageBlockLimit& operator=(const StorageBlockLimit&) = delete;
};

}  // namespace texstream::test
