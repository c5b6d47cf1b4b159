// Tests src/linalg/LargeArrays.h: reserveLarge, resizeLarge and assignLarge behave as
// reserve, resize and assign (contents kept, new elements value-initialised or filled)
// below and above the size from which they ask for huge pages, and adviseHugePages
// accepts any range.
#include <catch2/catch.hpp>

#include <texstream/linalg/LargeArrays.h>

#include <cstdint>
#include <vector>

using namespace texstream;

TEST_CASE("LargeArrays: resizeLarge keeps the contents and zero-fills the rest, small or large", "[linalg]") {
  const std::size_t large = linalg::kHugePageArrayBytes / sizeof(double) + 3;
  for (std::size_t n : {std::size_t(0), std::size_t(5), large}) {
    INFO("n = " << n);
    std::vector<double> v = {1.5, -2.0, 3.25};
    linalg::resizeLarge(v, n);
    REQUIRE(v.size() == n);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i) wrong += v[i] != (i == 0 ? 1.5 : i == 1 ? -2.0 : i == 2 ? 3.25 : 0.0);
    CHECK(wrong == 0);
  }
}

TEST_CASE("LargeArrays: assignLarge and largeArray fill with the value, small or large", "[linalg]") {
  const std::size_t large = linalg::kHugePageArrayBytes / sizeof(std::int64_t) + 1;
  for (std::size_t n : {std::size_t(1), large}) {
    std::vector<std::int64_t> v(7, 9);
    linalg::assignLarge(v, n, std::int64_t(-1));
    REQUIRE(v.size() == n);
    CHECK(v.front() == -1);
    CHECK(v.back() == -1);
    const std::vector<float> w = linalg::largeArray(n, 0.5f);
    REQUIRE(w.size() == n);
    CHECK(w.front() == 0.5f);
    CHECK(w.back() == 0.5f);
  }
  // Ranges without a whole huge page, or empty, are fine.
  linalg::adviseHugePages(nullptr, 0);
  std::vector<char> small(100);
  linalg::adviseHugePages(small.data(), small.size());
}

TEST_CASE("LargeArrays: reserveLarge keeps the contents and the size, small or large", "[linalg]") {
  const std::size_t large = linalg::kHugePageArrayBytes / sizeof(float) + 9;
  for (std::size_t n : {std::size_t(2), std::size_t(40), large}) {
    INFO("n = " << n);
    std::vector<float> v = {4.0f, -1.0f, 0.25f};
    linalg::reserveLarge(v, n);
    REQUIRE(v.size() == 3);
    CHECK(v.capacity() >= n);
    CHECK(v == std::vector<float>{4.0f, -1.0f, 0.25f});
  }
}
