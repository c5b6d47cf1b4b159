#pragma once
// texstream::codegen: a small Matrix Market reader (NIST format: "%%MatrixMarket matrix
// coordinate|array real|integer|pattern general|symmetric|skew-symmetric"), enough to
// give the linear-expression optimizer a matrix A and a vector b from files. Every
// problem is reported as std::invalid_argument("FILE:LINE: what is wrong").
#include <texstream/codegen/LinearExpression.h>

#include <istream>
#include <string>
#include <vector>

namespace texstream::codegen {

struct MatrixMarketData {
  int rows = 0, cols = 0;
  std::vector<Entry> entries;  ///< 0-based, symmetric parts expanded, explicit zeros kept
};

/// Parses a Matrix Market text; `name` is used in messages ("A.mtx:12: ...").
MatrixMarketData parseMatrixMarket(std::istream& in, const std::string& name);
/// Reads the file at `path` ("path: cannot open ..." if it cannot be read).
MatrixMarketData readMatrixMarket(const std::string& path);

/// y = A x + b from a square matrix file and, optionally, an m x 1 (or 1 x m) file for b.
LinearExpression readLinearExpression(const std::string& matrixPath, const std::string& bPath = "");

}  // namespace texstream::codegen
