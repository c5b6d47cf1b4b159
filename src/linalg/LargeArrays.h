#pragma once
// texstream::linalg large arrays: the host arrays of the set-up (sparse products, the
// system's rows, the GPU matrices' staging data) run to hundreds of MB at a million
// unknowns, and filling fresh memory costs a page fault every 4 KiB. On Linux, where the
// kernel hands out transparent huge pages on request (THP mode "madvise", the common
// default), asking for them before the first touch makes that one fault every 2 MiB
// (docs/performance.md has the set-up times with and without). Elsewhere, or for small
// arrays, these are plain resize/assign. Arrays whose every element a threaded loop writes
// can skip the serial zero fill altogether (UninitializedVector): the threads then take
// the first-touch faults side by side.
#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace texstream::linalg {

/// Arrays from this size on ask for huge pages.
inline constexpr std::size_t kHugePageArrayBytes = std::size_t(4) << 20;

/// madvise(MADV_HUGEPAGE) on the whole 2 MiB pages inside [data, data + bytes) (Linux;
/// nothing elsewhere). Memory already touched keeps its pages.
void adviseHugePages(const void* data, std::size_t bytes);

/// std::allocator, but a new element of a trivial type is left uninitialised (resize()
/// writes nothing): for arrays the caller fills completely, on threads.
template <class T>
struct UninitializedAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = UninitializedAllocator<U>;
  };
  UninitializedAllocator() = default;
  template <class U>
  UninitializedAllocator(const UninitializedAllocator<U>&) noexcept {}
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

template <class T>
using UninitializedVector = std::vector<T, UninitializedAllocator<T>>;

/// v.reserve(n), its new storage advised for huge pages first when it is large.
template <class T, class Allocator>
void reserveLarge(std::vector<T, Allocator>& v, std::size_t n) {
  if (v.capacity() >= n) return;
  if (n * sizeof(T) < kHugePageArrayBytes) {
    v.reserve(n);
    return;
  }
  std::vector<T, Allocator> fresh;
  fresh.reserve(n);
  adviseHugePages(fresh.data(), n * sizeof(T));
  fresh.assign(v.begin(), v.end());
  v.swap(fresh);
}

/// v.resize(n), its new storage advised for huge pages first when it is large.
template <class T, class Allocator>
void resizeLarge(std::vector<T, Allocator>& v, std::size_t n) {
  reserveLarge(v, n);
  v.resize(n);
}

/// v.assign(n, value), its storage advised for huge pages first when it is large.
template <class T, class Allocator>
void assignLarge(std::vector<T, Allocator>& v, std::size_t n, const T& value) {
  if (n * sizeof(T) >= kHugePageArrayBytes && v.capacity() < n) {
    std::vector<T, Allocator>().swap(v);
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
