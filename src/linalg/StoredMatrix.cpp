#include <texstream/linalg/StoredMatrix.h>

#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/OperatorShapes.h>
#include <texstream/linalg/VectorOps.h>

#include <utility>

namespace texstream::linalg {

StoredMatrix::StoredMatrix(const char* kind, std::string name, std::size_t rows, std::size_t cols)
    : m_kind(kind), m_name(std::move(name)), m_rows(rows), m_cols(cols) {}

std::string StoredMatrix::title() const { return operatorTitle(m_kind, m_name); }

void StoredMatrix::initRowLayout() { m_rowLayout = stream::Layout::forSize(m_rows); }

void StoredMatrix::requireApply(const stream::Vector& x, const stream::Vector& y) const {
  requireApplyShapes(title(), m_rowLayout, m_cols, x, y);
}

void StoredMatrix::requireDiagonal(const stream::Vector& d) const {
  requireDiagonalShape(title(), m_rowLayout, m_cols, d);
}

void StoredMatrix::diagonal(stream::Vector& d) const { copyDiagonal(title(), d); }

void StoredMatrix::copyDiagonal(const std::string& title, stream::Vector& d) const {
  gl::StateGuard guard;
  requireDiagonalShape(title, m_rowLayout, m_cols, d);
  copy(m_diagonal, d);
}

void StoredMatrix::setDiagonal(const std::vector<float>& values) {
  m_diagonal = stream::Vector(m_rowLayout, m_name + ".diagonal");
  m_diagonal.upload(values);
}

}  // namespace texstream::linalg
