#pragma once
// texstream::linalg::StoredMatrix: what every matrix format of linalg/ shares behind
// LinearOperator: a name and a shape, the layout y = A x and diag(A) come in
// (rowLayout() = Layout::forSize(rows)), the stored diagonal, and the shape checks whose
// messages name the matrix ("DenseMatrix(\"A\").apply: x has n=5, expected 7").
// A format adds apply(), bytesPerApply() and flopsPerApply(); diagonal() copies the stored
// diagonal unless the format says otherwise (PermutedMatrix gathers it into user order).
#include <texstream/linalg/LinearOperator.h>
#include <texstream/stream/Layout.h>
#include <texstream/stream/Vector.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace texstream::linalg {

class StoredMatrix : public LinearOperator {
 public:
  StoredMatrix(StoredMatrix&&) noexcept = default;
  StoredMatrix& operator=(StoredMatrix&&) noexcept = default;
  StoredMatrix(const StoredMatrix&) = delete;
  StoredMatrix& operator=(const StoredMatrix&) = delete;

  /// d = diag(A) in rowLayout() (square matrices only; gl::Error naming the matrix otherwise).
  void diagonal(stream::Vector& d) const override;
  std::size_t rows() const override { return m_rows; }
  std::size_t cols() const override { return m_cols; }
  const std::string& name() const override { return m_name; }
  /// Layout::forSize(rows()): the layout of y = A x and of diag(A).
  const stream::Layout& rowLayout() const { return m_rowLayout; }

 protected:
  /// `kind` is the class name messages use ("DenseMatrix"), a string literal.
  StoredMatrix(const char* kind, std::string name, std::size_t rows, std::size_t cols);
  /// A square n x n matrix.
  StoredMatrix(const char* kind, std::string name, std::size_t n) : StoredMatrix(kind, std::move(name), n, n) {}

  /// "DenseMatrix(\"A\")": how messages name this matrix.
  std::string title() const;
  /// Sets rowLayout() to Layout::forSize(rows()); a constructor calls it once the shape
  /// is validated and a context is current.
  void initRowLayout();
  /// Throws gl::Error naming the matrix unless y = A x fits: x holds cols() elements (any
  /// layout: kernels read it by element index), y rows() elements in rowLayout(), y is not x.
  void requireApply(const stream::Vector& x, const stream::Vector& y) const;
  /// Throws gl::Error naming the matrix unless A is square and d is in rowLayout().
  void requireDiagonal(const stream::Vector& d) const;
  /// d = the stored diagonal, checked as requireDiagonal() under `title` (a format that
  /// lends its storage to another names that one: StencilMatrix).
  void copyDiagonal(const std::string& title, stream::Vector& d) const;

  /// The stored diagonal: `values` (rows() of them) into a vector in rowLayout() named
  /// "<name>.diagonal", or a vector the format built (PermutedMatrix: internal layout).
  void setDiagonal(const std::vector<float>& values);
  void setDiagonal(stream::Vector d) { m_diagonal = std::move(d); }
  const stream::Vector& storedDiagonal() const { return m_diagonal; }
  stream::Vector& storedDiagonal() { return m_diagonal; }

 private:
  const char* m_kind;
  std::string m_name;
  std::size_t m_rows = 0, m_cols = 0;
  stream::Layout m_rowLayout;
  stream::Vector m_diagonal;  // empty unless square
};

}  // namespace texstream::linalg
