#pragma once
// texstream::linalg large arrays: the host arrays of the set-up (sparse products, the
// system's rows, the GPU matrices' staging data) run to hundreds of MB at a million
// unknowns, and filling fresh memory costs a page fault every 4 KiB. On Linux, where the
// kernel hands out transparent huge pages on request (THP mode "madvise", the common
// default), asking for them before the first touch makes that one fault every 2 MiB
// (docs/performance.md has the set-up times with and without). Elsewhere, or for small
// arrays, these are plain resize/assign.
#include <cstddef>
#include <vector>

namespace texstream::linalg {

/// Arrays from this size on ask for huge pages.
inline constexpr std::size_t kHugePageArrayBytes = std::size_t(4) << 20;

/// madvise(MADV_HUGEPAGE) on the whole 2 MiB pages inside [data, data + bytes) (Linux;
/// nothing elsewhere). Memory already touched keeps its pages.
void adviseHugePages(const void* data, std::size_t bytes);

/// v.reserve(n), its new storage advised for huge pages first when it is large.
template <class T>
void reserveLarge(std::vector<T>& v, std::size_t n) {
  if (v.capacity() >= n) return;
  if (n * sizeof(T) < kHugePageArrayBytes) {
    v.reserve(n);
    return;
  }
  std::vector<T> fresh;
  fresh.reserve(n);
  adviseHugePages(fresh.data(), n * sizeof(T));
  fresh.assign(v.begin(), v.end());
  v.swap(fresh);
}

/// v.resize(n), its new storage advised for huge pages first when it is large.
template <class T>
void resizeLarge(std::vector<T>& v, std::size_t n) {
  reserveLarge(v, n);
  v.resize(n);
}

/// v.assign(n, value), its storage advised for huge pages first when it is large.
template <class T>
void assignLarge(std::vector<T>& v, std::size_t n, const T& value) {
  if (n * sizeof(T) >= kHugePageArrayBytes && v.capacity() < n) {
    std::vector<T>().swap(v);
    v.reserve(n);
    adviseHugePages(v.data(), n * sizeof(T));
  }
  v.assign(n, value);
}

/// A vector of n copies of value (assignLarge on a fresh vector).
template <class T>
std::vector<T> largeArray(std::size_t n, const T& value) {
  std::vector<T> v;
  assignLarge(v, n, value);
  return v;
}

}  // namespace texstream::linalg
