#pragma once
// texstream::linalg::PermutedMatrix: a StoredMatrix whose rows sit in an internal order, a
// RowPermutation away from the user's (SegmentMatrix sorts rows by non-zero count, Bolz et
// al. 2003 §3; BcrsMatrix optionally by reverse Cuthill–McKee, Buatois et al. 2008
// §2.2.3). A format derived from it implements the product on internally ordered vectors
// (applyInternal, optionally applyInternalAndDot) and stores its diagonal in internal
// order; this class gives it both faces:
//  - the LinearOperator interface (apply, applyAndDot, diagonal) in USER order: n elements,
//    y and d in Layout::forSize(n). Each call gathers x into internal order, runs the
//    internal product and gathers y back (two passes more); when the order is the user's
//    (permutation().isIdentity()) it runs the internal product directly.
//    Convenient, not for inner loops.
//  - internal(): the same matrix as a LinearOperator on INTERNAL-order vectors
//    (internalLayout(), rows() = internalLayout().size() >= n; positions holding no user
//    row are identity rows reading zero): one product, no permutation. Solvers run on it:
//        SegmentMatrix A(csr, "A");
//        Vector b = A.makeInternalVector("b"), x = A.makeInternalVector("x");
//        A.toInternal(bUser, b);                           // once, outside the loop
//        auto Ai = A.internal();
//        JacobiPreconditioner M(Ai, A.internalLayout());
//        cg(Ai, b, x, opts, &M);
//        A.toUser(x, xUser);
#include <texstream/linalg/Reordering.h>
#include <texstream/linalg/StoredMatrix.h>
#include <texstream/stream/ElementCopy.h>
#include <texstream/stream/Layout.h>
#include <texstream/stream/Reduction.h>
#include <texstream/stream/Vector.h>

#include <cstdint>
#include <string>
#include <vector>

namespace texstream::linalg {

class PermutedMatrix : public StoredMatrix {
 public:
  // ---- LinearOperator, in USER order ------------------------------------------------
  /// y = A x: x has n elements (any layout), y n elements in Layout::forSize(n).
  void apply(const stream::Vector& x, stream::Vector& y) const override;
  /// y = A x and epilogue(y . x), user order, x in y's layout (gl::Error otherwise): the
  /// internal fused product between the two gathers (a permutation leaves y . x
  /// unchanged), on the compute backend; elsewhere the base class's product and
  /// reduction, whose reduceInto throws (epilogues are compute-only).
  void applyAndDot(const stream::Vector& x, stream::Vector& y, const stream::Epilogue& epilogue) const override;
  /// r = b - A x in double-float arithmetic, user order: the pairs gathered into the
  /// internal order (exact copies), residualInternalInDoubleFloat, r gathered back.
  void residualInDoubleFloat(const DoubleFloatVector& b, const DoubleFloatVector& x, stream::Vector& r) const override;
  bool hasResidualInDoubleFloat() const override { return true; }
  /// y = A x in double-float arithmetic, user order (y in Layout::forSize(n)): the pairs
  /// gathered around applyInternalInDoubleFloat.
  void applyInDoubleFloat(const DoubleFloatVector& x, DoubleFloatVector& y) const override;
  /// d = diag(A) in user order, Layout::forSize(n).
  void diagonal(stream::Vector& d) const override;

  // ---- INTERNAL order ---------------------------------------------------------------
  /// The matrix on internally ordered vectors (see the file comment). Holds a pointer to
  /// the matrix: keep the matrix alive (and unmoved) while using it.
  class Internal : public LinearOperator {
   public:
    explicit Internal(const PermutedMatrix& m) : m_matrix(&m) {}
    /// y = A x with x and y in internalLayout().
    void apply(const stream::Vector& x, stream::Vector& y) const override { m_matrix->applyInternal(x, y); }
    /// y = A x and epilogue(y . x), in the product's own dispatches where the format can.
    void applyAndDot(const stream::Vector& x, stream::Vector& y, const stream::Epilogue& epilogue) const override {
      m_matrix->applyInternalAndDot(x, y, epilogue);
    }
    bool gathersElements() const override { return m_matrix->internalGathersElements(); }
    /// applyAndDot with x's elements gathered from `xCopy` where the format gathers them.
    void applyAndDotWithCopy(const stream::Vector& x, const stream::ElementCopy& xCopy, stream::Vector& y,
                             const stream::Epilogue& epilogue) const override {
      m_matrix->applyInternalAndDotWithCopy(x, xCopy, y, epilogue);
    }
    /// r = b - A x in double-float arithmetic, all in internalLayout().
    void residualInDoubleFloat(const DoubleFloatVector& b, const DoubleFloatVector& x,
                               stream::Vector& r) const override {
      m_matrix->residualInternalInDoubleFloat(b, x, r);
    }
    bool hasResidualInDoubleFloat() const override { return true; }
    /// y = A x in double-float arithmetic, all in internalLayout().
    void applyInDoubleFloat(const DoubleFloatVector& x, DoubleFloatVector& y) const override {
      m_matrix->applyInternalInDoubleFloat(x, y);
    }
    /// d = the internal diagonal (1 at positions holding no user row, Layout padding 0).
    void diagonal(stream::Vector& d) const override { m_matrix->diagonalInternal(d); }
    std::size_t rows() const override { return m_matrix->internalLayout().size(); }
    std::size_t cols() const override { return m_matrix->internalLayout().size(); }
    const std::string& name() const override { return m_matrix->name(); }
    double bytesPerApply() const override { return m_matrix->bytesPerApply(); }
    double flopsPerApply() const override { return m_matrix->flopsPerApply(); }

