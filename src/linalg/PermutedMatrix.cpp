#include <texstream/linalg/PermutedMatrix.h>

#include <texstream/linalg/DoubleFloatVector.h>
#include <texstream/linalg/OperatorShapes.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/OperatorShapes.h>
#include <texstream/linalg/VectorOps.h>
#include <texstream/stream/Runtime.h>

#include <utility>

namespace texstream::linalg {

void PermutedMatrix::setPermutation(RowPermutation permutation) {
  m_permutation = std::move(permutation);
  initRowLayout();
}

stream::Vector PermutedMatrix::makeInternalVector(std::string name) const {
  return stream::Vector(internalLayout(), std::move(name));
}

void PermutedMatrix::apply(const stream::Vector& x, stream::Vector& y) const {
  requireApply(x, y);
  gl::StateGuard guard;
  if (!reordered() && (readsAnyXLayout() || x.layout() == internalLayout())) {
    applyInternal(x, y);
    return;
  }
  stream::Vector xi = stream::Vector::temporary(internalLayout(), name() + ".x(internal)");
  stream::Vector yi = stream::Vector::temporary(internalLayout(), name() + ".y(internal)");
  m_permutation.toInternal(x, xi);
  applyInternal(xi, yi);
  m_permutation.toUser(yi, y);
}

void PermutedMatrix::residualInDoubleFloat(const DoubleFloatVector& b, const DoubleFloatVector& x,
                                           stream::Vector& r) const {
  requireResidualShapes(title(), rowLayout(), cols(), b, x, r);
  gl::StateGuard guard;
  if (!reordered() && x.layout() == internalLayout()) {
    residualInternalInDoubleFloat(b, x, r);
    return;
  }
  DoubleFloatVector bi = DoubleFloatVector::temporary(internalLayout(), name() + ".b(internal)");
  DoubleFloatVector xi = DoubleFloatVector::temporary(internalLayout(), name() + ".x(internal)");
  stream::Vector ri = stream::Vector::temporary(internalLayout(), name() + ".r(internal)");
  m_permutation.toInternal(b.hi(), bi.mutableHi());
  m_permutation.toInternal(b.lo(), bi.mutableLo());
  m_permutation.toInternal(x.hi(), xi.mutableHi());
  m_permutation.toInternal(x.lo(), xi.mutableLo());
  residualInternalInDoubleFloat(bi, xi, ri);
  m_permutation.toUser(ri, r);
}

void PermutedMatrix::applyInDoubleFloat(const DoubleFloatVector& x, DoubleFloatVector& y) const {
  requireApply(x.hi(), y.hi());
  requireApply(x.lo(), y.lo());
  gl::StateGuard guard;
  if (!reordered() && x.layout() == internalLayout() && y.layout() == internalLayout()) {
    applyInternalInDoubleFloat(x, y);
    return;
  }
  DoubleFloatVector xi = DoubleFloatVector::temporary(internalLayout(), name() + ".x(internal)");
  DoubleFloatVector yi = DoubleFloatVector::temporary(internalLayout(), name() + ".y(internal)");
  m_permutation.toInternal(x.hi(), xi.mutableHi());
  m_permutation.toInternal(x.lo(), xi.mutableLo());
  applyInternalInDoubleFloat(xi, yi);
  m_permutation.toUser(yi.hi(), y.mutableHi());
  m_permutation.toUser(yi.lo(), y.mutableLo());
}

void PermutedMatrix::applyInternalInDoubleFloat(const DoubleFloatVector&, DoubleFloatVector&) const {
  throw gl::Error(title() + ": no double-float product for this format (SegmentMatrix has one)");
}

void PermutedMatrix::applyAndDot(const stream::Vector& x, stream::Vector& y, const stream::Epilogue& epilogue) const {
  requireApply(x, y);
  if (x.layout() != rowLayout()) {
    throw gl::Error(title() + ".applyAndDot: x (vector \"" + x.name() + "\") has " + x.layout().describe() +
                    "; y . x needs x in y's layout " + rowLayout().describe() + " (Layout::forSize)");
  }
  if (!reordered()) {
    applyInternalAndDot(x, y, epilogue);
    return;
  }
  if (stream::Runtime::current().backend() != stream::Backend::Compute) {
    LinearOperator::applyAndDot(x, y, epilogue);  // the product in user order, then a reduction that throws
    return;
  }
  gl::StateGuard guard;
  stream::Vector xi = stream::Vector::temporary(internalLayout(), name() + ".x(internal)");
  stream::Vector yi = stream::Vector::temporary(internalLayout(), name() + ".y(internal)");
  m_permutation.toInternal(x, xi);
  applyInternalAndDot(xi, yi, epilogue);
  m_permutation.toUser(yi, y);
}

void PermutedMatrix::applyInternalAndDot(const stream::Vector& x, stream::Vector& y,
                                         const stream::Epilogue& epilogue) const {
  applyInternal(x, y);
  stream::reduceInto(stream::ReductionOp::Dot, y, &x, epilogue);
}

void PermutedMatrix::diagonal(stream::Vector& d) const {
  gl::StateGuard guard;
  requireDiagonal(d);
  m_permutation.toUser(storedDiagonal(), d);
}

void PermutedMatrix::diagonalInternal(stream::Vector& d) const {
  requireDiagonalShape(title() + " (internal order)", internalLayout(), internalLayout().size(), d);
  copy(storedDiagonal(), d);
}

}  // namespace texstream::linalg
