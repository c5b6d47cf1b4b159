// Bolz et al. 2003, §3.1.1: diagonal in x's layout, off-diagonals as one segment per row,
// R and C indirection textures, rows grouped by non-zero count into rectangles each bound
// to the program for its count (the plan: SegmentLayout.cpp).
#include <texstream/linalg/SegmentMatrix.h>

#include <texstream/linalg/DoubleFloatVector.h>
#include <texstream/linalg/FusedProductDot.h>
#include <texstream/linalg/LargeArrays.h>
#include <texstream/linalg/OperatorShapes.h>
#include <texstream/linalg/RowBlocks.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/stream/Aliasing.h>
#include <texstream/stream/Runtime.h>
#include <texstream/stream/TexturePool.h>

#include <glad/gl.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace texstream::linalg {

bool resolveInterleave(const SegmentOptions& options) {
  if (options.interleave) return *options.interleave;
  return stream::Runtime::current().backend() == stream::Backend::Compute;
}

namespace {

/// Workgroups in one row of the compute product's dispatch grid.
constexpr std::int64_t kSpanGroupsPerRow = 512;

/// Invocations per output texel of the compute product (sparse/spmv_segment_spans.glsl)
/// for segments of k entries: 1 for short ones.
int productLanes(int k) { return k >= 32 ? 8 : k >= 16 ? 4 : 1; }

/// Whether the compute product runs the per-group program (sparse/spmv_segment.glsl, K a
/// #define) rather than the span kernel: for a matrix of one group of short rows (a mesh's,
/// where merging leaves one K) it is one pass either way, and with K known the compiler
/// unrolls the segment; with two groups or more the span kernel's one dispatch beats a
/// pass per group (docs/performance.md, "Sparse matrices").
bool productPerGroup(const SegmentLayout& layout) {
  return layout.groups.size() == 1 && productLanes(layout.groups.front().k) == 1;
}

/// The user row of CSR entry e of `pattern`.
std::int32_t entryRow(const Csr& pattern, std::size_t e) {
  const auto it = std::upper_bound(pattern.rowPtr.begin(), pattern.rowPtr.end(), std::int64_t(e));
  return std::int32_t(it - pattern.rowPtr.begin() - 1);
}

}  // namespace

SegmentMatrix::SegmentMatrix(const Csr& A, std::string name, SegmentOptions options)
    : SegmentMatrix(A, std::move(name), options, nullptr) {}

SegmentMatrix SegmentMatrix::fromPattern(const Csr& pattern, std::string name, SegmentOptions options) {
  Csr zero = pattern;
  std::fill(zero.values.begin(), zero.values.end(), 0.0);
  return SegmentMatrix(zero, std::move(name), options);
}

SegmentMatrix::SegmentMatrix(const Csr& A, std::string name, SegmentOptions options, const RowPlacement* placed)
    : PermutedMatrix("SegmentMatrix", std::move(name), A.rows), m_options(options), m_pattern(A) {
  m_options.interleave = resolveInterleave(options);
  gl::StateGuard guard;
  SegmentPlan plan = planSegments(A, m_options, stream::Runtime::current().caps().maxTextureSize, title(), placed);
  m_layout = std::move(plan.layout);
  const stream::Layout layout = stream::Layout::withWidth(plan.rows.size, plan.rows.width);
  setPermutation(RowPermutation(std::move(plan.rows.userToInternal), layout, this->name()));
  setDiagonal(stream::Vector(layout, this->name() + ".diagonal"));
  const int Wv = m_layout.valuesWidth, Hv = m_layout.valuesHeight;
  m_values = gl::Texture(Wv, Hv, gl::TextureFormat::RGBA32F, this->name() + ".values");
  m_columns = gl::Texture(Wv, Hv, gl::TextureFormat::RGBA32F, this->name() + ".columns");
  m_columns.upload(plan.columns.data());
  m_starts = gl::Texture(layout.width(), layout.height(), gl::TextureFormat::R32F, this->name() + ".segmentStarts");
  m_starts.upload(plan.segmentStarts.data());
  plan = {};  // the index textures' staging data, before the values' own
  uploadValues(A.values, {});
}

