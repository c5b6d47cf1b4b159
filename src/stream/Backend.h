#pragma once
// The two ways a kernel runs (docs/architecture.md, "Contexts and the two backends"):
//  - Fragment: a rectangle rendered into an FBO, one fragment per output texel
//    (GL 3.3 core and up; the classic GPGPU path of Bolz et al. and Krüger & Westermann);
//  - Compute: the same kernel body in a compute shader that imageStores its texel
//    (GL 4.3 / ES 3.1 and up; on data-centre GPUs the only path that reaches memory bandwidth).
// The default is "auto": compute where the context has compute shaders, else fragment.
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace texstream::gl {
struct Capabilities;
}

namespace texstream::stream {

enum class Backend { Fragment, Compute };

const char* backendName(Backend b);
/// "fragment" / "compute" (case-insensitive); throws Error naming the bad value otherwise.
Backend parseBackend(std::string_view text);
/// "auto" (nullopt), "fragment" or "compute" (case-insensitive); throws Error otherwise.
std::optional<Backend> parseBackendRequest(std::string_view text);
/// What "auto" means on a context: compute where it has compute shaders, else fragment.
Backend autoBackend(const gl::Capabilities& caps);
/// A request resolved on a context: nullopt is autoBackend(caps).
Backend resolveBackend(std::optional<Backend> request, const gl::Capabilities& caps);

/// Overrides the current context's backend for its lifetime (per-call selection):
///   { BackendScope scope(Backend::Compute); cg(A, b, x); }
class BackendScope {
 public:
  explicit BackendScope(Backend b);
  explicit BackendScope(std::optional<Backend> b);  // nullopt: no change
  ~BackendScope();
  BackendScope(const BackendScope&) = delete;
  BackendScope& operator=(const BackendScope&) = delete;

 private:
  std::optional<Backend> m_previous;
  std::weak_ptr<void> m_runtime;  // the context's runtime the scope changed
};

}  // namespace texstream::stream
