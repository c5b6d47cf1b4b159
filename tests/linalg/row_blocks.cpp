// Tests src/linalg/RowBlocks.h: thread counts from the amount of work, weighted row blocks
// that cover every row once in order (rows of no weight, one heavy row, more threads than
// rows), the lowest row a threaded search finds, and concurrently: errors in order, a first task
// waiting for the second's result.
#include <catch2/catch.hpp>

#include <texstream/linalg/RowBlocks.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace texstream;

TEST_CASE("RowBlocks: workThreads grows with the work, from one thread up to the machine's", "[linalg]") {
  CHECK(linalg::workThreads(0.0) == 1);
  CHECK(linalg::workThreads(-5.0) == 1);
  CHECK(linalg::workThreads(1.5 * linalg::kWorkPerThread) == 1);
#ifdef __EMSCRIPTEN__
  const unsigned most = 1;  // no threads in the browser build
#else
  const unsigned most = std::clamp(std::thread::hardware_concurrency(), 1u, 16u);
#endif
  CHECK(linalg::workThreads(2.0 * linalg::kWorkPerThread) == std::min(2u, most));
  CHECK(linalg::workThreads(1e12) == most);
}

TEST_CASE("RowBlocks: weighted row blocks cover every row once, in order, whatever the weights", "[linalg]") {
  struct Case {
    const char* what;
    std::vector<std::int64_t> prefix;
    unsigned threads;
  };
  std::vector<Case> cases = {{"one row", {0, 7}, 3},
                             {"rows of no weight", {0, 0, 0, 5, 5, 9, 9, 9}, 4},
                             {"one heavy row first", {0, 1000, 1001, 1002, 1003}, 3},
                             {"no weight at all", {0, 0, 0, 0}, 2},
                             {"a running prefix not from 0", {40, 41, 43, 46, 50, 55, 61, 68}, 5}};
  std::vector<std::int64_t> ramp(1001);
  for (std::size_t i = 1; i < ramp.size(); ++i) ramp[i] = ramp[i - 1] + std::int64_t(i % 17);
  cases.push_back({"1000 rows of uneven weight", ramp, 16});
  for (const Case& c : cases) {
    INFO(c.what << ", " << c.threads << " blocks");
    const std::size_t rows = c.prefix.size() - 1;
    std::vector<std::pair<std::size_t, std::size_t>> blocks(c.threads);
    std::vector<std::atomic<int>> visits(rows);
    linalg::forWeightedRowBlocks(c.prefix, c.threads, [&](unsigned t, std::size_t first, std::size_t last) {
      blocks[t] = {first, last};
      for (std::size_t r = first; r < last; ++r) ++visits[r];
    });
    CHECK(blocks.front().first == 0);
    CHECK(blocks.back().second == rows);
    for (unsigned t = 1; t < c.threads; ++t) CHECK(blocks[t].first == blocks[t - 1].second);
    for (std::size_t r = 0; r < rows; ++r) CHECK(visits[r] == 1);
    // No block holds much more than its share: at most the share plus one row's weight.
    const double share = double(c.prefix.back() - c.prefix.front()) / double(c.threads);
    std::int64_t heaviestRow = 0;
    for (std::size_t r = 0; r < rows; ++r) heaviestRow = std::max(heaviestRow, c.prefix[r + 1] - c.prefix[r]);
    for (const auto& [first, last] : blocks) CHECK(double(c.prefix[last] - c.prefix[first]) <= share + double(heaviestRow));
  }
}

TEST_CASE("RowBlocks: concurrently runs both tasks and reports the first one's error before the second's", "[linalg]") {
  std::atomic<int> ran{0};
  linalg::concurrently([&] { ++ran; }, [&] { ++ran; });
  CHECK(ran == 2);
  ran = 0;
  CHECK_THROWS_WITH(linalg::concurrently([&] { ++ran; throw std::invalid_argument("first"); },
                                         [&] { ++ran; throw std::runtime_error("second"); }),
                    "first");
  CHECK(ran == 2);
  CHECK_THROWS_WITH(linalg::concurrently([] {}, [] { throw std::runtime_error("second"); }), "second");
  // first() may wait for what second() produces (AggregationMultigrid's GPU levels wait for
  // the hierarchy's): on threads, or in the browser build by running second() first.
  std::mutex mutex;
  std::condition_variable produced;
  bool ready = false, sawIt = false;
  linalg::concurrently(
      [&] {
        std::unique_lock<std::mutex> lock(mutex);
        sawIt = produced.wait_for(lock, std::chrono::seconds(30), [&] { return ready; });
      },
      [&] {
        const std::lock_guard<std::mutex> lock(mutex);
        ready = true;
        produced.notify_one();
      });
  CHECK(sawIt);
}

TEST_CASE("RowBlocks: firstRowWhere finds the lowest bad row whatever block finds one first", "[linalg]") {
  // 10,007 rows of weight 1; bad rows placed in several blocks, the search on 1 to 8 blocks.
  const std::size_t rows = 10007;
  std::vector<std::int64_t> prefix(rows + 1);
  for (std::size_t r = 0; r <= rows; ++r) prefix[r] = std::int64_t(r);
  for (std::vector<std::size_t> bad : {std::vector<std::size_t>{}, {0}, {rows - 1}, {9000, 5003, 7777}, {4, 8000}}) {
    std::vector<char> isBad(rows, 0);
    for (std::size_t r : bad) isBad[r] = 1;
    const std::size_t want = bad.empty() ? rows : *std::min_element(bad.begin(), bad.end());
    for (unsigned threads : {1u, 2u, 3u, 8u}) {
      INFO(bad.size() << " bad rows, " << threads << " blocks");
      CHECK(linalg::firstRowWhere(prefix, threads, [&](std::size_t r) { return isBad[r] != 0; }) == want);
    }
  }
}
