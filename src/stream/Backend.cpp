#include <texstream/stream/Backend.h>

#include <texstream/gl/Capabilities.h>
#include <texstream/gl/ContextRecord.h>
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

std::optional<Backend> parseBackendRequest(std::string_view text) {
  std::string s(text);
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  if (s == "auto") return std::nullopt;
  if (s == "fragment") return Backend::Fragment;
  if (s == "compute") return Backend::Compute;
  throw gl::Error("unknown backend \"" + std::string(text) + "\" (expected auto, fragment or compute)");
}

Backend autoBackend(const gl::Capabilities& caps) { return caps.compute ? Backend::Compute : Backend::Fragment; }

Backend resolveBackend(std::optional<Backend> request, const gl::Capabilities& caps) {
  return request ? *request : autoBackend(caps);
}

BackendScope::BackendScope(Backend b) : BackendScope(std::optional<Backend>(b)) {}

BackendScope::BackendScope(std::optional<Backend> b) {
  if (!b) return;
  Runtime& rt = Runtime::current();
  rt.requireBackend(*b);
  m_previous = rt.m_override;
  rt.m_override = b;
  m_runtime = gl::currentRecord().runtime;
}

BackendScope::~BackendScope() {
  // The runtime the scope changed, even if another context is current now; nothing if it
  // was shut down meanwhile.
  if (std::shared_ptr<void> runtime = m_runtime.lock()) static_cast<Runtime*>(runtime.get())->m_override = m_previous;
}

}  // namespace texstream::stream
