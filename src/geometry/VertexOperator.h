#pragma once
// texstream::geometry::VertexOperator: a SegmentMatrix A applied to the x, y and z of every
// vertex at once, i.e. A (x) I4 on "vertex vectors" (Bolz et al. 2003, §3.1.1 with x_j a
// 4-vector): one texel per row of A in A's internal order, holding (x, y, z, 0).
//
// Why one operator for the three coordinates: the curvature-flow system has one matrix
// and three right-hand sides. Reading each a_ij and its column pointer once for all three
// coordinates (x_j is one texel) moves about 30% fewer bytes per product than three scalar
// products at valence 6, and one CG on the joint system runs a third of the passes and
// reductions of three CGs (which is what dominates on small meshes). CG on A (x) I converges at
// A's own rate (same spectrum); it stops on the joint residual ||r_xyz|| / ||b_xyz||.
//
// Vertex layout: 4 x A.internalLayout().size() scalars, 4 x the internal layout's width
// (a power of two): internal row p is vertex texel p, and internal texel (x, y) covers
// vertex texels (4x .. 4x+3, y), so A's row-group rectangles scale by 4 in x.
#include <texstream/gl/Texture.h>
#include <texstream/linalg/LinearOperator.h>
#include <texstream/linalg/SegmentMatrix.h>
#include <texstream/solvers/Preconditioner.h>
#include <texstream/stream/Layout.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Vector.h>

#include <string>
#include <vector>

namespace texstream::geometry {

class VertexOperator : public linalg::LinearOperator {
 public:
  /// Keeps a pointer to A: keep A alive and unmoved while this operator is used.
  VertexOperator(const linalg::SegmentMatrix& A, std::string name);

  /// The layout of A's vertex vectors (see the file comment). Throws gl::Error when 4x the
  /// internal width exceeds the GPU's maximum texture size.
  static stream::Layout vertexLayout(const linalg::SegmentMatrix& A);
  const stream::Layout& layout() const { return m_layout; }
  /// log2 of the vertex layout's width.
  int vertexShift() const { return m_vertexShift; }
  /// A group's rectangles in vertex texels.
  static std::vector<stream::Rect> vertexRects(const linalg::SegmentGroup& group);

  /// Y = A X (X, Y vertex vectors, Y not X). Throws gl::Error naming the vectors otherwise.
  void apply(const stream::Vector& x, stream::Vector& y) const override;
  /// Y = (D + O) X with A's pattern (R, C, row groups) but another diagonal D (a vector in
  /// A's internal layout) and other off-diagonal values O (a texture laid out like
  /// A.offDiagonalValues(), padding 0): e.g. curvature flow's b = m x + G x.
  void applyWith(const stream::Vector& diagonal, const gl::Texture& offDiagonal, const stream::Vector& x,
                 stream::Vector& y) const;
  /// R = B - A X with B and X vertex vectors of double-float pairs (spmv_vertices.glsl,
  /// DOUBLE_FLOAT_RESIDUAL): curvature flow's mixed-precision refinement.
  void residualInDoubleFloat(const linalg::DoubleFloatVector& b, const linalg::DoubleFloatVector& x,
                             stream::Vector& r) const override;
  bool hasResidualInDoubleFloat() const override { return true; }
  /// Y = A X with X, Y vertex vectors of double-float pairs (spmv_vertices.glsl,
  /// DOUBLE_FLOAT_PRODUCT), the entries' tails included where A keeps them
  /// (SegmentMatrix::hasEntryTails): the product of double-float CG. Y is not X.
  void applyInDoubleFloat(const linalg::DoubleFloatVector& x, linalg::DoubleFloatVector& y) const override;
  /// d = (a_vv, a_vv, a_vv, 1) per vertex texel (1 where a_vv = 0: layout padding).
  void diagonal(stream::Vector& d) const override;
  /// d = 1 / diagonal(), the Jacobi preconditioner's vector, computed on the GPU.
  void inverseDiagonal(stream::Vector& d) const;
  std::size_t rows() const override { return m_layout.size(); }
  std::size_t cols() const override { return m_layout.size(); }
  const std::string& name() const override { return m_name; }
  /// Per vertex texel: its diagonal float, x and y texels, a quarter of R; per stored
  /// entry: value, column and the 16-byte texel x_j.
  double bytesPerApply() const override;
  /// 2 flops per coordinate per stored non-zero (diagonal included).
  double flopsPerApply() const override;

  const linalg::SegmentMatrix& matrix() const { return *m_matrix; }

 private:
  void requireVertexVector(const char* what, const stream::Vector& v) const;
  /// d = diag (or 1 / diag) of A (x) I4 per vertex texel (geometry/vertex_diagonal.glsl).
  void diagonalPass(const char* what, bool inverse, stream::Vector& d) const;
  /// The double-float passes: R = B - A X (b, r given) or Y = A X (y given).
  void doubleFloatPasses(const linalg::DoubleFloatVector* b, const linalg::DoubleFloatVector& x, stream::Vector* r,
                         linalg::DoubleFloatVector* y) const;
  const linalg::SegmentMatrix* m_matrix;
  std::string m_name;
  stream::Layout m_layout;
  int m_vertexShift = 0;
};

/// z = r / diag(A (x) I): Jacobi preconditioning with the inverse diagonal computed on the
/// GPU by update() (no read-back: JacobiPreconditioner checks its diagonal on the CPU,
/// which would cost a round trip per step when A changes every step).
class VertexJacobi : public solvers::Preconditioner {
 public:
  explicit VertexJacobi(const stream::Layout& layout, const std::string& name);
  /// Recomputes 1 / diag from the operator's current matrix.
  void update(const VertexOperator& A);
  void apply(const stream::Vector& r, stream::Vector& z) const override;
  std::string name() const override { return "jacobi (vertex)"; }
  /// 1 / diag, which cg fuses into its update pass (Preconditioner::inverseDiagonal).
  const stream::Vector* inverseDiagonal() const override { return &m_inverse; }

 private:
  stream::Vector m_inverse;
};

}  // namespace texstream::geometry
