#pragma once
// texstream::linalg row blocks: work on the rows of a large sparse matrix split over CPU
// threads (the sparse products of CsrProducts.cpp, SystemBuilder::build). Each thread
// takes one contiguous block of rows; callers that write rows in place count them first
// (a first pass over the blocks), then fill them (a second). Also two independent set-up
// tasks run side by side (concurrently).
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <span>
#include <thread>
#include <vector>

namespace texstream::linalg {

/// Work units (multiply-adds, entries moved) below which one more thread costs more to
/// start than it saves.
inline constexpr double kWorkPerThread = 100000.0;

/// Threads for `work` units of work however many rows carry it: one per kWorkPerThread,
/// up to one per hardware thread and 16 (one in the browser build). A few long rows (a
/// coarse multigrid level's Galerkin product) split as well as many short ones.
inline unsigned workThreads(double work) {
#ifdef __EMSCRIPTEN__
  (void)work;
  return 1;
#else
  if (!(work >= 2.0 * kWorkPerThread)) return 1;
  const unsigned most = std::clamp(std::thread::hardware_concurrency(), 1u, 16u);
  return std::clamp(unsigned(std::min(work / kWorkPerThread, 16.0)), 1u, most);
#endif
}

/// Calls work(t, first, last) for `threads` blocks [first, last) covering [0, rows), on
/// threads where there are several (one after the other in the browser build).
template <class Work>
void forRowBlocks(std::size_t rows, unsigned threads, const Work& work) {
  threads = std::max(threads, 1u);
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
  for (unsigned t = 0; t < threads; ++t) run(t);
}

/// As forRowBlocks, with blocks of about equal weight rather than equal row counts:
/// `prefix` holds rows + 1 non-decreasing running weights (a CSR row pointer weighs rows
/// by their entries), and each block ends at the first row boundary past its share.
template <class Work>
void forWeightedRowBlocks(std::span<const std::int64_t> prefix, unsigned threads, const Work& work) {
  threads = std::max(threads, 1u);
  const std::size_t rows = prefix.size() - 1;
  const double total = double(prefix.back() - prefix.front());
  std::vector<std::size_t> bounds(threads + 1, rows);
  bounds[0] = 0;
  for (unsigned t = 1; t < threads; ++t) {
    const std::int64_t target = prefix.front() + std::int64_t(total * double(t) / double(threads));
    const auto at = std::lower_bound(prefix.begin(), prefix.end() - 1, target);
    bounds[t] = std::max(bounds[t - 1], std::size_t(at - prefix.begin()));
  }
  forRowBlocks(threads, threads, [&](unsigned t, std::size_t, std::size_t) { work(t, bounds[t], bounds[t + 1]); });
}

/// The lowest row r in [0, rows) for which bad(r) holds, or rows if none: blocks of about
/// equal weight (`prefix` as in forWeightedRowBlocks) are searched on threads, each stopping
/// at its first bad row or once a lower one is known. The answer is the one a row-by-row scan
/// gives (the checks of large matrices report their first problem this way).
template <class Bad>
std::size_t firstRowWhere(std::span<const std::int64_t> prefix, unsigned threads, const Bad& bad) {
  const std::size_t rows = prefix.size() - 1;
  std::atomic<std::size_t> first{rows};
  forWeightedRowBlocks(prefix, threads, [&](unsigned, std::size_t begin, std::size_t end) {
    for (std::size_t r = begin; r < end && r < first.load(std::memory_order_relaxed); ++r) {
      if (!bad(r)) continue;
      std::size_t seen = first.load();
      while (r < seen && !first.compare_exchange_weak(seen, r)) {
      }
      return;
    }
  });
  return first.load();
}

/// A transpose's placement on threads, for scalar and block matrices alike: a pattern of
/// `rows` rows over `cols` columns (rowPtr, colIdx) is split into row blocks, each counts
/// its entries per column, transposedRowPtr (cols + 1 offsets) follows, and place(k, r, s)
/// is called for every entry k (in row r) with s its slot in the transpose; each transposed
/// row receives its entries in ascending r. `work` sizes the threads (workThreads), at
/// most one per mean entries of a column, so the per-block counts stay smaller than the
/// matrix.
template <class ColumnIndices, class Place>
void placeTransposed(std::size_t rows, std::size_t cols, std::span<const std::int64_t> rowPtr,
                     const ColumnIndices& colIdx, double work, std::vector<std::int64_t>& transposedRowPtr,
                     const Place& place) {
  const std::size_t entries = std::size_t(rowPtr[rows]);
  const std::size_t perColumn = entries / std::max<std::size_t>(cols, 1);
  const unsigned threads = std::min(workThreads(work), unsigned(std::max<std::size_t>(perColumn, 1)));
  std::vector<std::vector<std::int64_t>> next(threads);
  forRowBlocks(rows, threads, [&](unsigned t, std::size_t first, std::size_t last) {
    next[t].assign(cols, 0);
    for (std::int64_t k = rowPtr[first]; k < rowPtr[last]; ++k) ++next[t][std::size_t(colIdx[std::size_t(k)])];
  });
  // Column j's entries: block 0's, then block 1's, ...: next[t][j] becomes block t's first slot.
  transposedRowPtr.assign(cols + 1, 0);
  for (std::size_t j = 0; j < cols; ++j) {
    std::int64_t at = transposedRowPtr[j];
    for (unsigned t = 0; t < threads; ++t) {
      const std::int64_t count = next[t][j];
      next[t][j] = at;
      at += count;
    }
    transposedRowPtr[j + 1] = at;
  }
  forRowBlocks(rows, threads, [&](unsigned t, std::size_t first, std::size_t last) {
    std::vector<std::int64_t>& slot = next[t];
    for (std::size_t r = first; r < last; ++r)
      for (std::int64_t k = rowPtr[r]; k < rowPtr[r + 1]; ++k)
        place(std::size_t(k), r, std::size_t(slot[std::size_t(colIdx[std::size_t(k)])]++));
  });
}

/// Runs first() here and second() on a thread of its own at the same time, then rethrows
/// first()'s exception if it threw, else second()'s: the caller sees the error it would have
/// seen running them in order. first() may wait for what second() produces: the browser
/// build, which has no threads, runs second() to its end before first().
template <class First, class Second>
void concurrently(const First& first, const Second& second) {
  std::exception_ptr firstError, secondError;
  auto guarded = [](const auto& work, std::exception_ptr& error) {
    try {
      work();
    } catch (...) {
      error = std::current_exception();
    }
  };
#ifndef __EMSCRIPTEN__
  std::thread other([&] { guarded(second, secondError); });
  guarded(first, firstError);
  other.join();
#else
  guarded(second, secondError);
  guarded(first, firstError);
#endif
  if (firstError) std::rethrow_exception(firstError);
  if (secondError) std::rethrow_exception(secondError);
}

}  // namespace texstream::linalg
