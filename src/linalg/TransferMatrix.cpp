// A rectangular CSR product, one output element per row (see TransferMatrix.h).
#include <texstream/linalg/TransferMatrix.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/IndexTextures.h>
#include <texstream/linalg/LargeArrays.h>
#include <texstream/linalg/OperatorShapes.h>
#include <texstream/linalg/RowBlocks.h>
#include <texstream/stream/Aliasing.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Runtime.h>
#include <texstream/stream/Vector.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace texstream::linalg {

TransferMatrix::TransferMatrix(const Csr& M, const stream::Layout& outputLayout, std::string name)
    : m_name(std::move(name)), m_rows(M.rows), m_cols(M.cols), m_nonZeros(M.nonZeros()), m_outputLayout(outputLayout) {
  const std::string title = operatorTitle("TransferMatrix", m_name);
  M.validate(title);
  if (M.rows > outputLayout.size())
    throw std::invalid_argument(title + ": " + std::to_string(M.rows) + " rows do not fit an output layout of " +
                                std::to_string(outputLayout.size()) + " elements");
  if (m_nonZeros >= kExactFloatLimit || M.cols >= kExactFloatLimit)
    throw gl::Error(title + ": " + std::to_string(m_nonZeros) + " entries and " + std::to_string(M.cols) +
                    " columns must stay below 2^24 (indices are exact floats)");
  gl::StateGuard guard;
  const stream::Layout startsLayout = stream::Layout::forSize(M.rows + 1);
  std::vector<float> starts(M.rows + 1);
  for (std::size_t i = 0; i <= M.rows; ++i) starts[i] = float(M.rowPtr[i]);
  m_rowStarts = gl::Texture(startsLayout.width(), startsLayout.height(), gl::TextureFormat::RGBA32F, m_name + ".rowStarts");
  m_rowStarts.upload(paddedTexels(startsLayout, starts).data());

  // Entries: two per texel, in a texture 2^shift texels wide, near square.
  const std::size_t texels = std::max<std::size_t>(1, (m_nonZeros + 1) / 2);
  const int maxSize = stream::Runtime::current().caps().maxTextureSize;
  m_entriesShift = 0;
  while ((std::size_t(1) << (2 * m_entriesShift)) < texels && (2 << m_entriesShift) <= maxSize) ++m_entriesShift;
  const std::size_t width = std::size_t(1) << m_entriesShift, height = (texels + width - 1) / width;
  if (height > std::size_t(maxSize))
    throw gl::Error(title + ": " + std::to_string(m_nonZeros) + " entries need a " + std::to_string(width) + "x" +
                    std::to_string(height) + " texture, more than the GPU's maximum of " + std::to_string(maxSize));
  std::vector<float> entries = largeArray(width * height * 4, 0.0f);
  forRowBlocks(m_nonZeros, workThreads(double(m_nonZeros)), [&](unsigned, std::size_t first, std::size_t last) {
    for (std::size_t k = first; k < last; ++k) {
      entries[2 * k] = float(M.colIdx[k]);
      entries[2 * k + 1] = float(M.values[k]);
    }
  });
  m_entries = gl::Texture(int(width), int(height), gl::TextureFormat::RGBA32F, m_name + ".entries");
  m_entries.upload(entries.data());
}

void TransferMatrix::run(const char* label, const char* define, const stream::Vector& x, const stream::Vector* extra,
                         const stream::Vector* extra2, stream::Vector& y) const {
  const std::string title = operatorTitle("TransferMatrix", m_name);
  if (x.size() < m_cols)
    throw gl::Error(title + "." + label + ": x has n=" + std::to_string(x.size()) + ", expected at least " +
                    std::to_string(m_cols));
  if (!(y.layout() == m_outputLayout))
    throw gl::Error(title + "." + label + ": y (\"" + y.name() + "\") is not in the matrix's output layout of " +
                    std::to_string(m_outputLayout.size()) + " elements");
  stream::requireDistinct(title + "." + label, {"y", y}, {"x", x}, "the product reads x while it writes y");
  gl::StateGuard guard;
  // Compute: one invocation per row (sparse/spmv_transfer_rows.glsl); fragment: per texel.
  const bool rows = stream::Runtime::current().backend() == stream::Backend::Compute;
  stream::Pass pass(rows ? "sparse/spmv_transfer_rows" : "sparse/spmv_transfer");
  pass.label("TransferMatrix::" + std::string(label))
      .input("u_rowStarts", m_rowStarts)
      .input("u_entries", m_entries)
      .input("u_x", x)
      .uniform("u_entriesShift", m_entriesShift)
      .uniform("u_width", m_outputLayout.width())
      .uniform("u_rows", int(m_rows));
  if (define) {
    pass.define(define);
    pass.input(std::string(define) == "ACCUMULATE" ? "u_add" : "u_subtract", *extra);
  }
  if (extra2) pass.define("SECOND_SUBTRACT").input("u_subtract2", *extra2);
  pass.output(y);
  if (rows) {
    const std::size_t texels = m_outputLayout.texels();
    pass.uniform("u_texels", int(texels)).workgroups(int((texels + 63) / 64)).run();
  } else {
    pass.run();
  }
}

void TransferMatrix::apply(const stream::Vector& x, stream::Vector& y) const { run("apply", nullptr, x, nullptr, nullptr, y); }

void TransferMatrix::applyAdd(const stream::Vector& x, const stream::Vector& add, stream::Vector& y) const {
  stream::requireSameLayout("TransferMatrix::applyAdd: add and y", add, y);
  run("applyAdd", "ACCUMULATE", x, &add, nullptr, y);
}

void TransferMatrix::applyToDifference(const stream::Vector& x, const stream::Vector& subtract, stream::Vector& y) const {
  stream::requireSameLayout("TransferMatrix::applyToDifference: x and subtract", x, subtract);
  stream::requireDistinct(operatorTitle("TransferMatrix", m_name) + ".applyToDifference", {"y", y}, {"subtract", subtract},
                          "the product reads subtract while it writes y");
  run("applyToDifference", "DIFFERENCE", x, &subtract, nullptr, y);
}

void TransferMatrix::applyToDifference(const stream::Vector& x, const stream::Vector& subtract,
                                       const stream::Vector& subtract2, stream::Vector& y) const {
  stream::requireSameLayout("TransferMatrix::applyToDifference: x and subtract", x, subtract);
  stream::requireSameLayout("TransferMatrix::applyToDifference: x and subtract2", x, subtract2);
  const std::string title = operatorTitle("TransferMatrix", m_name) + ".applyToDifference";
  stream::requireDistinct(title, {"y", y}, {"subtract", subtract}, "the product reads subtract while it writes y");
  stream::requireDistinct(title, {"y", y}, {"subtract2", subtract2}, "the product reads subtract2 while it writes y");
  run("applyToDifference", "DIFFERENCE", x, &subtract, &subtract2, y);
}

double TransferMatrix::bytesPerApply() const {
  // Row offsets, (column, value) pairs, x once (cols elements, whole texels; its repeated
  // gathers come from caches, as a CSR product is counted) and y written.
  const double xTexels = double((m_cols + 3) / 4);
  return double(m_rows + 1) * 4.0 + double(m_nonZeros) * 8.0 + xTexels * 16.0 + double(m_outputLayout.texels()) * 16.0;
}

}  // namespace texstream::linalg
