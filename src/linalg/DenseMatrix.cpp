// Krüger & Westermann 2005, §44.2.2 and §44.3.3: a dense matrix as a stack of column
// vectors; the product is a sum of vector-scaled columns, a batch of columns per pass.
#include <texstream/linalg/DenseMatrix.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/Csr.h>
#include <texstream/linalg/DoubleFloatVector.h>
#include <texstream/linalg/OperatorShapes.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Runtime.h>
#include <texstream/stream/TexturePool.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace texstream::linalg {

DenseMatrix::DenseMatrix(std::size_t rows, std::size_t cols, const std::vector<float>& rowMajor, std::string name)
    : StoredMatrix("DenseMatrix", std::move(name), rows, cols), m_columnSlots((cols + 3) / 4 * 4) {
  const std::string title = this->title();
  if (rows == 0 || cols == 0) {
    throw std::invalid_argument(title + ": empty shape " + std::to_string(rows) + "x" + std::to_string(cols));
  }
  const std::size_t entries = stream::checkedProduct(title, rows, cols);
  if (rowMajor.size() != entries) {
    throw std::invalid_argument(title + ": got " + std::to_string(rowMajor.size()) + " values for a " +
                                std::to_string(rows) + "x" + std::to_string(cols) + " matrix (expected " +
                                std::to_string(entries) + ")");
  }
  gl::StateGuard guard;
  initRowLayout();
  const long long tileW = rowLayout().width(), tileH = rowLayout().height();
  const long long slots = (long long)m_columnSlots;
  const long long maxSize = stream::Runtime::current().caps().maxTextureSize;
  // Tiles arranged near-square in texels, within the texture size limit.
  long long tilesX = (long long)std::ceil(std::sqrt(double(slots) * double(tileH) / double(tileW)));
  tilesX = std::clamp(tilesX, 1LL, std::min(slots, std::max(1LL, maxSize / tileW)));
  const long long tilesY = (slots + tilesX - 1) / tilesX;
  if (tilesX * tileW > maxSize || tilesY * tileH > maxSize) {
    throw gl::Error(title + ": " + std::to_string(rows) + "x" + std::to_string(cols) + " needs " +
                    std::to_string(slots) + " column tiles of " + std::to_string(tileW) + "x" +
                    std::to_string(tileH) + " texels, more than a " + std::to_string(maxSize) + "^2 texture holds");
  }
  m_tilesX = int(tilesX);
  const int texW = int(tilesX * tileW), texH = int(tilesY * tileH);
  std::vector<float> texels(std::size_t(texW) * std::size_t(texH) * 4, 0.0f);
  for (std::size_t j = 0; j < cols; ++j) {
    const long long ox = (long long)(j % std::size_t(tilesX)) * tileW, oy = (long long)(j / std::size_t(tilesX)) * tileH;
    for (std::size_t i = 0; i < rows; ++i) {
      const long long t = (long long)(i / 4);
      const long long px = ox + t % tileW, py = oy + t / tileW;
      texels[std::size_t((py * texW + px) * 4) + i % 4] = rowMajor[i * cols + j];
    }
  }
  m_columns = gl::Texture(texW, texH, gl::TextureFormat::RGBA32F, this->name() + ".columns");
  m_columns.upload(texels.data());
  if (rows == cols) {
    std::vector<float> d(rows);
    for (std::size_t i = 0; i < rows; ++i) d[i] = rowMajor[i * cols + i];
    setDiagonal(d);
  }
}

DenseMatrix DenseMatrix::fromCsr(const Csr& csr, std::string name) {
  csr.validate("DenseMatrix::fromCsr(\"" + name + "\")");
  std::vector<float> dense(csr.rows * csr.cols, 0.0f);
  for (std::size_t r = 0; r < csr.rows; ++r) {
    for (std::int64_t k = csr.rowPtr[r]; k < csr.rowPtr[r + 1]; ++k) {
      dense[r * csr.cols + std::size_t(csr.colIdx[std::size_t(k)])] += float(csr.values[std::size_t(k)]);
    }
  }
  return DenseMatrix(csr.rows, csr.cols, dense, std::move(name));
}

int DenseMatrix::batches() const { return int((m_columnSlots + kColumnsPerBatch - 1) / kColumnsPerBatch); }

void DenseMatrix::bindPartialPass(stream::Pass& pass, const stream::Vector& x, int batchesX) const {
  pass.define("COLUMNS_PER_BATCH", kColumnsPerBatch)
      .input("u_columns", m_columns)
      .input("u_x", x)
      .uniform("u_tileSize", rowLayout().width(), rowLayout().height())
      .uniform("u_tilesX", m_tilesX)
      .uniform("u_batchesX", batchesX)
      .uniform("u_batches", batches())
      .uniform("u_columnSlots", int(m_columnSlots));
}

