// Block sparse rows on the CPU: conversion from and to scalar CSR, the transpose and
// Gustavson's product with small dense blocks, each with its block sizes as template
// constants so the compiler unrolls the per-block loops.
#include <texstream/linalg/BlockCsr.h>

#include <texstream/linalg/CsrProducts.h>
#include <texstream/linalg/LargeArrays.h>
#include <texstream/linalg/RowBlocks.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <type_traits>

namespace texstream::linalg {

namespace {

bool validBlockSize(int n) { return n >= 1 && n <= kMaxBlockSize; }

/// f(std::integral_constant<int, n>) for the common block sizes 1, 2 and 4 (loops the
/// compiler unrolls), f(n) for any other.
template <class F>
void withBlockSize(int n, F&& f) {
  switch (n) {
    case 1: f(std::integral_constant<int, 1>{}); break;
    case 2: f(std::integral_constant<int, 2>{}); break;
    case 4: f(std::integral_constant<int, 4>{}); break;
    default: f(n); break;
  }
}

std::string shape(const BlockCsr& A) {
  return std::to_string(A.rows) + "x" + std::to_string(A.cols) + " blocks of " + std::to_string(A.blockRows) + "x" +
         std::to_string(A.blockCols);
}

/// Numeric phase of C = A B for block rows [first, last): rows written from C.rowPtr[i]
/// on, block columns ascending (R x K blocks of A times K x N blocks of B; each size an
/// std::integral_constant or an int).
template <class Rows, class Inner, class Cols>
void fillProductRows(Rows R, Inner K, Cols N, const BlockCsr& A, const BlockCsr& B, std::size_t first, std::size_t last,
                     BlockCsr& C) {
  const int RN = R * N;
  std::vector<double> accumulator(B.cols * RN);
  std::vector<std::int64_t> marker(B.cols, -1);
  for (std::size_t i = first; i < last; ++i) {
    const std::size_t begin = std::size_t(C.rowPtr[i]);
    std::size_t end = begin;
    for (std::int64_t k = A.rowPtr[i]; k < A.rowPtr[i + 1]; ++k) {
      const double* a = A.values.data() + std::size_t(k) * (R * K);
      const std::size_t r = std::size_t(A.colIdx[std::size_t(k)]);
      for (std::int64_t l = B.rowPtr[r]; l < B.rowPtr[r + 1]; ++l) {
        const std::int32_t j = B.colIdx[std::size_t(l)];
        double* sum = accumulator.data() + std::size_t(j) * RN;
        if (marker[std::size_t(j)] != std::int64_t(i)) {
          marker[std::size_t(j)] = std::int64_t(i);
          std::fill(sum, sum + RN, 0.0);
          C.colIdx[end++] = j;
        }
        const double* b = B.values.data() + std::size_t(l) * (K * N);
        for (int row = 0; row < R; ++row)
          for (int q = 0; q < K; ++q) {
            const double av = a[row * K + q];
            for (int col = 0; col < N; ++col) sum[row * N + col] += av * b[q * N + col];
          }
      }
    }
    std::sort(C.colIdx.begin() + std::ptrdiff_t(begin), C.colIdx.begin() + std::ptrdiff_t(end));
    for (std::size_t p = begin; p < end; ++p) {
      const double* sum = accumulator.data() + std::size_t(C.colIdx[p]) * RN;
      std::copy(sum, sum + RN, C.values.data() + p * RN);
    }
  }
}

}  // namespace

void BlockCsr::validate(const std::string& what) const {
  const std::string prefix = what + ": block CSR " + shape(*this) + ": ";
  if (!validBlockSize(blockRows) || !validBlockSize(blockCols))
    throw std::invalid_argument(prefix + "block sizes must be 1 to " + std::to_string(kMaxBlockSize));
  if (rowPtr.size() != rows + 1)
    throw std::invalid_argument(prefix + "rowPtr has " + std::to_string(rowPtr.size()) + " entries, expected rows + 1 = " +
                                std::to_string(rows + 1));
  if (rowPtr[0] != 0 || std::size_t(rowPtr[rows]) != colIdx.size())
    throw std::invalid_argument(prefix + "rowPtr must run from 0 to the " + std::to_string(colIdx.size()) + " blocks");
  if (values.size() != colIdx.size() * std::size_t(blockValues()))
    throw std::invalid_argument(prefix + "values has " + std::to_string(values.size()) + " entries, expected " +
                                std::to_string(blockValues()) + " per block");
  for (std::size_t r = 0; r < rows; ++r)
    if (rowPtr[r + 1] < rowPtr[r])
      throw std::invalid_argument(prefix + "rowPtr not monotone at block row " + std::to_string(r));
  // The first bad block row, found on threads (RowBlocks.h).
  const std::size_t badRow = firstRowWhere(rowPtr, workThreads(double(colIdx.size())), [&](std::size_t r) {
    std::int32_t previous = -1;
    for (std::int64_t k = rowPtr[r]; k < rowPtr[r + 1]; ++k) {
      const std::int32_t c = colIdx[std::size_t(k)];
      if (c <= previous || std::size_t(c) >= cols) return true;
      previous = c;
    }
    return false;
  });
  if (badRow < rows)
    throw std::invalid_argument(prefix + "block row " + std::to_string(badRow) +
                                " has a block column out of range or out of ascending order");
}

BlockCsr BlockCsr::fromCsr(const Csr& A, int blockRows, int blockCols) {
  A.validate("BlockCsr::fromCsr");
  if (!validBlockSize(blockRows) || !validBlockSize(blockCols) || A.rows % std::size_t(blockRows) != 0 ||
      A.cols % std::size_t(blockCols) != 0)
    throw std::invalid_argument("BlockCsr::fromCsr: blocks of " + std::to_string(blockRows) + "x" +
                                std::to_string(blockCols) + " (each 1 to " + std::to_string(kMaxBlockSize) +
                                ") must tile the " + std::to_string(A.rows) + "x" + std::to_string(A.cols) + " matrix");
  BlockCsr M;
  M.blockRows = blockRows;
  M.blockCols = blockCols;
  M.rows = A.rows / std::size_t(blockRows);
  M.cols = A.cols / std::size_t(blockCols);
  M.rowPtr.assign(M.rows + 1, 0);
  // The block width as a constant where it is 1, 2 or 4: the divisions by it become shifts.
  withBlockSize(blockCols, [&](auto width) {
    const std::size_t R = std::size_t(blockRows), C = std::size_t(int(width)), RC = R * C;
    // Block row I's scalar entries: the weights of the threads' blocks.
    std::vector<std::int64_t> entries(M.rows + 1);
    for (std::size_t I = 0; I <= M.rows; ++I) entries[I] = A.rowPtr[I * R];
    const unsigned threads = workThreads(double(A.nonZeros()));
    // Block row I's block columns, ascending, each once: emit(J). Where its R rows have
    // ascending columns (as products and fromTriplets leave them) they are merged; otherwise
    // a marker per block column collects them and they are sorted.
    struct Scratch {
      std::vector<std::int64_t> marker, cursor;
      std::vector<std::int32_t> columns;
    };
    auto blockColumns = [&](std::size_t I, Scratch& scratch, auto&& emit) {
      const std::int64_t* rowPtr = A.rowPtr.data() + I * R;
      bool ascending = true;
      for (std::size_t r = 0; r < R && ascending; ++r)
        for (std::int64_t k = rowPtr[r] + 1; k < rowPtr[r + 1] && ascending; ++k)
          ascending = A.colIdx[std::size_t(k - 1)] <= A.colIdx[std::size_t(k)];
      if (ascending) {
        scratch.cursor.assign(rowPtr, rowPtr + R);
        for (;;) {
          std::size_t J = SIZE_MAX;
          for (std::size_t r = 0; r < R; ++r)
            if (scratch.cursor[r] < rowPtr[r + 1]) J = std::min(J, std::size_t(A.colIdx[std::size_t(scratch.cursor[r])]) / C);
          if (J == SIZE_MAX) return;
          for (std::size_t r = 0; r < R; ++r)
            while (scratch.cursor[r] < rowPtr[r + 1] && std::size_t(A.colIdx[std::size_t(scratch.cursor[r])]) / C == J)
              ++scratch.cursor[r];
          emit(std::int32_t(J));
        }
      }
      if (scratch.marker.empty()) scratch.marker.assign(M.cols, -1);
      scratch.columns.clear();
      for (std::int64_t k = rowPtr[0]; k < rowPtr[R]; ++k) {
        const std::size_t J = std::size_t(A.colIdx[std::size_t(k)]) / C;
        if (scratch.marker[J] != std::int64_t(I)) {
          scratch.marker[J] = std::int64_t(I);
          scratch.columns.push_back(std::int32_t(J));
        }
      }
      std::sort(scratch.columns.begin(), scratch.columns.end());
      for (std::int32_t J : scratch.columns) emit(J);
    };
    // Two passes: the block rows' lengths, then each block row written in place (its blocks
    // zeroed, then every entry added into its block: repeats sum).
    forWeightedRowBlocks(entries, threads, [&](unsigned, std::size_t first, std::size_t last) {
      Scratch scratch;
      for (std::size_t I = first; I < last; ++I) {
        std::int64_t count = 0;
        blockColumns(I, scratch, [&](std::int32_t) { ++count; });
        M.rowPtr[I + 1] = count;
      }
    });
    for (std::size_t I = 0; I < M.rows; ++I) M.rowPtr[I + 1] += M.rowPtr[I];
    resizeLarge(M.colIdx, std::size_t(M.rowPtr[M.rows]));
    resizeLarge(M.values, M.colIdx.size() * RC);
    forWeightedRowBlocks(entries, threads, [&](unsigned, std::size_t first, std::size_t last) {
      Scratch scratch;
      for (std::size_t I = first; I < last; ++I) {
        const std::size_t begin = std::size_t(M.rowPtr[I]);
        std::size_t end = begin;
        blockColumns(I, scratch, [&](std::int32_t J) { M.colIdx[end++] = J; });
        std::fill(M.values.begin() + std::ptrdiff_t(begin * RC), M.values.begin() + std::ptrdiff_t(end * RC), 0.0);
        for (std::size_t r = 0; r < R; ++r)
          for (std::int64_t k = A.rowPtr[I * R + r]; k < A.rowPtr[I * R + r + 1]; ++k) {
            const std::size_t column = std::size_t(A.colIdx[std::size_t(k)]);
            // The block's slot: a search of the row's few sorted block columns.
            const auto at = std::lower_bound(M.colIdx.begin() + std::ptrdiff_t(begin),
                                             M.colIdx.begin() + std::ptrdiff_t(end), std::int32_t(column / C));
            M.values[std::size_t(at - M.colIdx.begin()) * RC + r * C + column % C] += A.values[std::size_t(k)];
          }
      }
    });
  });
  return M;
}

Csr BlockCsr::toCsr(bool dropZeros) const {
  const std::size_t R = std::size_t(blockRows), C = std::size_t(blockCols);
  Csr A;
  A.rows = rows * R;
  A.cols = cols * C;
  A.rowPtr.assign(A.rows + 1, 0);
  const unsigned threads = workThreads(double(values.size()));
  // Scalar row I R + r's entries: emit(column, value) for each kept value, ascending.
  auto row = [&](std::size_t I, std::size_t r, auto&& emit) {
    for (std::int64_t k = rowPtr[I]; k < rowPtr[I + 1]; ++k)
      for (std::size_t c = 0; c < C; ++c) {
        const double v = values[std::size_t(k) * R * C + r * C + c];
        if (!dropZeros || v != 0.0) emit(std::int32_t(std::size_t(colIdx[std::size_t(k)]) * C + c), v);
      }
  };
  if (dropZeros) {
    forWeightedRowBlocks(rowPtr, threads, [&](unsigned, std::size_t first, std::size_t last) {
      for (std::size_t I = first; I < last; ++I)
        for (std::size_t r = 0; r < R; ++r) {
          std::int64_t count = 0;
          row(I, r, [&](std::int32_t, double) { ++count; });
          A.rowPtr[I * R + r + 1] = count;
        }
    });
  } else {
    for (std::size_t I = 0; I < rows; ++I)
      for (std::size_t r = 0; r < R; ++r) A.rowPtr[I * R + r + 1] = (rowPtr[I + 1] - rowPtr[I]) * std::int64_t(C);
  }
  for (std::size_t i = 0; i < A.rows; ++i) A.rowPtr[i + 1] += A.rowPtr[i];
  resizeLarge(A.colIdx, std::size_t(A.rowPtr[A.rows]));
  resizeLarge(A.values, std::size_t(A.rowPtr[A.rows]));
  forWeightedRowBlocks(rowPtr, threads, [&](unsigned, std::size_t first, std::size_t last) {
    for (std::size_t I = first; I < last; ++I)
      for (std::size_t r = 0; r < R; ++r) {
        std::size_t at = std::size_t(A.rowPtr[I * R + r]);
        row(I, r, [&](std::int32_t column, double v) {
          A.colIdx[at] = column;
          A.values[at++] = v;
        });
      }
  });
  return A;
}

BlockCsr transpose(const BlockCsr& A) {
  A.validate("transpose");
  const std::size_t R = std::size_t(A.blockRows), C = std::size_t(A.blockCols);
  BlockCsr T;
  T.blockRows = A.blockCols;
  T.blockCols = A.blockRows;
  T.rows = A.cols;
  T.cols = A.rows;
  resizeLarge(T.colIdx, A.blocks());
  resizeLarge(T.values, A.values.size());
  placeTransposed(A.rows, A.cols, A.rowPtr, A.colIdx, double(A.values.size()), T.rowPtr,
                  [&](std::size_t k, std::size_t r, std::size_t s) {
                    T.colIdx[s] = std::int32_t(r);
                    const double* from = A.values.data() + k * R * C;
                    double* to = T.values.data() + s * R * C;
                    for (std::size_t i = 0; i < R; ++i)
                      for (std::size_t j = 0; j < C; ++j) to[j * R + i] = from[i * C + j];
                  });
  return T;
}

BlockCsr multiply(const BlockCsr& A, const BlockCsr& B) {
  A.validate("multiply: A");
  B.validate("multiply: B");
  if (A.cols != B.rows || A.blockCols != B.blockRows)
    throw std::invalid_argument("multiply: A is " + shape(A) + ", B is " + shape(B) +
                                " (A's columns must be B's rows, in blocks and in scalars)");
  BlockCsr C;
  C.blockRows = A.blockRows;
  C.blockCols = B.blockCols;
  C.rows = A.rows;
  C.cols = B.cols;
  C.rowPtr.assign(A.rows + 1, 0);
  // The work: each block of A meeting a block row of B, a dense block product each.
  const double blockWork = double(A.blockRows * A.blockCols * B.blockCols);
  const double work = double(A.blocks()) * double(B.blocks()) / double(std::max<std::size_t>(B.rows, 1)) * blockWork;
  const unsigned threads = workThreads(work);
  forWeightedRowBlocks(A.rowPtr, threads, [&](unsigned, std::size_t first, std::size_t last) {
    countProductRows(A.rowPtr, A.colIdx, B.rowPtr, B.colIdx, B.cols, first, last, C.rowPtr);
  });
  for (std::size_t i = 0; i < A.rows; ++i) C.rowPtr[i + 1] += C.rowPtr[i];
  resizeLarge(C.colIdx, std::size_t(C.rowPtr[A.rows]));
  resizeLarge(C.values, C.colIdx.size() * std::size_t(C.blockValues()));
  withBlockSize(A.blockRows, [&](auto R) {
    withBlockSize(A.blockCols, [&](auto K) {
      withBlockSize(B.blockCols, [&](auto N) {
        forWeightedRowBlocks(A.rowPtr, threads, [&](unsigned, std::size_t first, std::size_t last) {
          fillProductRows(R, K, N, A, B, first, last, C);
        });
      });
    });
  });
  return C;
}

}  // namespace texstream::linalg
