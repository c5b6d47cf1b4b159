#pragma once
// The one check every app makes on its output options (--out, --json, --screenshot,
// --export-fields, ...) before any computation, so that a run never ends with its result
// unwritable:
//   texstream-smooth: --out: invalid value "/nonexistent/m.obj": no such directory /nonexistent
#include <string>
#include <string_view>

namespace texstream::app {

/// Throws UsageError("option: invalid value \"path\": why") unless `path` can be written:
/// its directory exists and is writable, the path itself is not a directory, and an
/// existing file there is writable. Empty paths (option not given) pass.
void requireWritablePath(std::string_view option, const std::string& path);

}  // namespace texstream::app