void SegmentMatrix::uploadValues(const std::vector<double>& csrValues, std::span<const double> extraDiagonal) {
  const std::string title = this->title();
  if (csrValues.size() != m_pattern.nonZeros()) {
    throw std::invalid_argument(title + ".setValues: " + std::to_string(csrValues.size()) + " values for " +
                                std::to_string(m_pattern.nonZeros()) + " pattern entries");
  }
  const stream::Layout& layout = internalLayout();
  // Summed in double (duplicate diagonal entries, the extra diagonal), then split into the
  // float head and, with entryTails, the float tail.
  std::vector<double> diagonal(layout.paddedSize(), 0.0);
  const auto& internalToUser = this->internalToUser();
  for (std::size_t p = 0; p < layout.size(); ++p) {
    if (internalToUser[p] < 0) diagonal[p] = 1.0;  // dead slot: an identity row holding 0
  }
  const auto& userToInternal = this->userToInternal();
  for (std::size_t i = 0; i < extraDiagonal.size(); ++i) {
    if (!std::isfinite(extraDiagonal[i]))
      throw std::invalid_argument(title + ".setValues: diagonal value " + std::to_string(i) + " is not finite");
    diagonal[std::size_t(userToInternal[i])] += extraDiagonal[i];
  }
  std::vector<float> values = largeArray(4 * std::size_t(m_values.width()) * std::size_t(m_values.height()), 0.0f);
  std::vector<float> valueTails(m_options.entryTails ? values.size() : 0, 0.0f);
  // Rows on threads (RowBlocks.h): a row's entries reach only its own diagonal element and
  // value slots. Each block notes its first non-finite entry; the first of all is reported.
  const unsigned threads = workThreads(double(csrValues.size()));
  std::vector<std::size_t> firstBad(threads, csrValues.size());
  std::vector<char> blockHasTail(threads, 0);
  forWeightedRowBlocks(m_pattern.rowPtr, threads, [&](unsigned block, std::size_t first, std::size_t last) {
    for (std::size_t e = std::size_t(m_pattern.rowPtr[first]); e < std::size_t(m_pattern.rowPtr[last]); ++e) {
      const double v = csrValues[e];
      if (!std::isfinite(v)) {
        firstBad[block] = e;
        return;
      }
      const SegmentSlot& s = m_layout.entrySlots[e];
      if (s.diagonal) {
        diagonal[4 * (std::size_t(s.y) * std::size_t(layout.width()) + std::size_t(s.x)) + std::size_t(s.channel)] += v;
      } else {
        const std::size_t at = 4 * (std::size_t(s.y) * std::size_t(m_values.width()) + std::size_t(s.x)) + std::size_t(s.channel);
        values[at] = float(v);
        if (m_options.entryTails) {
          valueTails[at] = float(v - double(values[at]));
          if (valueTails[at] != 0.0f) blockHasTail[block] = 1;
        }
      }
    }
  });
  const std::size_t bad = *std::min_element(firstBad.begin(), firstBad.end());
  if (bad < csrValues.size()) {
    throw std::invalid_argument(title + ".setValues: entry " + std::to_string(bad) + " (row " +
                                std::to_string(entryRow(m_pattern, bad)) + ", column " +
                                std::to_string(m_pattern.colIdx[bad]) + ") is not finite");
  }
  bool anyTail = std::find(blockHasTail.begin(), blockHasTail.end(), 1) != blockHasTail.end();
  std::vector<float> diagonalHeads(diagonal.size()), diagonalTails(m_options.entryTails ? diagonal.size() : 0);
  for (std::size_t p = 0; p < diagonal.size(); ++p) {
    diagonalHeads[p] = float(diagonal[p]);
    if (m_options.entryTails) {
      diagonalTails[p] = float(diagonal[p] - double(diagonalHeads[p]));
      anyTail = anyTail || diagonalTails[p] != 0.0f;
    }
  }
  gl::StateGuard guard;
  mutableDiagonal().upload(diagonalHeads.data());
  m_values.upload(values.data());
  m_hasTails = anyTail;
  if (!anyTail) return;
  if (m_valueTails.id() == 0) {
    m_valueTails = gl::Texture(m_values.width(), m_values.height(), gl::TextureFormat::RGBA32F, name() + ".valueTails");
    m_diagonalTails = stream::Vector(layout, name() + ".diagonalTails");
  }
  m_valueTails.upload(valueTails.data());
  m_diagonalTails.mutableTexture().upload(diagonalTails.data());
}

