#pragma once
// What every libFuzzer target here does with one input: a reader's documented exception
// is a clean rejection; anything else that escapes the reader (std::bad_alloc,
// std::out_of_range, ...) aborts, so the fuzzer reports it as a crash with the input.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string_view>
#include <typeinfo>

namespace texstream::fuzz {

inline std::string_view bytes(const std::uint8_t* data, std::size_t size) {
  return size == 0 ? std::string_view() : std::string_view(reinterpret_cast<const char*>(data), size);
}

/// Aborts, naming the promise, when a reader returns something it promises not to.
inline void require(bool promise, const char* what) {
  if (!promise) {
    std::fprintf(stderr, "fuzz: the reader broke its promise: %s\n", what);
    std::abort();
  }
}

/// The Expected of expectOnly for code that documents no exception at all.
struct NoException {};

/// Runs read(); returns quietly when it returns or throws Expected, aborts otherwise.
template <class Expected, class Read>
void expectOnly(Read&& read) {
  try {
    read();
  } catch (const Expected&) {
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz: the reader threw %s, which it does not document: %s\n", typeid(e).name(), e.what());
    std::abort();
  } catch (...) {
    std::fprintf(stderr, "fuzz: the reader threw something that is not a std::exception\n");
    std::abort();
  }
}

}  // namespace texstream::fuzz
