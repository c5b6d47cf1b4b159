// Krüger & Westermann 2005, §44.2.2 (fig. 44-3) and §44.3.3: banded matrices as diagonal
// vectors; the product multiplies each diagonal with a shifted x, here all diagonals in
// one pass over a texture array instead of one pass each.
#include <texstream/linalg/BandedMatrix.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/linalg/Csr.h>
#include <texstream/linalg/DoubleFloatVector.h>
#include <texstream/linalg/FusedProductDot.h>
#include <texstream/linalg/OperatorShapes.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Reduction.h>
#include <texstream/stream/Runtime.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>

namespace texstream::linalg {

BandedMatrix::BandedMatrix(std::size_t n, std::vector<int> offsets, const std::vector<std::vector<float>>& diagonals,
                           std::string name)
    : StoredMatrix("BandedMatrix", std::move(name), n), m_offsets(std::move(offsets)) {
  const std::string title = this->title();
  if (n == 0) throw std::invalid_argument(title + ": n must be at least 1");
  if (n > std::size_t(INT32_MAX) / 2) throw std::invalid_argument(title + ": n = " + std::to_string(n) + " is too large");
  if (m_offsets.empty()) throw std::invalid_argument(title + ": needs at least one diagonal");
  if (m_offsets.size() != diagonals.size()) {
    throw std::invalid_argument(title + ": " + std::to_string(m_offsets.size()) + " offsets but " +
                                std::to_string(diagonals.size()) + " diagonals");
  }
  if (m_offsets.size() > std::size_t(kMaxDiagonals)) {
    throw std::invalid_argument(title + ": " + std::to_string(m_offsets.size()) + " diagonals, at most " +
                                std::to_string(kMaxDiagonals) + " are supported");
  }
  std::set<int> seen;
  for (std::size_t k = 0; k < m_offsets.size(); ++k) {
    const long long off = m_offsets[k];
    if (off <= -(long long)n || off >= (long long)n) {
      throw std::invalid_argument(title + ": offset " + std::to_string(off) + " outside (-n, n) for n = " +
                                  std::to_string(n));
    }
    if (!seen.insert(int(off)).second) {
      throw std::invalid_argument(title + ": offset " + std::to_string(off) + " given twice");
    }
    if (diagonals[k].size() != n) {
      throw std::invalid_argument(title + ": diagonal " + std::to_string(k) + " (offset " + std::to_string(off) +
                                  ") has " + std::to_string(diagonals[k].size()) + " values, expected n = " +
                                  std::to_string(n));
    }
  }

  gl::StateGuard guard;
  const int layers = int(m_offsets.size());
  const stream::Runtime& rt = stream::Runtime::current();
  if (layers > rt.caps().maxArrayLayers) {
    throw gl::Error(title + ": " + std::to_string(layers) + " diagonals, but this GPU's array textures hold at most " +
                    std::to_string(rt.caps().maxArrayLayers) + " layers");
  }
  initRowLayout();
  const stream::Layout& layout = rowLayout();
  m_diagonals = gl::Texture(layout.width(), layout.height(), gl::TextureFormat::RGBA32F, this->name() + ".diagonals", layers);
  std::vector<float> main(n, 0.0f);
  for (int k = 0; k < layers; ++k) {
    const long long off = m_offsets[std::size_t(k)];
    std::vector<float> layer = paddedTexels(layout, diagonals[std::size_t(k)]);
    // Entries whose column i + off leaves [0, n) are not part of A: zero them, so that a
    // stencil's coefficient across the boundary cannot reach a neighbouring row.
    for (long long i = 0; i < (long long)n; ++i) {
      if (i + off < 0 || i + off >= (long long)n) layer[std::size_t(i)] = 0.0f;
    }
    if (off == 0) std::copy_n(layer.begin(), n, main.begin());
    m_diagonals.upload(layer.data(), k);
  }
  setDiagonal(main);
}

BandedMatrix BandedMatrix::fromCsr(const Csr& csr, std::string name, int maxDiagonals) {
  const std::string title = "BandedMatrix::fromCsr(\"" + name + "\")";
  csr.validate(title);
  if (csr.rows != csr.cols) {
    throw std::invalid_argument(title + ": the matrix is " + std::to_string(csr.rows) + "x" +
                                std::to_string(csr.cols) + ", a banded matrix must be square");
  }
  const std::size_t n = csr.rows;
  std::map<int, std::vector<float>> byOffset;
  for (std::size_t r = 0; r < n; ++r) {
    for (std::int64_t k = csr.rowPtr[r]; k < csr.rowPtr[r + 1]; ++k) {
      const int off = int(csr.colIdx[std::size_t(k)] - std::int64_t(r));
      auto it = byOffset.find(off);
      if (it == byOffset.end()) {
        if (int(byOffset.size()) >= maxDiagonals) {
          std::set<int> all;
          for (std::size_t rr = 0; rr < n; ++rr) {
            for (std::int64_t kk = csr.rowPtr[rr]; kk < csr.rowPtr[rr + 1]; ++kk) {
              all.insert(int(csr.colIdx[std::size_t(kk)] - std::int64_t(rr)));
            }
          }
          throw std::invalid_argument(title + ": the matrix has " + std::to_string(all.size()) +
                                      " distinct diagonals, more than maxDiagonals = " + std::to_string(maxDiagonals) +
                                      " (use a PointMatrix for scattered non-zeros)");
        }
        it = byOffset.emplace(off, std::vector<float>(n, 0.0f)).first;
      }
      it->second[r] += float(csr.values[std::size_t(k)]);
    }
  }
  if (byOffset.empty()) byOffset.emplace(0, std::vector<float>(n, 0.0f));  // the zero matrix
  std::vector<int> offsets;
  std::vector<std::vector<float>> diagonals;
  for (auto& [off, values] : byOffset) {
    offsets.push_back(off);
    diagonals.push_back(std::move(values));
  }
  return BandedMatrix(n, std::move(offsets), diagonals, std::move(name));
}

void BandedMatrix::apply(const stream::Vector& x, stream::Vector& y) const { applyAs(title(), x, y); }

void BandedMatrix::applyAs(const std::string& title, const stream::Vector& x, stream::Vector& y) const {
  gl::StateGuard guard;
  requireApplyShapes(title, rowLayout(), cols(), x, y);
  stream::Pass pass("linalg/spmv_banded");
  pass.label(title + ".apply").input("u_diagonals", m_diagonals).input("u_x", x);
  setShifts(title, pass, x.layout());
  pass.output(y).run();
}

void BandedMatrix::applyAndDot(const stream::Vector& x, stream::Vector& y, const stream::Epilogue& epilogue) const {
  applyAndDotAs(title(), x, y, epilogue);
}

void BandedMatrix::applyAndDotAs(const std::string& title, const stream::Vector& x, stream::Vector& y,
                                 const stream::Epilogue& epilogue) const {
  requireApplyShapes(title, rowLayout(), cols(), x, y);
  if (x.layout() != rowLayout()) {
    throw gl::Error(title + ".applyAndDot: x (vector \"" + x.name() + "\") has " + x.layout().describe() +
                    "; y . x needs x in y's layout " + rowLayout().describe() + " (Layout::forSize)");
  }
  if (stream::Runtime::current().backend() != stream::Backend::Compute) {
    LinearOperator::applyAndDot(x, y, epilogue);  // its reduction throws: epilogues are compute-only
    return;
  }
  gl::StateGuard guard;
  // One dispatch over y's whole texture (x shares its layout, so texel t of y meets texel
  // t of x).
  stream::Pass pass(stream::composeReductionKernel("linalg/spmv_banded_dot", epilogue.include, 1));
  pass.label(title + ".apply + dot").input("u_diagonals", m_diagonals).input("u_x", x).output(y);
  setShifts(title, pass, x.layout());
  runProductWithDot(pass, rowLayout(), epilogue, m_dotScratch, name() + ".dot_scratch");
}

void BandedMatrix::residualInDoubleFloat(const DoubleFloatVector& b, const DoubleFloatVector& x,
                                         stream::Vector& r) const {
  residualAs(title(), b, x, r);
}

void BandedMatrix::residualAs(const std::string& title, const DoubleFloatVector& b, const DoubleFloatVector& x,
                              stream::Vector& r) const {
  gl::StateGuard guard;
  requireResidualShapes(title, rowLayout(), cols(), b, x, r);
  stream::Pass pass("linalg/spmv_banded");
  pass.label(title + ".residualInDoubleFloat")
      .define("DOUBLE_FLOAT_RESIDUAL")
      .input("u_diagonals", m_diagonals)
      .input("u_x", x.hi())
      .input("u_xLo", x.lo())
      .input("u_bHi", b.hi())
      .input("u_bLo", b.lo());
  setShifts(title, pass, x.hi().layout());
  pass.output(r).run();
}

void BandedMatrix::setShifts(const std::string& title, stream::Pass& pass, const stream::Layout& xLayout) const {
  const long long width = xLayout.width();
  std::vector<int> shifts;
  std::string remainders;
  for (int off : m_offsets) {
    // Texel shift floor(off / 4) and element remainder off - 4 floor(off / 4) in [0, 4).
    const long long texels = off >= 0 ? off / 4 : -((3 - (long long)off) / 4);
    const long long remainder = off - 4 * texels;
    // Row and column shift, the column in [0, width): floor division again.
    const long long rows = texels >= 0 ? texels / width : -((width - 1 - texels) / width);
    const long long columns = texels - rows * width;
    if (width > 65535 || rows < -32768 || rows > 32767) {
      throw gl::Error(title + ": x's layout " + xLayout.describe() + " is too large to pack offset " +
                      std::to_string(off) + "'s texel shift (width at most 65535, at most 32767 rows)");
    }
    shifts.push_back(int(rows * 65536 + columns));
    if (!remainders.empty()) remainders += ',';
    remainders += std::to_string(remainder);
  }
  pass.define("DIAGONALS", (long long)m_offsets.size())
      .define("BANDED_REMAINDERS", remainders)
      .uniformArray("u_shift", shifts)
      .uniform("u_xSize", xLayout.width(), xLayout.height());
  if (xLayout.width() != rowLayout().width()) {
    pass.define("X_WIDTH_DIFFERS").uniform("u_width", rowLayout().width());
  }
}

double BandedMatrix::bytesPerApply() const {
  return double(rowLayout().texels()) * 16.0 * double(m_offsets.size() + 2);
}

double BandedMatrix::flopsPerApply() const { return 2.0 * double(rows()) * double(m_offsets.size()); }

}  // namespace texstream::linalg