void SegmentMatrix::setKeepEntryTails(bool keep) {
  m_options.entryTails = keep;
  if (!keep) {
    m_hasTails = false;
    m_valueTails = gl::Texture();
    m_diagonalTails = stream::Vector();
  }
}

const gl::Texture& SegmentMatrix::offDiagonalTails() const {
  if (!m_hasTails) throw gl::Error(title() + ".offDiagonalTails: the matrix holds no entry tails");
  return m_valueTails;
}

const stream::Vector& SegmentMatrix::diagonalTails() const {
  if (!m_hasTails) throw gl::Error(title() + ".diagonalTails: the matrix holds no entry tails");
  return m_diagonalTails;
}

void SegmentMatrix::setValues(const std::vector<double>& csrValues) { uploadValues(csrValues, {}); }

void SegmentMatrix::setValues(const std::vector<double>& csrValues, std::span<const double> diagonal) {
  if (diagonal.size() != rows()) {
    throw std::invalid_argument(title() + ".setValues: " + std::to_string(diagonal.size()) + " diagonal values for " +
                                std::to_string(rows()) + " rows");
  }
  uploadValues(csrValues, diagonal);
}

Csr SegmentMatrix::toCsr() const {
  gl::StateGuard guard;
  const stream::Layout& layout = internalLayout();
  std::vector<float> diagonal(layout.paddedSize()), values(4 * std::size_t(m_values.width()) * std::size_t(m_values.height()));
  internalDiagonal().texture().download(diagonal.data());
  m_values.download(values.data());
  std::vector<float> diagonalTails, valueTails;
  if (m_hasTails) {
    diagonalTails.resize(diagonal.size());
    valueTails.resize(values.size());
    m_diagonalTails.texture().download(diagonalTails.data());
    m_valueTails.download(valueTails.data());
  }
  auto entry = [](const std::vector<float>& heads, const std::vector<float>& tails, std::size_t at) {
    return double(heads[at]) + (tails.empty() ? 0.0 : double(tails[at]));
  };
  Csr out = m_pattern;
  std::vector<char> diagonalTaken(layout.paddedSize(), 0);
  for (std::size_t e = 0; e < out.values.size(); ++e) {
    const SegmentSlot& s = m_layout.entrySlots[e];
    if (s.diagonal) {
      const std::size_t p = 4 * (std::size_t(s.y) * std::size_t(layout.width()) + std::size_t(s.x)) + std::size_t(s.channel);
      out.values[e] = diagonalTaken[p] ? 0.0 : entry(diagonal, diagonalTails, p);  // duplicates: the sum in the first
      diagonalTaken[p] = 1;
    } else {
      out.values[e] = entry(values, valueTails, 4 * (std::size_t(s.y) * std::size_t(m_values.width()) + std::size_t(s.x)) + std::size_t(s.channel));
    }
  }
  return out;
}

