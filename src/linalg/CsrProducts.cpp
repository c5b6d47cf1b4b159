// Gustavson's row-by-row sparse products; large products split their rows over threads.
#include <texstream/linalg/CsrProducts.h>

#include <texstream/linalg/LargeArrays.h>
#include <texstream/linalg/RowBlocks.h>

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
  resizeLarge(T.colIdx, A.nonZeros());
  resizeLarge(T.values, A.nonZeros());
  placeTransposed(A.rows, A.cols, A.rowPtr, A.colIdx, double(A.nonZeros()), T.rowPtr,
                  [&](std::size_t k, std::size_t r, std::size_t s) {
                    T.colIdx[s] = std::int32_t(r);
                    T.values[s] = A.values[k];
                  });
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

/// Numeric phase: rows [first, last) of A B written into C from C.rowPtr[i] on, columns
/// ascending (Gustavson's dense accumulator).
void fillRows(const Csr& A, const Csr& B, std::size_t first, std::size_t last, Csr& C) {
  std::vector<double> accumulator(B.cols, 0.0);
  std::vector<std::int64_t> marker(B.cols, -1);
  for (std::size_t i = first; i < last; ++i) {
    const std::size_t begin = std::size_t(C.rowPtr[i]);
    std::size_t end = begin;
    for (std::int64_t k = A.rowPtr[i]; k < A.rowPtr[i + 1]; ++k) {
      const std::size_t r = std::size_t(A.colIdx[std::size_t(k)]);
      const double a = A.values[std::size_t(k)];
      for (std::int64_t l = B.rowPtr[r]; l < B.rowPtr[r + 1]; ++l) {
        const std::int32_t j = B.colIdx[std::size_t(l)];
        if (marker[std::size_t(j)] != std::int64_t(i)) {
          marker[std::size_t(j)] = std::int64_t(i);
          accumulator[std::size_t(j)] = 0.0;
          C.colIdx[end++] = j;
        }
        accumulator[std::size_t(j)] += a * B.values[std::size_t(l)];
      }
    }
    std::sort(C.colIdx.begin() + std::ptrdiff_t(begin), C.colIdx.begin() + std::ptrdiff_t(end));
    for (std::size_t p = begin; p < end; ++p) C.values[p] = accumulator[std::size_t(C.colIdx[p])];
  }
}

}  // namespace

void multiplyVector(const Csr& A, std::span<const double> x, std::span<double> y) {
  if (x.size() != A.cols || y.size() != A.rows) {
    throw std::invalid_argument("multiplyVector: A is " + std::to_string(A.rows) + "x" + std::to_string(A.cols) +
                                ", x has " + std::to_string(x.size()) + " values and y " + std::to_string(y.size()));
  }
  forWeightedRowBlocks(A.rowPtr, workThreads(double(A.nonZeros())), [&](unsigned, std::size_t first, std::size_t last) {
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
  // Two phases over row blocks (threads where there are several): the row lengths, then
  // the rows written in place, so nothing is copied or regrown. The work is each entry of A
  // meeting a row of B (B's mean row length); the blocks hold equal shares of A's entries.
  const double work = double(A.nonZeros()) * double(B.nonZeros()) / double(std::max<std::size_t>(B.rows, 1));
  const unsigned threads = workThreads(work);
  forWeightedRowBlocks(A.rowPtr, threads,
                       [&](unsigned, std::size_t first, std::size_t last) {
                         countProductRows(A.rowPtr, A.colIdx, B.rowPtr, B.colIdx, B.cols, first, last, C.rowPtr);
                       });
  for (std::size_t i = 0; i < A.rows; ++i) C.rowPtr[i + 1] += C.rowPtr[i];
  resizeLarge(C.colIdx, std::size_t(C.rowPtr[A.rows]));
  resizeLarge(C.values, std::size_t(C.rowPtr[A.rows]));
  forWeightedRowBlocks(A.rowPtr, threads,
                       [&](unsigned, std::size_t first, std::size_t last) { fillRows(A, B, first, last, C); });
  return C;
}

Csr normalMatrix(const Csr& A) { return multiply(transpose(A), A); }

}  // namespace texstream::linalg
