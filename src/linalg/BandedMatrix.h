#pragma once
// texstream::linalg::BandedMatrix: a square n x n matrix stored as its diagonals, each a
// vector in y's layout (Krüger & Westermann §44.2.2, fig. 44-3), at arbitrary offsets:
//   A(i, i + offsets[k]) = diagonals[k][i]   (entries whose column falls outside [0, n)
//                                              are dropped when building)
// The diagonals are the layers of one GL_TEXTURE_2D_ARRAY; apply() is one pass whose
// kernel (spmv_banded.glsl, the number of diagonals a #define) multiplies each layer
// with x shifted by the offset: elements 4 t + offset .. + 3 of x for output texel t (K&W
// §44.3.3: "we perform the shift with a texture coordinate transformation"), the shift
// split into rows and columns of x's texture on the host. diagonal()
// gives the offset-0 diagonal (zeros if there is none).
#include <texstream/gl/Buffer.h>
#include <texstream/gl/Texture.h>
#include <texstream/linalg/StoredMatrix.h>
#include <texstream/stream/Layout.h>
#include <texstream/stream/Vector.h>

#include <string>
#include <vector>

namespace texstream::stream {
class Pass;
}

namespace texstream::linalg {

struct Csr;

class BandedMatrix : public StoredMatrix {
 public:
  /// The most diagonals one matrix may hold (uniform array and texture layers).
  static constexpr int kMaxDiagonals = 256;

  /// `offsets` distinct, each in (-n, n); `diagonals[k]` has n values. Throws
  /// std::invalid_argument naming the matrix and the first problem.
  BandedMatrix(std::size_t n, std::vector<int> offsets, const std::vector<std::vector<float>>& diagonals,
               std::string name);
  /// A square CSR matrix (validated) with at most maxDiagonals distinct column offsets
  /// j - i; throws std::invalid_argument saying how many it has otherwise.
  static BandedMatrix fromCsr(const Csr& csr, std::string name, int maxDiagonals = 64);

  /// y = A x: x has n elements (any layout), y n elements in Layout::forSize(n).
  void apply(const stream::Vector& x, stream::Vector& y) const override;
  /// y = A x and epilogue(y . x) in one dispatch (linalg/spmv_banded_dot.glsl), x in y's
  /// layout (gl::Error otherwise). Compute backend; elsewhere the base class's product and
  /// reduction, whose reduceInto throws (epilogues are compute-only).
  void applyAndDot(const stream::Vector& x, stream::Vector& y, const stream::Epilogue& epilogue) const override;
  /// r = b - A x in double-float arithmetic (the same pass, DOUBLE_FLOAT_RESIDUAL).
  void residualInDoubleFloat(const DoubleFloatVector& b, const DoubleFloatVector& x, stream::Vector& r) const override;
  bool hasResidualInDoubleFloat() const override { return true; }
  /// Bytes: every diagonal texel once, x and y once (padded texels).
  double bytesPerApply() const override;
  /// 2 n K for K stored diagonals (explicit zeros inside a diagonal included: the kernel
  /// does that work).
  double flopsPerApply() const override;

  const std::vector<int>& offsets() const { return m_offsets; }
  /// The diagonals, one layer each, in Layout::forSize(n).
  const gl::Texture& diagonals() const { return m_diagonals; }

 private:
  friend class StencilMatrix;
  /// The product under another object's title (StencilMatrix composes a BandedMatrix).
  void applyAs(const std::string& title, const stream::Vector& x, stream::Vector& y) const;
  void applyAndDotAs(const std::string& title, const stream::Vector& x, stream::Vector& y,
                     const stream::Epilogue& epilogue) const;
  void residualAs(const std::string& title, const DoubleFloatVector& b, const DoubleFloatVector& x,
                  stream::Vector& r) const;
  /// The kernel's diagonal shifts for an x in xLayout (linalg/spmv_banded_product.glsl):
  /// DIAGONALS, BANDED_REMAINDERS, u_shift, u_xSize and, where x's width is not y's,
  /// X_WIDTH_DIFFERS and u_width.
  void setShifts(const std::string& title, stream::Pass& pass, const stream::Layout& xLayout) const;

  std::vector<int> m_offsets;
  gl::Texture m_diagonals;
  /// The fused product's counter and per-workgroup partial sums, made on first use.
  mutable gl::Buffer m_dotScratch;
};

}  // namespace texstream::linalg
