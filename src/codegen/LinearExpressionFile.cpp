#include <texstream/codegen/LinearExpressionFile.h>

#include <texstream/linalg/MatrixMarket.h>

#include <stdexcept>

namespace texstream::codegen {

namespace {

// A repeated (row, column) is an error rather than a sum: the optimizer's input should be
// what the file says, entry by entry.
constexpr linalg::MatrixMarketOptions kOptions{.array = true, .rejectDuplicates = true};

std::string size(const linalg::Csr& A) { return std::to_string(A.rows) + " x " + std::to_string(A.cols); }

}  // namespace

LinearExpression readLinearExpression(const std::string& matrixPath, const std::string& bPath) {
  const linalg::Csr A = linalg::readMatrixMarket(matrixPath, kOptions);
  if (A.rows != A.cols) {
    throw std::invalid_argument(matrixPath + ": A must be square for y = A x + b (it is " + size(A) + ")");
  }
  std::vector<Entry> entries;
  entries.reserve(A.nonZeros());
  for (std::size_t i = 0; i < A.rows; ++i) {
    for (std::int64_t e = A.rowPtr[i]; e < A.rowPtr[i + 1]; ++e) {
      entries.push_back({int(i), int(A.colIdx[std::size_t(e)]), A.values[std::size_t(e)]});
    }
  }
  std::vector<double> b;
  if (!bPath.empty()) {
    const linalg::Csr B = linalg::readMatrixMarket(bPath, kOptions);
    const bool column = B.rows == A.rows && B.cols == 1, row = B.rows == 1 && B.cols == A.rows;
    if (!column && !row) {
      throw std::invalid_argument(bPath + ": b must be " + std::to_string(A.rows) + " x 1 to match A (it is " +
                                  size(B) + ")");
    }
    b.assign(A.rows, 0.0);
    for (std::size_t i = 0; i < B.rows; ++i) {
      for (std::int64_t e = B.rowPtr[i]; e < B.rowPtr[i + 1]; ++e) {
        b[column ? i : std::size_t(B.colIdx[std::size_t(e)])] = B.values[std::size_t(e)];
      }
    }
  }
  return LinearExpression(int(A.rows), std::move(entries), std::move(b));
}

}  // namespace texstream::codegen
