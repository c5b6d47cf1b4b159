#pragma once
// texstream::linalg row blocks: work on the rows of a large sparse matrix split over CPU
// threads (the sparse products of CsrProducts.cpp, SystemBuilder::build). Each thread
// takes one contiguous block of rows; callers that write rows in place count them first
// (a first pass over the blocks), then fill them (a second).
#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace texstream::linalg {

/// Threads for work on `rows` rows: one per hardware thread up to 16 from 20,000 rows on,
/// one below (and in the browser build, which has no threads).
inline unsigned rowBlockThreads(std::size_t rows) {
#ifdef __EMSCRIPTEN__
  (void)rows;
  return 1;
#else
  if (rows < 20000) return 1;
  return std::clamp(std::thread::hardware_concurrency(), 1u, 16u);
#endif
}

/// Calls work(t, first, last) for `threads` blocks [first, last) covering [0, rows), on
/// threads where there are several.
template <class Work>
void forRowBlocks(std::size_t rows, unsigned threads, const Work& work) {
  auto run = [&](unsigned t) { work(t, rows * t / threads, rows * (t + 1) / threads); };
#ifndef __EMSCRIPTEN__
  if (threads > 1) {
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t) pool.emplace_back(run, t);
    run(0);
    for (std::thread& th : pool) th.join();
    return;
  }
#endif
  run(0);
}

}  // namespace texstream::linalg
