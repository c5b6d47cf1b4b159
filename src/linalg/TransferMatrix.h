#pragma once
// texstream::linalg::TransferMatrix: a rectangular sparse matrix between two vectors of
// different sizes and layouts, one CSR row per element of the output: the restriction
// R = P^T and the prolongation P of aggregation multigrid (solvers/multigrid/AggregationMultigrid.h),
// whose rows and columns are element positions in the internal orders of two levels' matrices.
//
// Row i writes element i of y (a vector in outputLayout(), i < rows() <= its size; the
// elements past rows() are written 0); a column index is an element index of x, read from
// x's texture whatever its layout (shaders/sparse/element.glsl), so x needs at least cols()
// elements. One pass on either backend; entries are (column, value) pairs, two per RGBA32F
// texel. The fragment backend sums the four rows of an output texel in one invocation
// (shaders/sparse/spmv_transfer.glsl); the compute backend gives each row an invocation of
// its own (shaders/sparse/spmv_transfer_rows.glsl): the transfers of a multigrid cycle have
// few texels and rows of tens of entries, so chains a quarter as long over four times the
// invocations.
#include <texstream/gl/Texture.h>
#include <texstream/linalg/Csr.h>
#include <texstream/stream/Layout.h>

#include <string>

namespace texstream::stream {
class Vector;
}

namespace texstream::linalg {

class TransferMatrix {
 public:
  TransferMatrix() = default;
  /// M's rows become the first M.rows elements of `outputLayout`. std::invalid_argument
  /// when M is invalid or has more rows than the layout holds; gl::Error when an index or
  /// the entry count does not fit an exact float (2^24) or the textures exceed the GPU's.
  TransferMatrix(const Csr& M, const stream::Layout& outputLayout, std::string name);

  /// y = M x. gl::Error naming the matrix when x has fewer than cols() elements, y is not
  /// in outputLayout() or y is x.
  void apply(const stream::Vector& x, stream::Vector& y) const;
  /// y = add + M x (add in outputLayout(); y may be add).
  void applyAdd(const stream::Vector& x, const stream::Vector& add, stream::Vector& y) const;
  /// y = M (x - subtract) (x and subtract in one layout).
  void applyToDifference(const stream::Vector& x, const stream::Vector& subtract, stream::Vector& y) const;
  /// y = M (x - subtract - subtract2) (all three in one layout).
  void applyToDifference(const stream::Vector& x, const stream::Vector& subtract, const stream::Vector& subtract2,
                         stream::Vector& y) const;

  std::size_t rows() const { return m_rows; }
  std::size_t cols() const { return m_cols; }
  std::size_t nonZeros() const { return m_nonZeros; }
  const stream::Layout& outputLayout() const { return m_outputLayout; }
  const std::string& name() const { return m_name; }
  /// Bytes of one apply(): row offsets, entries, x once (cols elements), y written.
  double bytesPerApply() const;

 private:
  void run(const char* label, const char* define, const stream::Vector& x, const stream::Vector* extra,
           const stream::Vector* extra2, stream::Vector& y) const;

  std::string m_name;
  std::size_t m_rows = 0, m_cols = 0, m_nonZeros = 0;
  stream::Layout m_outputLayout;
  gl::Texture m_rowStarts, m_entries;
  int m_entriesShift = 0;
};

}  // namespace texstream::linalg
