// Gustavson's row-by-row sparse products; large products split their rows over threads.
#include <texstream/linalg/CsrProducts.h>

#include <algorithm>
#include <thread>
#include <utility>
#include <stdexcept>
#include <string>

namespace texstream::linalg {

Csr transpose(const Csr& A) {
  A.validate("transpose");
  Csr T;
  T.rows = A.cols;
  T.cols = A.rows;
  T.rowPtr.assign(A.cols + 1, 0);
  for (std::int32_t c : A.colIdx) ++T.rowPtr[std::size_t(c) + 1];
  for (std::size_t j = 0; j < A.cols; ++j) T.rowPtr[j + 1] += T.rowPtr[j];
  T.colIdx.resize(A.nonZeros());
  T.values.resize(A.nonZeros());
  std::vector<std::int64_t> next(T.rowPtr.begin(), T.rowPtr.end() - 1);
  // Rows of A in increasing order: the columns of each row of A^T come out ascending.
  for (std::size_t r = 0; r < A.rows; ++r) {
    for (std::int64_t k = A.rowPtr[r]; k < A.rowPtr[r + 1]; ++k) {
      const std::size_t slot = std::size_t(next[std::size_t(A.colIdx[std::size_t(k)])]++);
      T.colIdx[slot] = std::int32_t(r);
      T.values[slot] = A.values[std::size_t(k)];
    }
  }
  return T;
}

std::vector<double> transposeMultiply(const Csr& A, std::span<const double> y) {
  if (y.size() != A.rows) {
    throw std::invalid_argument("transposeMultiply: y has " + std::to_string(y.size()) + " values, A has " +
                                std::to_string(A.rows) + " rows");
  }
  std::vector<double> x(A.cols, 0.0);
  for (std::size_t r = 0; r < A.rows; ++r) {
    const double yr = y[r];
    if (yr == 0.0) continue;
    for (std::int64_t k = A.rowPtr[r]; k < A.rowPtr[r + 1]; ++k) x[std::size_t(A.colIdx[std::size_t(k)])] += A.values[std::size_t(k)] * yr;
  }
  return x;
}

namespace {

/// Rows [first, last) of A B into C's arrays (column order ascending per row); rowEnds[i]
/// is the running count after row first + i.
void multiplyRows(const Csr& A, const Csr& B, std::size_t first, std::size_t last, std::vector<std::int32_t>& colIdx,
                  std::vector<double>& values, std::vector<std::int64_t>& rowEnds) {
  std::vector<double> accumulator(B.cols, 0.0);
  std::vector<std::int64_t> marker(B.cols, -1);
  std::vector<std::int32_t> columns;
  for (std::size_t i = first; i < last; ++i) {
    columns.clear();
    for (std::int64_t k = A.rowPtr[i]; k < A.rowPtr[i + 1]; ++k) {
      const std::size_t r = std::size_t(A.colIdx[std::size_t(k)]);
      const double a = A.values[std::size_t(k)];
      for (std::int64_t l = B.rowPtr[r]; l < B.rowPtr[r + 1]; ++l) {
        const std::int32_t j = B.colIdx[std::size_t(l)];
        if (marker[std::size_t(j)] != std::int64_t(i)) {
          marker[std::size_t(j)] = std::int64_t(i);
          accumulator[std::size_t(j)] = 0.0;
          columns.push_back(j);
        }
        accumulator[std::size_t(j)] += a * B.values[std::size_t(l)];
      }
    }
    std::sort(columns.begin(), columns.end());
    for (std::int32_t j : columns) {
      colIdx.push_back(j);
      values.push_back(accumulator[std::size_t(j)]);
    }
    rowEnds.push_back(std::int64_t(colIdx.size()));
  }
}

/// Threads for a product of `rows` rows: one per hardware thread up to 16 for large
/// products, none in the browser build (no threads there).
unsigned productThreads(std::size_t rows) {
#ifdef __EMSCRIPTEN__
  (void)rows;
  return 1;
#else
  if (rows < 20000) return 1;
  return std::clamp(std::thread::hardware_concurrency(), 1u, 16u);
#endif
}

/// Calls work(t, first, last) for `threads` blocks of [0, rows), on threads where there are
/// several.
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

}  // namespace

void multiplyVector(const Csr& A, std::span<const double> x, std::span<double> y) {
  if (x.size() != A.cols || y.size() != A.rows) {
    throw std::invalid_argument("multiplyVector: A is " + std::to_string(A.rows) + "x" + std::to_string(A.cols) +
                                ", x has " + std::to_string(x.size()) + " values and y " + std::to_string(y.size()));
  }
  forRowBlocks(A.rows, productThreads(A.rows), [&](unsigned, std::size_t first, std::size_t last) {
    for (std::size_t r = first; r < last; ++r) {
      double s = 0;
      for (std::int64_t k = A.rowPtr[r]; k < A.rowPtr[r + 1]; ++k)
        s += A.values[std::size_t(k)] * x[std::size_t(A.colIdx[std::size_t(k)])];
      y[r] = s;
    }
  });
}

Csr multiply(const Csr& A, const Csr& B) {
  A.validate("multiply: A");
  B.validate("multiply: B");
  if (A.cols != B.rows) {
    throw std::invalid_argument("multiply: A is " + std::to_string(A.rows) + "x" + std::to_string(A.cols) + ", B is " +
                                std::to_string(B.rows) + "x" + std::to_string(B.cols) + " (A's columns must be B's rows)");
  }
  Csr C;
  C.rows = A.rows;
  C.cols = B.cols;
  C.rowPtr.assign(A.rows + 1, 0);
  const unsigned threads = productThreads(A.rows);
  // Row blocks computed independently (threads where there are several), then joined.
  struct Block {
    std::vector<std::int32_t> colIdx;
    std::vector<double> values;
    std::vector<std::int64_t> rowEnds;
  };
  std::vector<Block> blocks(threads);
  auto range = [&](unsigned t) { return std::pair{A.rows * t / threads, A.rows * (t + 1) / threads}; };
  forRowBlocks(A.rows, threads, [&](unsigned t, std::size_t first, std::size_t last) {
    multiplyRows(A, B, first, last, blocks[t].colIdx, blocks[t].values, blocks[t].rowEnds);
  });
  std::size_t total = 0;
  for (const Block& b : blocks) total += b.colIdx.size();
  C.colIdx.reserve(total);
  C.values.reserve(total);
  for (unsigned t = 0; t < threads; ++t) {
    const std::int64_t offset = std::int64_t(C.colIdx.size());
    const std::size_t first = range(t).first;
    for (std::size_t i = 0; i < blocks[t].rowEnds.size(); ++i) C.rowPtr[first + i + 1] = offset + blocks[t].rowEnds[i];
    C.colIdx.insert(C.colIdx.end(), blocks[t].colIdx.begin(), blocks[t].colIdx.end());
    C.values.insert(C.values.end(), blocks[t].values.begin(), blocks[t].values.end());
  }
  return C;
}

Csr normalMatrix(const Csr& A) { return multiply(transpose(A), A); }

}  // namespace texstream::linalg
