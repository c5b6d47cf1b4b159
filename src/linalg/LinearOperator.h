#pragma once
// texstream::linalg::LinearOperator: the one interface every matrix offers to solvers.
#include <texstream/stream/Reduction.h>

#include <cstddef>
#include <string>

namespace texstream::stream {
class Vector;
class ElementCopy;
}

namespace texstream::linalg {

class DoubleFloatVector;

class LinearOperator {
 public:
  virtual ~LinearOperator() = default;
  /// y = A x. x has cols() elements, y rows(); y must not be x. Throws gl::Error naming
  /// the matrix and the vectors when sizes differ.
  virtual void apply(const stream::Vector& x, stream::Vector& y) const = 0;
  /// y = A x, then epilogue(y . x) (compute backend): CG's w = A u with w . u. This
  /// default is two dispatches, the product and a reduction; an operator that can fold
  /// the dot product into its own kernel overrides it (SegmentMatrix in internal order, BcrsMatrix, BandedMatrix and StencilMatrix).
  virtual void applyAndDot(const stream::Vector& x, stream::Vector& y, const stream::Epilogue& epilogue) const {
    apply(x, y);
    stream::reduceInto(stream::ReductionOp::Dot, y, &x, epilogue);
  }
  /// Whether applyAndDot gathers single elements of x at column indices (a mesh's sparse
  /// product), so that applyAndDotWithCopy, given x's elements in a storage buffer, gathers
  /// 4-byte loads instead of 16-byte texels (stream/ElementCopy.h). false: this default.
  virtual bool gathersElements() const { return false; }
  /// applyAndDot, with `xCopy` holding x's elements (written after x's last change, in x's
  /// layout) for the operator's gathers; x still gives what the kernel reads texel by
  /// texel. This default ignores the copy.
  virtual void applyAndDotWithCopy(const stream::Vector& x, const stream::ElementCopy& xCopy, stream::Vector& y,
                                   const stream::Epilogue& epilogue) const {
    (void)xCopy;
    applyAndDot(x, y, epilogue);
  }
  /// r = b - A x with b and x double-float pairs (DoubleFloatVector.h), every product and
  /// sum in double-float arithmetic, r rounded to float: the defect of mixed-precision
  /// refinement (solvers/krylov/MixedPrecisionRefinement.h). b and r have rows() elements in the
  /// layout apply() writes, x cols(). Operators without such a kernel throw gl::Error
  /// naming themselves (this default).
  virtual void residualInDoubleFloat(const DoubleFloatVector& b, const DoubleFloatVector& x, stream::Vector& r) const;
  /// Whether residualInDoubleFloat has a kernel (false: this default, which throws).
  virtual bool hasResidualInDoubleFloat() const { return false; }
  /// y = A x with x and y double-float pairs, every product and sum in double-float
  /// arithmetic (the entries' tails included where the matrix keeps them): the product of
  /// double-float CG (solvers/krylov/DoubleFloatCg.h). x has cols() elements, y rows() in the
  /// layout apply() writes; y is not x. Operators without such a kernel throw gl::Error
  /// naming themselves (this default).
  virtual void applyInDoubleFloat(const DoubleFloatVector& x, DoubleFloatVector& y) const;
  /// d = diag(A) (square matrices), in x's layout.
  virtual void diagonal(stream::Vector& d) const = 0;
  virtual std::size_t rows() const = 0;
  virtual std::size_t cols() const = 0;
  virtual const std::string& name() const = 0;
  /// Bytes moved through memory by one apply(), for bandwidth figures in benchmarks.
  virtual double bytesPerApply() const = 0;
  /// Multiply-adds of one apply() (2 flops each).
  virtual double flopsPerApply() const = 0;
};

}  // namespace texstream::linalg
