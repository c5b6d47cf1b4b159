#include <texstream/linalg/OperatorShapes.h>

#include <texstream/gl/Error.h>
#include <texstream/linalg/DoubleFloatVector.h>
#include <texstream/linalg/LinearOperator.h>
#include <texstream/stream/Aliasing.h>
#include <texstream/stream/Vector.h>

#include <algorithm>

namespace texstream::linalg {

std::string operatorTitle(const char* kind, const std::string& name) {
  return std::string(kind) + "(\"" + name + "\")";
}

std::string notSquareMessage(const std::string& where, std::size_t rows, std::size_t cols) {
  return where + ": the matrix is " + std::to_string(rows) + "x" + std::to_string(cols) + ", not square";
}

void requireSquare(const std::string& where, const LinearOperator& A) {
  if (A.rows() != A.cols()) throw gl::Error(notSquareMessage(where, A.rows(), A.cols()));
}

namespace {
void requireVector(const std::string& where, const char* role, const stream::Vector& v, std::size_t expected) {
  if (v.empty()) throw gl::Error(where + ": " + role + " is an empty vector (default-constructed or moved from)");
  if (v.size() != expected) {
    throw gl::Error(where + ": " + role + " has n=" + std::to_string(v.size()) + ", expected " +
                    std::to_string(expected) + " (vector \"" + v.name() + "\")");
  }
}
void requireLayout(const std::string& where, const char* role, const stream::Vector& v, const stream::Layout& l) {
  if (v.layout() != l) {
    throw gl::Error(where + ": " + role + " (vector \"" + v.name() + "\") has " + v.layout().describe() +
                    ", the matrix stores its rows as " + l.describe() + " (Layout::forSize)");
  }
}
}  // namespace

void requireApplyShapes(const std::string& title, const stream::Layout& rowLayout, std::size_t cols,
                        const stream::Vector& x, const stream::Vector& y) {
  const std::string where = title + ".apply";
  requireVector(where, "x", x, cols);
  requireVector(where, "y", y, rowLayout.size());
  requireLayout(where, "y", y, rowLayout);
  stream::requireDistinct(where, {"y", y}, {"x", x}, "a product cannot be formed in place");
}

void requireResidualShapes(const std::string& title, const stream::Layout& rowLayout, std::size_t cols,
                           const DoubleFloatVector& b, const DoubleFloatVector& x, const stream::Vector& r) {
  const std::string where = title + ".residualInDoubleFloat";
  requireVector(where, "x.hi", x.hi(), cols);
  requireVector(where, "x.lo", x.lo(), cols);
  stream::requireSameLayout(where.c_str(), x.hi(), x.lo());
  requireVector(where, "b.hi", b.hi(), rowLayout.size());
  requireLayout(where, "b.hi", b.hi(), rowLayout);
  requireLayout(where, "b.lo", b.lo(), rowLayout);
  requireVector(where, "r", r, rowLayout.size());
  requireLayout(where, "r", r, rowLayout);
  const char* why = "the residual is written while the pairs are read";
  stream::requireDistinct(where, {"r", r}, {"x.hi", x.hi()}, why);
  stream::requireDistinct(where, {"r", r}, {"x.lo", x.lo()}, why);
  stream::requireDistinct(where, {"r", r}, {"b.hi", b.hi()}, why);
  stream::requireDistinct(where, {"r", r}, {"b.lo", b.lo()}, why);
}

void requireDiagonalShape(const std::string& title, const stream::Layout& rowLayout, std::size_t cols,
                          const stream::Vector& d) {
  const std::string where = title + ".diagonal";
  if (rowLayout.size() != cols) throw gl::Error(notSquareMessage(where, rowLayout.size(), cols));
  requireVector(where, "d", d, cols);
  requireLayout(where, "d", d, rowLayout);
}

std::vector<float> paddedTexels(const stream::Layout& layout, const std::vector<float>& values) {
  std::vector<float> padded(layout.paddedSize(), 0.0f);
  std::copy_n(values.begin(), std::min(values.size(), padded.size()), padded.begin());
  return padded;
}

}  // namespace texstream::linalg
