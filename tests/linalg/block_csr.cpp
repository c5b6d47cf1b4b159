// Tests src/linalg/BlockCsr.*: conversion from and to scalar CSR, the block transpose and
// the block product against the scalar ones (CsrProducts.h) on random matrices, at block
// sizes 1, 2 and 4 (unrolled loops) and 3 (the general loop), sizes from one block to
// products large enough to be split over threads; misuse.
#include <catch2/catch.hpp>

#include <texstream/linalg/BlockCsr.h>
#include <texstream/linalg/CsrProducts.h>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <tuple>

using namespace texstream;

namespace {

/// A rows x cols scalar matrix whose entries lie in `perRow` random tiles of each block row,
/// each tile partly filled (about 3/4 of its entries), so blocks hold explicit zeros after
/// conversion.
linalg::Csr randomTiled(std::size_t blockRows, std::size_t blockCols, int R, int C, int perRow, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int64_t> column(0, std::int64_t(blockCols) - 1);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::uniform_int_distribution<int> keep(0, 3);
  std::vector<std::int64_t> r, c;
  std::vector<double> v;
  for (std::size_t I = 0; I < blockRows; ++I)
    for (int k = 0; k < perRow; ++k) {
      const std::int64_t J = column(rng);
      for (int i = 0; i < R; ++i)
        for (int j = 0; j < C; ++j) {
          if (keep(rng) == 0) continue;
          r.push_back(std::int64_t(I) * R + i);
          c.push_back(J * C + j);
          v.push_back(value(rng));
        }
    }
  return linalg::Csr::fromTriplets(blockRows * std::size_t(R), blockCols * std::size_t(C), r, c, v);
}

/// |X - Y| per entry, X and Y as dense matrices (small sizes only).
double largestDifference(const linalg::Csr& X, const linalg::Csr& Y) {
  REQUIRE(X.rows == Y.rows);
  REQUIRE(X.cols == Y.cols);
  std::vector<double> dense(X.rows * X.cols, 0.0);
  for (std::size_t i = 0; i < X.rows; ++i) {
    for (std::int64_t k = X.rowPtr[i]; k < X.rowPtr[i + 1]; ++k) dense[i * X.cols + std::size_t(X.colIdx[std::size_t(k)])] += X.values[std::size_t(k)];
    for (std::int64_t k = Y.rowPtr[i]; k < Y.rowPtr[i + 1]; ++k) dense[i * X.cols + std::size_t(Y.colIdx[std::size_t(k)])] -= Y.values[std::size_t(k)];
  }
  double worst = 0.0;
  for (double d : dense) worst = std::max(worst, std::abs(d));
  return worst;
}

/// X - Y applied to random vectors (any size).
double largestProductDifference(const linalg::Csr& X, const linalg::Csr& Y, std::uint64_t seed) {
  REQUIRE(X.rows == Y.rows);
  REQUIRE(X.cols == Y.cols);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::vector<double> x(X.cols);
  for (double& v : x) v = value(rng);
  const std::vector<double> a = X.multiply(x), b = Y.multiply(x);
  double worst = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - b[i]));
  return worst;
}

}  // namespace

TEST_CASE("BlockCsr: conversion keeps every entry, blocks and columns in order", "[linalg][csr]") {
  for (auto [R, C] : {std::pair{1, 1}, {2, 2}, {2, 4}, {4, 2}, {3, 4}}) {
    for (auto [rows, cols] : {std::pair<std::size_t, std::size_t>{1, 1}, {7, 13}, {31, 5}}) {
      INFO(rows << " x " << cols << " blocks of " << R << " x " << C);
      const linalg::Csr A = randomTiled(rows, cols, R, C, 3, rows * 31 + cols + std::size_t(R * 7 + C));
      const linalg::BlockCsr M = linalg::BlockCsr::fromCsr(A, R, C);
      M.validate("M");
      CHECK(M.rows == rows);
      CHECK(M.cols == cols);
      CHECK(M.values.size() == M.blocks() * std::size_t(R * C));
      const linalg::Csr back = M.toCsr();
      back.validate("back");
      CHECK(back.nonZeros() == M.blocks() * std::size_t(R * C));
      CHECK(largestDifference(A, back) == 0.0);
      // Without the zeros: the same matrix, no entry 0.
      const linalg::Csr dropped = M.toCsr(/*dropZeros=*/true);
      dropped.validate("dropped");
      CHECK(largestDifference(A, dropped) == 0.0);
      CHECK(std::count(dropped.values.begin(), dropped.values.end(), 0.0) == 0);
      CHECK(dropped.nonZeros() <= A.nonZeros());
      for (std::size_t i = 0; i < back.rows; ++i)
        for (std::int64_t k = back.rowPtr[i] + 1; k < back.rowPtr[i + 1]; ++k)
          REQUIRE(back.colIdx[std::size_t(k - 1)] < back.colIdx[std::size_t(k)]);
    }
  }
}