void DenseMatrix::bindSumPass(stream::Pass& pass, int batchesX) const {
  pass.uniform("u_tileSize", rowLayout().width(), rowLayout().height())
      .uniform("u_batchesX", batchesX)
      .uniform("u_batches", batches());
}

int DenseMatrix::partialBatchesX() const {
  const int batchCount = batches();
  const int w = rowLayout().width(), h = rowLayout().height();
  const int maxSize = stream::Runtime::current().caps().maxTextureSize;
  const int batchesX = std::max(1, std::min(batchCount, maxSize / w));
  const int batchesY = (batchCount + batchesX - 1) / batchesX;
  if (batchesY * h > maxSize) {
    throw gl::Error(title() + ".apply: " + std::to_string(batchCount) +
                    " batches of partial sums do not fit the maximum texture size");
  }
  return batchesX;
}

gl::Texture DenseMatrix::acquirePartials(int batchesX, const std::string& label) const {
  const int batchesY = (batches() + batchesX - 1) / batchesX;
  return stream::Runtime::current().pool().acquire(rowLayout().width() * batchesX, rowLayout().height() * batchesY,
                                                   gl::TextureFormat::RGBA32F, name() + label);
}

void DenseMatrix::apply(const stream::Vector& x, stream::Vector& y) const {
  gl::StateGuard guard;
  requireApply(x, y);
  if (batches() == 1) {
    stream::Pass pass("linalg/dense_partial");
    pass.label("DenseMatrix::apply");
    bindPartialPass(pass, x, 1);
    pass.output(y).run();
    return;
  }
  // Split-K: the batches' partial sums tiled in one pooled texture, then added up.
  const int batchesX = partialBatchesX();
  gl::Texture partials = acquirePartials(batchesX, ".partials");
  {
    stream::Pass pass("linalg/dense_partial");
    pass.label("DenseMatrix::apply partials");
    bindPartialPass(pass, x, batchesX);
    pass.output(partials).run();
  }
  stream::Pass sum("linalg/dense_sum");
  sum.label("DenseMatrix::apply sum").input("u_partials", partials);
  bindSumPass(sum, batchesX);
  sum.output(y).run();
  stream::Runtime::current().pool().release(std::move(partials));
}

void DenseMatrix::residualInDoubleFloat(const DoubleFloatVector& b, const DoubleFloatVector& x,
                                        stream::Vector& r) const {
  gl::StateGuard guard;
  requireResidualShapes(title(), rowLayout(), cols(), b, x, r);
  if (batches() == 1) {
    stream::Pass pass("linalg/dense_partial");
    pass.label("DenseMatrix::residualInDoubleFloat").define("DOUBLE_FLOAT_RESIDUAL");
    bindPartialPass(pass, x.hi(), 1);
    pass.input("u_xLo", x.lo()).input("u_bHi", b.hi()).input("u_bLo", b.lo()).output(r).run();
    return;
  }
  const int batchesX = partialBatchesX();
  gl::Texture heads = acquirePartials(batchesX, ".partials"), tails = acquirePartials(batchesX, ".partialsLo");
  {
    stream::Pass pass("linalg/dense_partial");
    pass.label("DenseMatrix::residualInDoubleFloat partials").define("DOUBLE_FLOAT_PARTIALS");
    bindPartialPass(pass, x.hi(), batchesX);
    pass.input("u_xLo", x.lo()).output(heads).output(tails).run();
  }
  stream::Pass sum("linalg/dense_sum");
  sum.label("DenseMatrix::residualInDoubleFloat sum").define("DOUBLE_FLOAT_RESIDUAL");
  sum.input("u_partials", heads).input("u_partialsLo", tails).input("u_bHi", b.hi()).input("u_bLo", b.lo());
  bindSumPass(sum, batchesX);
  sum.output(r).run();
  stream::Runtime::current().pool().release(std::move(heads));
  stream::Runtime::current().pool().release(std::move(tails));
}

double DenseMatrix::bytesWrittenPerApply() const {
  const double tile = double(rowLayout().texels()) * 16.0;
  return batches() > 1 ? tile * (batches() + 1) : tile;
}

double DenseMatrix::bytesPerApply() const {
  const double tile = double(rowLayout().texels()) * 16.0;
  const double partialsRead = batches() > 1 ? tile * batches() : 0.0;
  return tile * double(m_columnSlots) + double(cols()) * 4.0 + partialsRead + bytesWrittenPerApply();
}

double DenseMatrix::flopsPerApply() const { return 2.0 * double(rows()) * double(cols()); }

}  // namespace texstream::linalg
