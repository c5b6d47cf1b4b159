#include "OutputPath.h"

#include "AppOptions.h"

#include <unistd.h>

#include <filesystem>

namespace texstream::app {

void requireWritablePath(std::string_view option, const std::string& path) {
  if (path.empty()) return;
  namespace fs = std::filesystem;
  auto fail = [&](const std::string& why) {
    throw UsageError(std::string(option) + ": invalid value \"" + path + "\": " + why);
  };
  const fs::path target(path);
  const fs::path parent = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  std::error_code ec;
  if (!fs::exists(parent, ec)) fail("no such directory " + parent.string());
  if (!fs::is_directory(parent, ec)) fail(parent.string() + " is not a directory");
  if (fs::is_directory(target, ec)) fail("it is a directory, not a file");
  if (::access(parent.c_str(), W_OK) != 0) fail("the directory " + parent.string() + " is not writable");
  if (fs::exists(target, ec) && ::access(target.c_str(), W_OK) != 0) fail("the file exists and is not writable");
}

}  // namespace texstream::app
