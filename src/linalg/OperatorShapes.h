#pragma once
// Shape checks shared by the matrix classes of linalg/: every apply() and diagonal() names
// the matrix and the offending vector, e.g.
//   DenseMatrix("A").apply: x has n=5, expected 7
#include <texstream/stream/Layout.h>

#include <cstddef>
#include <string>
#include <vector>

namespace texstream::stream {
class Vector;
}

namespace texstream::linalg {

class DoubleFloatVector;
class LinearOperator;

/// "DenseMatrix(\"A\")"
std::string operatorTitle(const char* kind, const std::string& name);

/// "<where>: the matrix is 3x4, not square": the wording of every square check
/// (Csr::requireSquare, requireSquare, requireDiagonalShape).
std::string notSquareMessage(const std::string& where, std::size_t rows, std::size_t cols);

/// Throws gl::Error(notSquareMessage(where, ...)) unless A is square.
void requireSquare(const std::string& where, const LinearOperator& A);

/// y = A x with A rows x cols: x must hold cols elements (any layout: kernels read it by
/// element index), y rows elements in `rowLayout` (the layout the matrix data is stored
/// in), and y must not be x. Throws gl::Error naming the matrix and the vector.
void requireApplyShapes(const std::string& title, const stream::Layout& rowLayout, std::size_t cols,
                        const stream::Vector& x, const stream::Vector& y);

/// r = b - A x in double-float (LinearOperator::residualInDoubleFloat): b and r of
/// rowLayout, x cols elements (hi and lo in one layout), r not one of b's or x's vectors.
void requireResidualShapes(const std::string& title, const stream::Layout& rowLayout, std::size_t cols,
                           const DoubleFloatVector& b, const DoubleFloatVector& x, const stream::Vector& r);

/// d = diag(A): A square, d of rowLayout. Throws gl::Error otherwise.
void requireDiagonalShape(const std::string& title, const stream::Layout& rowLayout, std::size_t cols,
                          const stream::Vector& d);

/// The CPU values of one vector in `layout` order, padded with zeros to 4 W H floats: the
/// tightly packed upload of an RGBA32F texture holding that vector.
std::vector<float> paddedTexels(const stream::Layout& layout, const std::vector<float>& values);

}  // namespace texstream::linalg