SegmentMatrix SegmentMatrix::transposed(std::string name) const {
  const Csr A = toCsr();
  const std::size_t n = A.rows;
  // Transpose by counting sort.
  Csr T;
  T.rows = T.cols = n;
  T.rowPtr.assign(n + 1, 0);
  for (std::int32_t j : A.colIdx) ++T.rowPtr[std::size_t(j) + 1];
  for (std::size_t i = 0; i < n; ++i) T.rowPtr[i + 1] += T.rowPtr[i];
  T.colIdx.resize(A.nonZeros());
  T.values.resize(A.nonZeros());
  std::vector<std::int64_t> next(T.rowPtr.begin(), T.rowPtr.end() - 1);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::int64_t e = A.rowPtr[i]; e < A.rowPtr[i + 1]; ++e) {
      const std::size_t j = std::size_t(A.colIdx[std::size_t(e)]);
      const std::size_t at = std::size_t(next[j]++);
      T.colIdx[at] = std::int32_t(i);
      T.values[at] = A.values[std::size_t(e)];
    }
  }
  const RowPlacement placed{userToInternal(), internalLayout().size(), internalLayout().width()};
  return SegmentMatrix(T, std::move(name), m_options, &placed);
}

void SegmentMatrix::requireInternalProduct(const stream::Vector& x, const stream::Vector& y,
                                           const std::string& what) const {
  const std::string where = title() + "." + what;
  const stream::Layout& layout = internalLayout();
  for (const auto* v : {&x, &y}) {
    if (v->empty()) throw gl::Error(where + ": empty vector (default-constructed or moved from)");
    if (v->layout() != layout) {
      throw gl::Error(where + ": vector \"" + v->name() + "\" has " + v->layout().describe() +
                      ", expected the internal layout " + layout.describe() +
                      " (makeInternalVector; user-order vectors go through apply() or toInternal())");
    }
  }
  stream::requireDistinct(where, {"y", y}, {"x", x}, "a product cannot be formed in place");
}

const SegmentMatrix::SpanDispatch& SegmentMatrix::spanDispatch() const {
  if (m_spanTable) return m_spanDispatch;
  // firstGroup, k, lanes, stride, rect (x, y, w, h): std430 ints, 32 bytes an entry.
  std::vector<std::int32_t> table;
  std::int64_t first = 0;
  for (const SegmentGroup& g : m_layout.groups) {
    const int lanes = productLanes(g.k), texels = 256 / lanes;
    for (const stream::Rect& r : g.rects) {
      if (r.w <= 0 || r.h <= 0) continue;
      table.insert(table.end(), {std::int32_t(first), g.k, lanes, g.stride, r.x, r.y, r.w, r.h});
      first += (std::int64_t(r.w) * r.h + texels - 1) / texels;
    }
  }
  // Rows of at most kSpanGroupsPerRow workgroups (GL guarantees 65535 in each dimension),
  // as even as the count allows: the few past `first` find no texel and add 0 to the dot.
  const std::int64_t groupsY = (first + kSpanGroupsPerRow - 1) / kSpanGroupsPerRow;
  const std::int64_t groupsX = groupsY == 0 ? 0 : (first + groupsY - 1) / groupsY;
  if (groupsY > 65535) {
    throw gl::Error("SegmentMatrix(\"" + name() + "\"): " + std::to_string(first) +
                    " workgroups for one product, beyond what one dispatch can index");
  }
  m_spanDispatch = {int(table.size() / 8), int(groupsX), int(groupsY)};
  if (table.empty()) table.assign(8, 0);  // a buffer of zero bytes cannot be bound
  m_spanTable = std::make_unique<gl::Buffer>(name() + ".spans", table.size() * sizeof(std::int32_t), table.data(),
                                             GL_STATIC_DRAW);
  return m_spanDispatch;
}

