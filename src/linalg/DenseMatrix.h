#pragma once
// texstream::linalg::DenseMatrix: a full rows x cols matrix stored as its column vectors
// (Krüger & Westermann §44.2.2, fig. 44-2). Column j is a vector of `rows` elements laid
// out exactly like y (Layout::forSize(rows)); the columns sit as tiles of one big 2D
// texture (column j in tile (j % tilesX, j / tilesX)), the column count rounded up to a
// multiple of 4 with zero tiles so that one texel of x serves four columns.
//
// apply() (K&W §44.3.3) runs ceil(cols / COLUMNS_PER_PASS) passes, each adding a batch of
// columns to y: y += sum_j A_j x_j, with x_j read from x's texture.
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

class DenseMatrix : public StoredMatrix {
 public:
  /// Columns one invocation of the first pass sums (COLUMNS_PER_BATCH, dense_partial.glsl).
  static constexpr int kColumnsPerBatch = 64;

  /// A from `rowMajor` (rows * cols floats, A(i, j) = rowMajor[i * cols + j]). Throws
  /// std::invalid_argument for a wrong element count or an empty shape, gl::Error when
  /// the tiles do not fit the GPU's maximum texture size.
  DenseMatrix(std::size_t rows, std::size_t cols, const std::vector<float>& rowMajor, std::string name);
  /// A from a CSR matrix (validated), zeros filled in.
  static DenseMatrix fromCsr(const Csr& csr, std::string name);

  /// y = A x: x has cols elements (any layout), y rows elements in Layout::forSize(rows).
  void apply(const stream::Vector& x, stream::Vector& y) const override;
  /// r = b - A x in double-float arithmetic (dense_partial / dense_sum, DOUBLE_FLOAT_*).
  void residualInDoubleFloat(const DoubleFloatVector& b, const DoubleFloatVector& x, stream::Vector& r) const override;
  bool hasResidualInDoubleFloat() const override { return true; }
  /// Bytes: the column tiles once, x once per batch, the partial sums written and read
  /// once, y written.
  double bytesPerApply() const override;
  /// 2 rows cols (padding excluded).
  double flopsPerApply() const override;

  /// apply() is two passes (Split-K): every (row texel, batch of kColumnsPerBatch columns)
  /// pair sums its columns into a partial texture, then the partials are added into y;
  /// one pass when a single batch covers all columns.
  int passesPerApply() const { return batches() > 1 ? 2 : 1; }
  int batches() const;
  /// Bytes apply() writes (partials and y): what bounds the fragment backend.
  double bytesWrittenPerApply() const;
  /// The texture holding the column tiles.
  const gl::Texture& columns() const { return m_columns; }

 private:
  void bindPartialPass(stream::Pass& pass, const stream::Vector& x, int batchesX) const;
  /// The split-K sum's uniforms (linalg/dense_sum.glsl): the tile size and the batches.
  void bindSumPass(stream::Pass& pass, int batchesX) const;
  /// Batch tiles per row of the partial sums' texture; throws when they do not fit.
  int partialBatchesX() const;
  gl::Texture acquirePartials(int batchesX, const std::string& label) const;

  std::size_t m_columnSlots = 0;  // cols rounded up to 4
  int m_tilesX = 1;
  gl::Texture m_columns;
};

}  // namespace texstream::linalg
