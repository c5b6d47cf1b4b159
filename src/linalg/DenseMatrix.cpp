// Krüger & Westermann 2005, §44.2.2 and §44.3.3: a dense matrix as a stack of column
// vectors; the product is a sum of vector-scaled columns, a batch of columns per pass.
#include <texstream/linalg/DenseMatrix.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/Csr.h>
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

void DenseMatrix::apply(const stream::Vector& x, stream::Vector& y) const {
  gl::StateGuard guard;
  requireApply(x, y);
  const int batchCount = batches();
  const int w = rowLayout().width(), h = rowLayout().height();
  auto bindPartial = [&](stream::Pass& pass, int batchesX) {
    pass.define("COLUMNS_PER_BATCH", kColumnsPerBatch)
        .input("u_columns", m_columns)
        .input("u_x", x)
        .uniform("u_tileSize", w, h)
        .uniform("u_tilesX", m_tilesX)
        .uniform("u_batchesX", batchesX)
        .uniform("u_batches", batchCount)
        .uniform("u_columnSlots", int(m_columnSlots));
  };
  if (batchCount == 1) {
    stream::Pass pass("linalg/dense_partial");
    pass.label("DenseMatrix::apply");
    bindPartial(pass, 1);
    pass.output(y).run();
    return;
  }
  // Split-K: the batches' partial sums tiled in one pooled texture, then added up.
  stream::Runtime& rt = stream::Runtime::current();
  const int batchesX = std::max(1, std::min(batchCount, rt.caps().maxTextureSize / w));
  const int batchesY = (batchCount + batchesX - 1) / batchesX;
  if (batchesY * h > rt.caps().maxTextureSize) {
    throw gl::Error(title() + ".apply: " + std::to_string(batchCount) +
                    " batches of partial sums do not fit the maximum texture size");
  }
  gl::Texture partials =
      rt.pool().acquire(w * batchesX, h * batchesY, gl::TextureFormat::RGBA32F, name() + ".partials");
  {
    stream::Pass pass("linalg/dense_partial");
    pass.label("DenseMatrix::apply partials");
    bindPartial(pass, batchesX);
    pass.output(partials).run();
  }
  stream::Pass("linalg/dense_sum")
      .label("DenseMatrix::apply sum")
      .input("u_partials", partials)
      .uniform("u_tileSize", w, h)
      .uniform("u_batchesX", batchesX)
      .uniform("u_batches", batchCount)
      .output(y)
      .run();
  rt.pool().release(std::move(partials));
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
