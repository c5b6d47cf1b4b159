// Tests src/linalg/TransferMatrix.*: y = M x, y = add + M x, y = M (x - s) and
// y = M (x - s - t) against the double CPU product for random rectangular matrices at
// awkward shapes (empty rows, rows longer than a texel, more rows than columns and the
// reverse), with y in a layout larger than the matrix (the extra elements read 0) and x in
// a layout unlike y's, on both backends; misuse is refused by name.
#include <catch2/catch.hpp>

#include "support/Gl.h"
#include "support/Random.h"

#include <texstream/linalg/Csr.h>
#include <texstream/linalg/TransferMatrix.h>
#include <texstream/stream/Vector.h>

#include <random>
#include <stdexcept>

using namespace texstream;

namespace {

/// rows x cols with 0 to maxPerRow random entries per row (duplicates summed).
linalg::Csr randomRectangular(std::size_t rows, std::size_t cols, int maxPerRow, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> count(0, maxPerRow);
  std::uniform_int_distribution<std::int64_t> column(0, std::int64_t(cols) - 1);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::vector<std::int64_t> r, c;
  std::vector<double> v;
  for (std::size_t i = 0; i < rows; ++i)
    for (int k = count(rng); k > 0; --k) {
      r.push_back(std::int64_t(i));
      c.push_back(column(rng));
      v.push_back(value(rng));
    }
  return linalg::Csr::fromTriplets(rows, cols, r, c, v);
}

}  // namespace

TEST_CASE("TransferMatrix products equal the double CPU product", "[gl][linalg][transfer]") {
  TEXSTREAM_FOR_EACH_BACKEND();
  for (auto [rows, cols, perRow] : {std::tuple<std::size_t, std::size_t, int>{1, 1, 1}, {1, 97, 40}, {97, 1, 1},
                                    {61, 1000, 9}, {1000, 61, 3}, {4097, 4097, 6}}) {
    for (const std::size_t extra : {std::size_t(0), std::size_t(13)}) {
      INFO(rows << " x " << cols << ", up to " << perRow << " per row, output layout " << rows + extra);
      const linalg::Csr M = randomRectangular(rows, cols, perRow, rows * 7 + cols);
      const stream::Layout outLayout = stream::Layout::forSize(rows + extra);
      const linalg::TransferMatrix T(M, outLayout, "T");
      REQUIRE(T.rows() == rows);
      REQUIRE(T.cols() == cols);
      // x in a layout of its own, with more elements than M has columns.
      const std::vector<float> x = test::randomFloats(cols + 5, cols), s = test::randomFloats(cols + 5, cols + 1);
      const std::vector<float> add = test::randomFloats(rows + extra, rows);
      stream::Vector xv(cols + 5, "x"), sv(cols + 5, "s"), addv(outLayout, "add"), y(outLayout, "y");
      xv.upload(x);
      sv.upload(s);
      addv.upload(add);
      std::vector<double> xd(cols), dd(cols);
      for (std::size_t j = 0; j < cols; ++j) {
        xd[j] = x[j];
        dd[j] = double(x[j]) - double(s[j]);
      }
      auto padded = [&](std::vector<double> v, bool withAdd) {
        v.resize(outLayout.size(), 0.0);  // the output layout: rows, then zeros
        if (withAdd)
          for (std::size_t i = 0; i < v.size(); ++i) v[i] += add[i];
        return v;
      };
      T.apply(xv, y);
      CHECK(test::maxRelativeError(y.download(), padded(M.multiply(xd), false)) < 1e-5);
      T.applyAdd(xv, addv, y);
      CHECK(test::maxRelativeError(y.download(), padded(M.multiply(xd), true)) < 1e-5);
      T.applyAdd(xv, addv, addv);  // y may be add
      CHECK(test::maxRelativeError(addv.download(), padded(M.multiply(xd), true)) < 1e-5);
      T.applyToDifference(xv, sv, y);
      CHECK(test::maxRelativeError(y.download(), padded(M.multiply(dd), false)) < 1e-5);
      // y = M (x - s - x): M (-s), the restriction's two-vector form.
      std::vector<double> minusS(cols);
      for (std::size_t j = 0; j < cols; ++j) minusS[j] = -double(s[j]);
      T.applyToDifference(xv, sv, xv, y);
      CHECK(test::maxRelativeError(y.download(), padded(M.multiply(minusS), false)) < 1e-5);
    }
  }
}

TEST_CASE("TransferMatrix refuses wrong shapes and aliasing, naming the matrix", "[gl][linalg][transfer]") {
  test::context();
  const linalg::Csr M = randomRectangular(10, 20, 3, 1);
  CHECK_THROWS_WITH(linalg::TransferMatrix(M, stream::Layout::forSize(9), "T"),
                    Catch::Contains("TransferMatrix(\"T\")") && Catch::Contains("10 rows do not fit"));
  const linalg::TransferMatrix T(M, stream::Layout::forSize(10), "T");
  stream::Vector small(19, "small"), x(20, "x"), y(10, "y"), wrong(11, "wrong"), x10(10, "x10");
  CHECK_THROWS_WITH(T.apply(small, y), Catch::Contains("TransferMatrix(\"T\").apply") && Catch::Contains("n=19"));
  CHECK_THROWS_WITH(T.apply(x, wrong), Catch::Contains("\"wrong\"") && Catch::Contains("output layout"));
  const linalg::TransferMatrix square(randomRectangular(10, 10, 3, 2), stream::Layout::forSize(10), "S");
  CHECK_THROWS_WITH(square.apply(x10, x10), Catch::Contains("TransferMatrix(\"S\")") && Catch::Contains("x10"));
  CHECK_THROWS_WITH(T.applyToDifference(x, small, y), Catch::Contains("subtract"));
}
