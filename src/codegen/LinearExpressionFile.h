#pragma once
// texstream::codegen: a linear expression y = A x + b (Bajaj et al. 2004, §2.2) from Matrix
// Market files, read by linalg::readMatrixMarket with dense `array` files accepted and
// a (row, column) given twice rejected. Explicit zeros are read as entries, and
// LinearExpression leaves them out of A.
#include <texstream/codegen/LinearExpression.h>

#include <string>

namespace texstream::codegen {

/// A from a square m x m file (coordinate or array; real, integer or pattern; general,
/// symmetric or skew-symmetric) and, when bPath is given, b from an m x 1 or 1 x m file
/// (b = 0 otherwise). A malformed file throws linalg::MatrixMarketError ("b.mtx:4: ...");
/// a non-square A or a b of the wrong size std::invalid_argument naming the file.
LinearExpression readLinearExpression(const std::string& matrixPath, const std::string& bPath = "");

}  // namespace texstream::codegen
