#include <texstream/stream/Backend.h>

#include <texstream/gl/Error.h>
#include <texstream/stream/Runtime.h>

#include <algorithm>
#include <cctype>
#include <string>

namespace texstream::stream {

const char* backendName(Backend b) { return b == Backend::Fragment ? "fragment" : "compute"; }

Backend parseBackend(std::string_view text) {
  std::string s(text);
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  if (s == "fragment") return Backend::Fragment;
  if (s == "compute") return Backend::Compute;
  throw gl::Error("unknown backend \"" + std::string(text) + "\" (expected fragment or compute)");
}

BackendScope::BackendScope(Backend b) : BackendScope(std::optional<Backend>(b)) {}

BackendScope::BackendScope(std::optional<Backend> b) {
  if (!b) return;
  Runtime& rt = Runtime::current();
  rt.requireBackend(*b);
  m_previous = rt.m_override;
  rt.m_override = b;
  m_active = true;
}

BackendScope::~BackendScope() {
  if (m_active && Runtime::exists()) Runtime::current().m_override = m_previous;
}

}  // namespace texstream::stream