   private:
    const PermutedMatrix* m_matrix;
  };
  Internal internal() const { return Internal(*this); }

  /// y = A x on internal vectors: y in internalLayout(), x as the format says (in
  /// internalLayout(), or any layout of as many elements where readsAnyXLayout()).
  virtual void applyInternal(const stream::Vector& x, stream::Vector& y) const = 0;
  /// applyInternal, then epilogue(y . x), x and y in internalLayout(). This default is
  /// the product and a reduction; a format that folds the dot product into its own
  /// kernel overrides it.
  virtual void applyInternalAndDot(const stream::Vector& x, stream::Vector& y,
                                   const stream::Epilogue& epilogue) const;
  /// Whether applyInternalAndDot gathers single elements of x (LinearOperator::gathersElements).
  virtual bool internalGathersElements() const { return false; }
  /// applyInternalAndDot with x's elements gathered from `xCopy` (stream/ElementCopy.h),
  /// x and the copy in internalLayout(). This default ignores the copy.
  virtual void applyInternalAndDotWithCopy(const stream::Vector& x, const stream::ElementCopy& xCopy,
                                           stream::Vector& y, const stream::Epilogue& epilogue) const {
    (void)xCopy;
    applyInternalAndDot(x, y, epilogue);
  }
  /// r = b - A x in double-float arithmetic (DoubleFloatVector.h) on internal vectors: b,
  /// x and r in internalLayout().
  virtual void residualInternalInDoubleFloat(const DoubleFloatVector& b, const DoubleFloatVector& x,
                                             stream::Vector& r) const = 0;
  /// y = A x in double-float arithmetic on internal pairs. Formats without such a kernel
  /// throw gl::Error naming themselves (this default).
  virtual void applyInternalInDoubleFloat(const DoubleFloatVector& x, DoubleFloatVector& y) const;
  /// d = the internal diagonal, d in internalLayout().
  void diagonalInternal(stream::Vector& d) const;
  /// The stored diagonal itself, in internalLayout().
  const stream::Vector& internalDiagonal() const { return storedDiagonal(); }

  /// Whether the internal order differs from the user's.
  bool reordered() const { return !m_permutation.isIdentity(); }
  const RowPermutation& permutation() const { return m_permutation; }
  const stream::Layout& internalLayout() const { return m_permutation.internalLayout(); }
  /// A zero vector in internalLayout().
  stream::Vector makeInternalVector(std::string name) const;
  void toInternal(const stream::Vector& user, stream::Vector& internal) const { m_permutation.toInternal(user, internal); }
  void toUser(const stream::Vector& internal, stream::Vector& user) const { m_permutation.toUser(internal, user); }
  /// n entries: internal element index of user row i (permutation().userToInternal()).
  const std::vector<std::int32_t>& userToInternal() const { return m_permutation.userToInternal(); }
  /// internalLayout().size() entries: the user row at each internal element, -1 if none.
  const std::vector<std::int32_t>& internalToUser() const { return m_permutation.internalToUser(); }

 protected:
  /// An n x n matrix; its constructor sets the permutation and the internal diagonal.
  PermutedMatrix(const char* kind, std::string name, std::size_t n) : StoredMatrix(kind, std::move(name), n) {}
  /// Sets the order (and rowLayout(): the user's Layout::forSize(n)).
  void setPermutation(RowPermutation permutation);
  /// Whether applyInternal reads x by element index, so that x may have any layout; then
  /// apply() hands a user-order x straight to it when the order is the user's.
  virtual bool readsAnyXLayout() const { return false; }

 private:
  RowPermutation m_permutation;
};

}  // namespace texstream::linalg