void SegmentMatrix::bindSpanProduct(stream::Pass& p, const stream::Vector& x, bool withDiagonal) const {
  const SpanDispatch& d = spanDispatch();
  p.define("DIAGONAL", withDiagonal ? 1 : 0);
  p.input("u_x", x).input("u_diagonal", internalDiagonal()).input("u_starts", m_starts).input("u_values", m_values);
  p.input("u_columns", m_columns);
  p.uniform("u_xShift", m_layout.internalShift).uniform("u_valuesShift", m_layout.valuesShift).uniform("u_spans", d.spans);
  p.storage(1, m_spanTable->id());
}

bool SegmentMatrix::computeProductPerGroup() const { return productPerGroup(m_layout); }

void SegmentMatrix::applyGroups(const stream::Vector& x, stream::Vector& y, bool withDiagonal,
                                const std::string& what) const {
  requireInternalProduct(x, y, what);
  const stream::Layout& layout = internalLayout();
  gl::StateGuard guard;
  stream::Runtime& rt = stream::Runtime::current();
  if (rt.backend() == stream::Backend::Compute && !productPerGroup(m_layout)) {
    // Every group in one dispatch (sparse/spmv_segment_spans.glsl).
    const SpanDispatch& d = spanDispatch();
    if (d.spans == 0) return;
    stream::Pass p("sparse/spmv_segment_spans");
    bindSpanProduct(p, x, withDiagonal);
    p.label("spmv_segment").output(y).workgroups(d.groupsX, d.groupsY).run();
    return;
  }
  auto pass = [&](int k, int offset, bool diagonal, const gl::Texture* partial, int stride) {
    stream::Pass p("sparse/spmv_segment");
    p.define("K", k).define("DIAGONAL", diagonal ? 1 : 0).define("PARTIAL", partial ? 1 : 0);
    p.label("spmv_segment K=" + std::to_string(k));
    p.input("u_x", x).input("u_diagonal", internalDiagonal()).input("u_starts", m_starts).input("u_values", m_values);
    p.input("u_columns", m_columns);
    if (partial) p.input("u_partial", *partial);
    p.uniform("u_xShift", m_layout.internalShift).uniform("u_valuesShift", m_layout.valuesShift).uniform("u_offset", offset);
    p.uniform("u_stride", stride);
    return p;
  };
  gl::Texture partials[2];
  for (const SegmentGroup& g : m_layout.groups) {
    const int chunks = std::max(1, (g.k + kMaxSegmentPerPass - 1) / kMaxSegmentPerPass);
    if (chunks == 1) {
      pass(g.k, 0, withDiagonal, nullptr, g.stride).output(y).run(g.rects);
      continue;
    }
    // Long rows: partial sums ping-pong through two pooled textures (only this group's
    // rectangles are written and read), the last chunk lands in y.
    for (auto& t : partials) {
      if (t.id() == 0) t = rt.pool().acquire(layout.width(), layout.height(), gl::TextureFormat::RGBA32F, name() + ".partial");
    }
    for (int c = 0; c < chunks; ++c) {
      const int offset = c * kMaxSegmentPerPass, k = std::min(kMaxSegmentPerPass, g.k - offset);
      const gl::Texture* in = c == 0 ? nullptr : &partials[(c - 1) % 2];
      stream::Pass p = pass(k, offset, c == 0 && withDiagonal, in, g.stride);
      if (c + 1 == chunks) p.output(y);
      else p.output(partials[c % 2]);
      p.run(g.rects);
    }
  }
  for (auto& t : partials) {
    if (t.id() != 0) rt.pool().release(std::move(t));
  }
}

void SegmentMatrix::applyInternal(const stream::Vector& x, stream::Vector& y) const {
  applyGroups(x, y, true, "applyInternal");
}

void SegmentMatrix::residualInternalInDoubleFloat(const DoubleFloatVector& b, const DoubleFloatVector& x,
                                                  stream::Vector& r) const {
  const stream::Layout& layout = internalLayout();
  requireResidualShapes(title() + " (internal order)", layout, layout.size(), b, x, r);
  requireInternalProduct(x.hi(), r, "residualInternalInDoubleFloat");
  doubleFloatGroups(&b, x, &r, nullptr);
}