TEST_CASE("BlockCsr: transpose and product equal the scalar ones", "[linalg][csr]") {
  // Block sizes R x K times K x N: the unrolled 1/2/4 and the general 3; one block, primes,
  // and 20,011 block rows (split over threads where the machine has several).
  for (auto [R, K, N] : {std::tuple{1, 1, 1}, {2, 2, 4}, {4, 2, 4}, {4, 4, 4}, {2, 3, 1}, {3, 4, 2}}) {
    for (auto [m, k, n] : {std::tuple<std::size_t, std::size_t, std::size_t>{1, 1, 1}, {7, 97, 13}, {20011, 3001, 977}}) {
      INFO(m << " x " << k << " times " << k << " x " << n << " blocks, " << R << "x" << K << " times " << K << "x" << N);
      const linalg::Csr A = randomTiled(m, k, R, K, 5, m + k + std::size_t(R)), B = randomTiled(k, n, K, N, 4, k + n + std::size_t(N));
      const linalg::BlockCsr Ab = linalg::BlockCsr::fromCsr(A, R, K), Bb = linalg::BlockCsr::fromCsr(B, K, N);
      const linalg::BlockCsr T = linalg::transpose(Ab);
      T.validate("T");
      CHECK(T.blockRows == K);
      CHECK(T.blockCols == R);
      const linalg::BlockCsr Cb = linalg::multiply(Ab, Bb);
      Cb.validate("C");
      CHECK(Cb.blockRows == R);
      CHECK(Cb.blockCols == N);
      if (m < 1000) {
        CHECK(largestDifference(T.toCsr(), linalg::transpose(A)) == 0.0);
        CHECK(largestDifference(Cb.toCsr(), linalg::multiply(A, B)) <= 1e-13);
      } else {
        CHECK(largestProductDifference(T.toCsr(), linalg::transpose(A), 5) == 0.0);
        CHECK(largestProductDifference(Cb.toCsr(), linalg::multiply(A, B), 7) <= 1e-12);
      }
      // Every structural block of the product is there: the scalar product's entries lie
      // in the block product's blocks.
      const linalg::Csr scalar = linalg::multiply(A, B);
      CHECK(Cb.blocks() * std::size_t(R * N) >= scalar.nonZeros());
    }
  }
}

TEST_CASE("BlockCsr refuses misuse by name", "[linalg][csr]") {
  const linalg::Csr A = linalg::Csr::poisson2D(3, 2);  // 6 x 6
  auto message = [](auto&& work) {
    try {
      work();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(message([&] { linalg::BlockCsr::fromCsr(A, 4, 4); }), Catch::Contains("must tile the 6x6"));
  CHECK_THAT(message([&] { linalg::BlockCsr::fromCsr(A, 0, 2); }), Catch::Contains("must tile"));
  CHECK_THAT(message([&] { linalg::BlockCsr::fromCsr(A, 17, 1); }), Catch::Contains("1 to 16"));
  const linalg::BlockCsr M = linalg::BlockCsr::fromCsr(A, 2, 2), N = linalg::BlockCsr::fromCsr(A, 3, 3);
  CHECK_THAT(message([&] { linalg::multiply(M, N); }), Catch::Contains("A's columns must be B's rows"));
  linalg::BlockCsr bad = M;
  std::swap(bad.colIdx[0], bad.colIdx[1]);
  CHECK_THAT(message([&] { linalg::multiply(bad, M); }), Catch::Contains("block row 0") && Catch::Contains("ascending"));
  bad = M;
  bad.colIdx.back() = 3;
  CHECK_THAT(message([&] { linalg::transpose(bad); }), Catch::Contains("block row 2") && Catch::Contains("out of range"));
  bad = M;
  bad.values.pop_back();
  CHECK_THAT(message([&] { bad.validate("bad"); }), Catch::Contains("bad") && Catch::Contains("4 per block"));
}
