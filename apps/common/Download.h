#pragma once
// Files a program writes in the browser land in emscripten's in-memory file system; this
// hands one to the user as a download (a screenshot button's PNG). Browser build only.
#include <string>

namespace texstream::app {

/// Offers the in-memory file `path` as a download named after its last path component.
void offerDownload(const std::string& path);

}  // namespace texstream::app