void SegmentMatrix::applyInternalInDoubleFloat(const DoubleFloatVector& x, DoubleFloatVector& y) const {
  requireInternalProduct(x.hi(), y.hi(), "applyInternalInDoubleFloat");
  requireInternalProduct(x.lo(), y.lo(), "applyInternalInDoubleFloat");
  doubleFloatGroups(nullptr, x, nullptr, &y);
}

void SegmentMatrix::doubleFloatGroups(const DoubleFloatVector* b, const DoubleFloatVector& x, stream::Vector* r,
                                      DoubleFloatVector* y) const {
  const stream::Layout& layout = internalLayout();
  gl::StateGuard guard;
  stream::Runtime& rt = stream::Runtime::current();
  gl::Texture partials[2][2];  // ping-pong pairs (head, tail) for long rows
  for (const SegmentGroup& g : m_layout.groups) {
    const int chunks = std::max(1, (g.k + kMaxSegmentPerPass - 1) / kMaxSegmentPerPass);
    for (int c = 0; c < chunks; ++c) {
      const int offset = c * kMaxSegmentPerPass, k = std::min(kMaxSegmentPerPass, g.k - offset);
      const bool last = c + 1 == chunks;
      stream::Pass p("sparse/spmv_segment");
      p.define("K", k).define("DIAGONAL", c == 0 ? 1 : 0).define("PARTIAL", 0);
      p.define(b ? "DOUBLE_FLOAT_RESIDUAL" : "DOUBLE_FLOAT_PRODUCT").define("LAST_CHUNK", last ? 1 : 0);
      p.label(std::string(b ? "spmv_segment residual K=" : "spmv_segment double-float K=") + std::to_string(k));
      p.input("u_x", x.hi()).input("u_xLo", x.lo()).input("u_diagonal", internalDiagonal());
      p.input("u_starts", m_starts).input("u_values", m_values).input("u_columns", m_columns);
      if (m_hasTails) {
        p.define("ENTRY_TAILS").input("u_valueTails", m_valueTails).input("u_diagonalTails", m_diagonalTails);
      }
      if (c > 0) {
        p.input("u_startHi", partials[(c - 1) % 2][0]).input("u_startLo", partials[(c - 1) % 2][1]);
      } else if (b) {
        p.input("u_startHi", b->hi()).input("u_startLo", b->lo());
      } else {
        p.define("START_ZERO");
      }
      p.uniform("u_xShift", m_layout.internalShift).uniform("u_valuesShift", m_layout.valuesShift).uniform("u_offset", offset);
      p.uniform("u_stride", g.stride);
      if (last && r) {
        p.output(*r);
      } else if (last) {
        p.output(y->mutableHi()).output(y->mutableLo());
      } else {
        for (gl::Texture& t : partials[c % 2]) {
          if (t.id() == 0) t = rt.pool().acquire(layout.width(), layout.height(), gl::TextureFormat::RGBA32F, name() + ".partial");
        }
        p.output(partials[c % 2][0]).output(partials[c % 2][1]);
      }
      p.run(g.rects);
    }
  }
  for (auto& pair : partials) {
    for (gl::Texture& t : pair) {
      if (t.id() != 0) rt.pool().release(std::move(t));
    }
  }
}

void SegmentMatrix::applyInternalAndDot(const stream::Vector& x, stream::Vector& y,
                                        const stream::Epilogue& epilogue) const {
  productAndDot(x, nullptr, y, epilogue);
}

void SegmentMatrix::applyInternalAndDotWithCopy(const stream::Vector& x, const stream::ElementCopy& xCopy,
                                                stream::Vector& y, const stream::Epilogue& epilogue) const {
  productAndDot(x, &xCopy, y, epilogue);
}

