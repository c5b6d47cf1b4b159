#include <texstream/linalg/LinearOperator.h>

#include <texstream/gl/Error.h>

namespace texstream::linalg {

void LinearOperator::residualInDoubleFloat(const DoubleFloatVector&, const DoubleFloatVector&, stream::Vector&) const {
  throw gl::Error("LinearOperator(\"" + name() +
                  "\").residualInDoubleFloat: this operator has no double-float residual kernel "
                  "(BandedMatrix, StencilMatrix, DenseMatrix, SegmentMatrix and BcrsMatrix have one)");
}

void LinearOperator::applyInDoubleFloat(const DoubleFloatVector&, DoubleFloatVector&) const {
  throw gl::Error("LinearOperator(\"" + name() +
                  "\").applyInDoubleFloat: this operator has no double-float product kernel "
                  "(SegmentMatrix and geometry::VertexOperator have one)");
}

}  // namespace texstream::linalg
