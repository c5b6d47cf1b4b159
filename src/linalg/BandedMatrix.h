#pragma once
// texstream::linalg::BandedMatrix: a square n x n matrix stored as its diagonals, each a
// vector in y's layout (Krüger & Westermann §44.2.2, fig. 44-3), at arbitrary offsets:
//   A(i, i + offsets[k]) = diagonals[k][i]   (entries whose column falls outside [0, n)
//                                              are dropped when building)
// The diagonals are the layers of one GL_TEXTURE_2D_ARRAY; apply() is one pass whose
// kernel (spmv_banded.glsl, the number of diagonals a #define) multiplies each layer
// with x shifted by the offset: x read with fetchElements(u_x, 4 t + offset) (K&W
// §44.3.3: "we perform the shift with a texture coordinate transformation").
#include <texstream/gl/Texture.h>
#include <texstream/linalg/LinearOperator.h>
#include <texstream/stream/Layout.h>
#include <texstream/stream/Vector.h>

#include <string>
#include <vector>

namespace texstream::linalg {

struct Csr;

class BandedMatrix : public LinearOperator {
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

  BandedMatrix(BandedMatrix&&) noexcept = default;
  BandedMatrix& operator=(BandedMatrix&&) noexcept = default;
  BandedMatrix(const BandedMatrix&) = delete;
  BandedMatrix& operator=(const BandedMatrix&) = delete;

  /// y = A x: x has n elements (any layout), y n elements in Layout::forSize(n).
  void apply(const stream::Vector& x, stream::Vector& y) const override;
  /// d = diag(A) (the offset-0 diagonal, zeros if there is none).
  void diagonal(stream::Vector& d) const override;
  std::size_t rows() const override { return m_n; }
  std::size_t cols() const override { return m_n; }
  const std::string& name() const override { return m_name; }
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
  void diagonalAs(const std::string& title, stream::Vector& d) const;

  std::size_t m_n = 0;
  std::string m_name;
  std::vector<int> m_offsets;
  stream::Layout m_layout;
  gl::Texture m_diagonals;
  stream::Vector m_diagonal;
};

}  // namespace texstream::linalg