void SegmentMatrix::productAndDot(const stream::Vector& x, const stream::ElementCopy* xCopy, stream::Vector& y,
                                  const stream::Epilogue& epilogue) const {
  const std::string what = xCopy ? "applyInternalAndDotWithCopy" : "applyInternalAndDot";
  if (xCopy) xCopy->requireLayoutOf(x, title() + "." + what);
  stream::Runtime& rt = stream::Runtime::current();
  if (rt.backend() != stream::Backend::Compute || spanDispatch().spans == 0) {
    PermutedMatrix::applyInternalAndDot(x, y, epilogue);  // the product, then a reduction
    return;
  }
  requireInternalProduct(x, y, what);
  // The gathers read x's elements from the copy (binding 3), the rest of the kernel x.
  auto gatherFromCopy = [&](stream::Pass& p) {
    if (xCopy) p.define("GATHER_ELEMENTS").storage(3, xCopy->buffer());
  };
  const std::string gathered = xCopy ? ", x gathered from its element copy" : "";
  gl::StateGuard guard;
  if (productPerGroup(m_layout) && m_layout.groups.front().texels == internalLayout().texels()) {
    // One group over every texel: the per-group program's product with the fold, one
    // dispatch of 16 x 16 workgroups (sparse/spmv_segment_dot.glsl).
    const SegmentGroup& g = m_layout.groups.front();
    stream::Pass p(stream::composeReductionKernel("sparse/spmv_segment_dot", epilogue.include, 1));
    p.define("K", g.k).define("DIAGONAL", 1).label("spmv_segment K=" + std::to_string(g.k) + " + dot" + gathered);
    gatherFromCopy(p);
    p.input("u_x", x).input("u_diagonal", internalDiagonal()).input("u_starts", m_starts).input("u_values", m_values);
    p.input("u_columns", m_columns);
    p.uniform("u_xShift", m_layout.internalShift).uniform("u_valuesShift", m_layout.valuesShift).uniform("u_offset", 0);
    p.uniform("u_stride", g.stride).output(y);
    if (!m_dotScratch) m_dotScratch = std::make_unique<gl::Buffer>();
    runProductWithDot(p, internalLayout(), epilogue, *m_dotScratch, name() + ".dot_scratch");
    return;
  }
  const SpanDispatch& d = spanDispatch();
  const int total = d.groupsX * d.groupsY;
  if (!m_dotScratch) {
    // A zero counter, then one partial per workgroup of the dispatch.
    const std::vector<unsigned char> zeros(16 + 4 * std::size_t(total), 0);
    m_dotScratch = std::make_unique<gl::Buffer>(name() + ".dot_scratch", zeros.size(), zeros.data(), GL_DYNAMIC_COPY);
  }
  stream::Pass p(stream::composeReductionKernel("sparse/spmv_segment_spans", epilogue.include, 1));
  bindSpanProduct(p, x, /*withDiagonal=*/true);
  p.define("WITH_DOT").label("spmv_segment + dot" + gathered).uniform("u_groupBase", 0).uniform("u_totalGroups", total);
  gatherFromCopy(p);
  p.output(y);
  epilogue.bind(p);
  // In place: only the last workgroup reads and writes the epilogue's scalars (a status
  // both read and written, say).
  p.storage(0, m_dotScratch->id()).workgroups(d.groupsX, d.groupsY).inPlace().run();
}

void SegmentMatrix::applyOffDiagonal(const stream::Vector& x, stream::Vector& y) const {
  applyGroups(x, y, false, "applyOffDiagonal");
}

double SegmentMatrix::bytesPerApply() const {
  const double texels = double(internalLayout().texels());
  // diagonal, x once, R (4 bytes), y; values and C texels.
  return texels * (16 + 16 + 4 + 16) + double(m_layout.valueTexels) * (16 + 16);
}

double SegmentMatrix::flopsPerApply() const { return 2.0 * double(rows() + m_layout.offDiagonalNonZeros); }

}  // namespace texstream::linalg
