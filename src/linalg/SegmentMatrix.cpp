// Bolz et al. 2003, §3.1.1: diagonal in x's layout, off-diagonals as one segment per row,
// R and C indirection textures, rows grouped by non-zero count into rectangles each bound
// to the program for its count; §3.2.2: identical rectangles filled greedily by decreasing
// cost, padded entries pointing at one constant zero element.
#include <texstream/linalg/SegmentMatrix.h>

#include <texstream/linalg/DoubleFloatVector.h>
#include <texstream/linalg/IndexTextures.h>
#include <texstream/linalg/LargeArrays.h>
#include <texstream/linalg/OperatorShapes.h>
#include <texstream/linalg/RowBlocks.h>
#include <texstream/linalg/TextureTiles.h>

#include <texstream/gl/Error.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/stream/Aliasing.h>
#include <texstream/stream/Runtime.h>
#include <texstream/stream/TexturePool.h>

#include <glad/gl.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <stdexcept>

namespace texstream::linalg {

const char* packingName(SegmentPacking p) {
  return p == SegmentPacking::GroupRectangles ? "groups" : "tiles";
}

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

/// Few programs: K exact up to 16 (mesh valences), then multiples of 4, 8 and 16; a
/// program for K also serves shorter rows (Bolz §3.2.2, "Multiple Programs").
int bucket(int k) {
  auto roundUp = [](int v, int m) { return (v + m - 1) / m * m; };
  if (k <= 16) return k;
  if (k <= 32) return roundUp(k, 4);
  if (k <= 64) return roundUp(k, 8);
  return roundUp(k, 16);
}

/// Rectangles covering the W x H grid, one list per distinct K: runs of equal K in each
/// texel row, merged downwards while the run repeats exactly.
std::vector<SegmentGroup> rectanglesByK(int W, int H, const std::vector<int>& texelK) {
  struct Run {
    int x0, x1, k, y0;
  };
  std::map<int, SegmentGroup, std::greater<int>> groups;
  auto emit = [&](const Run& r, int yEnd) {
    SegmentGroup& g = groups[r.k];
    g.k = r.k;
    g.rects.push_back({r.x0, r.y0, r.x1 - r.x0, yEnd - r.y0});
    g.texels += std::size_t(r.x1 - r.x0) * std::size_t(yEnd - r.y0);
  };
  std::vector<Run> open, next;
  for (int y = 0; y < H; ++y) {
    next.clear();
    std::size_t o = 0;
    for (int x = 0; x < W;) {
      const int k = texelK[std::size_t(y) * std::size_t(W) + std::size_t(x)];
      int x1 = x + 1;
      while (x1 < W && texelK[std::size_t(y) * std::size_t(W) + std::size_t(x1)] == k) ++x1;
      while (o < open.size() && open[o].x0 < x) emit(open[o++], y);
      if (o < open.size() && open[o].x0 == x && open[o].x1 == x1 && open[o].k == k) {
        next.push_back(open[o++]);
      } else {
        next.push_back({x, x1, k, y});
      }
      x = x1;
    }
    while (o < open.size()) emit(open[o++], y);
    open.swap(next);
  }
  for (const Run& r : open) emit(r, H);
  std::vector<SegmentGroup> out;
  for (auto& [k, g] : groups) out.push_back(std::move(g));
  return out;
}

}  // namespace

SegmentMatrix::SegmentMatrix(const Csr& A, std::string name, SegmentOptions options)
    : SegmentMatrix(A, std::move(name), options, nullptr, nullptr) {}

SegmentMatrix SegmentMatrix::fromPattern(const Csr& pattern, std::string name, SegmentOptions options) {
  Csr zero = pattern;
  std::fill(zero.values.begin(), zero.values.end(), 0.0);
  return SegmentMatrix(zero, std::move(name), options);
}

SegmentMatrix::SegmentMatrix(const Csr& A, std::string name, SegmentOptions options,
                             const std::vector<std::int32_t>* forcedOrder, const stream::Layout* forcedLayout)
    : PermutedMatrix("SegmentMatrix", std::move(name), A.rows), m_options(options), m_pattern(A) {
  const std::string title = this->title();
  options.interleave = m_options.interleave = resolveInterleave(options);
  A.validate(title);
  A.requireSquare(title);
  if (A.rows == 0) throw std::invalid_argument(title + ": the matrix has no rows");
  if (options.packing == SegmentPacking::IdenticalTiles &&
      (options.tileWidth < 1 || options.tileHeight < 1 || (options.tileWidth & (options.tileWidth - 1)) != 0)) {
    throw std::invalid_argument(title + ": tiles of " + std::to_string(options.tileWidth) + "x" +
                                std::to_string(options.tileHeight) +
                                " texels; the width must be a power of two and both at least 1");
  }
  const std::size_t n = A.rows;
  if (n >= kExactFloatLimit) {
    throw gl::Error(title + ": n = " + std::to_string(n) +
                    "; column positions are stored as exact floats, so n must be below 2^24");
  }
  gl::StateGuard guard;
  const int maxSize = stream::Runtime::current().caps().maxTextureSize;

  // Off-diagonal count per row.
  std::vector<int> count(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::int64_t e = A.rowPtr[i]; e < A.rowPtr[i + 1]; ++e) {
      if (std::size_t(A.colIdx[std::size_t(e)]) != i) ++count[i];
    }
    m_offDiagonalNonZeros += std::size_t(count[i]);
  }

  // Internal order: user rows by decreasing count (stable: a mesh's own locality survives
  // within a group), placed in texels by the packing.
  std::vector<std::int32_t> userToInternal(n);
  stream::Layout layout;
  int W = 1;
  std::vector<int> tileOf;  // IdenticalTiles: texel -> tile id (-1 outside every tile)
  if (forcedOrder) {
    userToInternal = *forcedOrder;
    layout = *forcedLayout;
    W = layout.width();
  } else {
    std::vector<std::int32_t> sorted(n);
    std::iota(sorted.begin(), sorted.end(), 0);
    std::stable_sort(sorted.begin(), sorted.end(), [&](auto a, auto b) { return count[std::size_t(a)] > count[std::size_t(b)]; });
    const std::size_t texels = (n + 3) / 4;
    std::size_t internalSize = n;
    if (options.packing == SegmentPacking::GroupRectangles) {
      W = pow2Width(texels, 1);
      for (std::size_t r = 0; r < n; ++r) userToInternal[std::size_t(sorted[r])] = std::int32_t(r);
    } else {
      const int tw = options.tileWidth, th = options.tileHeight;
      W = pow2Width(texels, tw);
      const std::size_t tileTexels = std::size_t(tw) * std::size_t(th), tilesX = std::size_t(W / tw);
      internalSize = 0;
      for (std::size_t r = 0; r < n; ++r) {
        const std::size_t tile = r / (4 * tileTexels), inTile = (r / 4) % tileTexels;
        const std::size_t x = (tile % tilesX) * std::size_t(tw) + inTile % std::size_t(tw);
        const std::size_t y = (tile / tilesX) * std::size_t(th) + inTile / std::size_t(tw);
        const std::size_t p = 4 * (y * std::size_t(W) + x) + r % 4;
        userToInternal[std::size_t(sorted[r])] = std::int32_t(p);
        internalSize = std::max(internalSize, p + 1);
      }
    }
    // The last element of the texture must be Layout padding: it is the constant zero that
    // padded entries point at. Add a dead slot (and so a texel row) when it is not.
    const std::size_t h = ((internalSize + 3) / 4 + std::size_t(W) - 1) / std::size_t(W);
    if (4 * h * std::size_t(W) == internalSize) ++internalSize;
    if (internalSize >= kExactFloatLimit) {
      throw gl::Error(title + ": " + std::to_string(internalSize) +
                      " internal elements; positions are exact floats, so fewer than 2^24");
    }
    if (W > maxSize) throw gl::Error(title + ": internal layout " + std::to_string(W) + " texels wide exceeds the GPU's maximum texture size");
    layout = stream::Layout::withWidth(internalSize, W);
    if (options.packing == SegmentPacking::IdenticalTiles) {
      const int tw = options.tileWidth, th = options.tileHeight;
      tileOf.assign(layout.texels(), -1);
      for (int y = 0; y < layout.height(); ++y) {
        for (int x = 0; x < W; ++x) tileOf[std::size_t(y) * std::size_t(W) + std::size_t(x)] = (y / th) * (W / tw) + x / tw;
      }
    }
  }
  setPermutation(RowPermutation(userToInternal, layout, this->name()));
  const auto& internalToUser = this->internalToUser();
  const int H = layout.height();
  const std::size_t texelCount = layout.texels();
  m_layoutShift = log2Ceil(std::size_t(W));
  if ((1 << m_layoutShift) != W) throw gl::Error(title + ": internal layout width " + std::to_string(W) + " is not a power of two");
  m_zeroElement = std::int32_t(layout.paddedSize() - 1);
  if (std::size_t(m_zeroElement) < layout.size()) {
    throw gl::Error(title + ": the internal layout " + layout.describe() + " has no padding element to read zeros from");
  }

  // K per texel: the bucketed maximum count of its rows (of its tile, for IdenticalTiles).
  std::vector<int> texelK(texelCount, 0);
  for (std::size_t p = 0; p < layout.size(); ++p) {
    const std::int32_t u = internalToUser[p];
    if (u >= 0) texelK[p / 4] = std::max(texelK[p / 4], count[std::size_t(u)]);
  }
  if (!tileOf.empty()) {
    std::map<int, int> tileK;
    for (std::size_t t = 0; t < texelCount; ++t) tileK[tileOf[t]] = std::max(tileK[tileOf[t]], texelK[t]);
    for (std::size_t t = 0; t < texelCount; ++t) texelK[t] = tileK[tileOf[t]];
  }
  for (int& k : texelK) k = bucket(k);
  if (options.mergeBelow > 0) {
    // Bolz §3.2.2: the program for k serves shorter rows too; a pass costs more than a
    // little padding, so small groups join the next larger one (greedy, largest first).
    std::map<int, std::size_t, std::greater<int>> sizes;
    for (int k : texelK) ++sizes[k];
    std::map<int, int> target;
    int host = -1;
    for (const auto& [k, count] : sizes) {
      if (host >= 0 && double(count) * double(host - k) <= double(options.mergeBelow)) {
        target[k] = host;
      } else {
        target[k] = host = k;
      }
    }
    for (int& k : texelK) k = target[k];
  }
  m_groups = rectanglesByK(W, H, texelK);

  // R: segment starts, texels in the order rows were placed (tile by tile for tiles).
  std::vector<float> starts(texelCount, 0.0f);
  std::vector<std::size_t> start(texelCount, 0);
  std::vector<std::size_t> placement(texelCount);
  std::iota(placement.begin(), placement.end(), std::size_t(0));
  if (!tileOf.empty()) {
    std::stable_sort(placement.begin(), placement.end(), [&](std::size_t a, std::size_t b) { return tileOf[a] < tileOf[b]; });
  }
  std::vector<int> stride(texelCount, 1);
  std::size_t total = 0;
  if (!*options.interleave) {
    for (std::size_t t : placement) {
      start[t] = total;
      total += std::size_t(texelK[t]);
    }
  } else if (!tileOf.empty()) {
    // Interleaved within each tile: texel l of a tile of S texels reads R + c S.
    const std::size_t S = std::size_t(options.tileWidth) * std::size_t(options.tileHeight);
    std::size_t i = 0;
    while (i < placement.size()) {
      const int tile = tileOf[placement[i]];
      const int k = texelK[placement[i]];
      for (; i < placement.size() && tileOf[placement[i]] == tile; ++i) {
        const std::size_t t = placement[i];
        const std::size_t local = (t / std::size_t(W)) % std::size_t(options.tileHeight) * std::size_t(options.tileWidth) +
                                  (t % std::size_t(W)) % std::size_t(options.tileWidth);
        start[t] = total + local;
        stride[t] = int(S);
      }
      total += std::size_t(k) * S;
    }
    for (SegmentGroup& g : m_groups) g.stride = int(S);
  } else {
    // Interleaved within each group (a run of texels in reading order).
    for (SegmentGroup& g : m_groups) {
      g.stride = int(g.texels);
      std::size_t rank = 0;
      for (std::size_t t = 0; t < texelCount; ++t) {
        if (texelK[t] != g.k) continue;
        start[t] = total + rank++;
        stride[t] = g.stride;
      }
      total += std::size_t(g.k) * g.texels;
    }
  }
  for (std::size_t t = 0; t < texelCount; ++t) starts[t] = float(start[t]);
  m_valueTexels = total;
  m_storedSlots = 4 * total;
  if (total >= kExactFloatLimit) {
    throw gl::Error(title + ": " + std::to_string(total) +
                    " texels of off-diagonal values; segment starts are exact floats, so fewer than 2^24");
  }
  // Values texels are numbered in tiles (TextureTiles.h): at least one tile wide, whole
  // tiles high.
  const int Wv = pow2Width(total, 4);
  const int Hv = int(tiledRows(total, std::size_t(Wv)));
  if (Wv > maxSize || Hv > maxSize) {
    throw gl::Error(title + ": the off-diagonal values need a " + std::to_string(Wv) + "x" + std::to_string(Hv) +
                    " texture, beyond this GPU's maximum texture size " + std::to_string(maxSize));
  }
  m_valuesShift = log2Ceil(std::size_t(Wv));

  // Slots: entry e of user row u sits in the segment of u's internal texel, channel p % 4.
  assignLarge(m_entrySlots, A.nonZeros(), SegmentSlot{});
  assignLarge(m_slotEntries, 4 * std::size_t(Wv) * std::size_t(Hv), std::int64_t(-1));
  std::vector<float> columns = largeArray(4 * std::size_t(Wv) * std::size_t(Hv), float(m_zeroElement));
  // Rows on threads (RowBlocks.h): each row writes only its own entries' slots.
  forWeightedRowBlocks(A.rowPtr, workThreads(double(A.nonZeros())), [&](unsigned, std::size_t first, std::size_t last) {
    for (std::size_t u = first; u < last; ++u) {
      const std::size_t p = std::size_t(userToInternal[u]), t = p / 4;
      const int channel = int(p % 4);
      std::size_t c = 0;
      for (std::int64_t e = A.rowPtr[u]; e < A.rowPtr[u + 1]; ++e) {
        const std::size_t j = std::size_t(A.colIdx[std::size_t(e)]);
        SegmentSlot& slot = m_entrySlots[std::size_t(e)];
        if (j == u) {
          slot = {true, int(t % std::size_t(W)), int(t / std::size_t(W)), channel};
          continue;
        }
        const auto [x, y] = tiledTexel(start[t] + std::size_t(stride[t]) * c++, std::size_t(Wv));
        slot = {false, int(x), int(y), channel};
        const std::size_t at = 4 * (y * std::size_t(Wv) + x) + std::size_t(channel);
        m_slotEntries[at] = std::int64_t(e);
        columns[at] = float(userToInternal[j]);
      }
    }
  });

  setDiagonal(stream::Vector(layout, this->name() + ".diagonal"));
  m_values = gl::Texture(Wv, Hv, gl::TextureFormat::RGBA32F, this->name() + ".values");
  m_columns = gl::Texture(Wv, Hv, gl::TextureFormat::RGBA32F, this->name() + ".columns");
  m_columns.upload(columns.data());
  m_starts = gl::Texture(W, H, gl::TextureFormat::R32F, this->name() + ".segmentStarts");
  m_starts.upload(starts.data());
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
      const SegmentSlot& s = m_entrySlots[e];
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
                                std::to_string(entryRow(std::int64_t(bad))) + ", column " +
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

std::int32_t SegmentMatrix::entryRow(std::int64_t e) const {
  if (e < 0 || std::size_t(e) >= m_pattern.nonZeros()) {
    throw std::invalid_argument(title() + ".entryRow: entry " + std::to_string(e) +
                                " out of range");
  }
  const auto it = std::upper_bound(m_pattern.rowPtr.begin(), m_pattern.rowPtr.end(), e);
  return std::int32_t(it - m_pattern.rowPtr.begin() - 1);
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
    const SegmentSlot& s = m_entrySlots[e];
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
  return SegmentMatrix(T, std::move(name), m_options, &userToInternal(), &internalLayout());
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
  for (const SegmentGroup& g : m_groups) {
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
  p.uniform("u_xShift", m_layoutShift).uniform("u_valuesShift", m_valuesShift).uniform("u_spans", d.spans);
  p.storage(1, m_spanTable->id());
}

void SegmentMatrix::applyGroups(const stream::Vector& x, stream::Vector& y, bool withDiagonal,
                                const std::string& what) const {
  requireInternalProduct(x, y, what);
  const stream::Layout& layout = internalLayout();
  gl::StateGuard guard;
  stream::Runtime& rt = stream::Runtime::current();
  if (rt.backend() == stream::Backend::Compute) {
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
    p.uniform("u_xShift", m_layoutShift).uniform("u_valuesShift", m_valuesShift).uniform("u_offset", offset);
    p.uniform("u_stride", stride);
    return p;
  };
  gl::Texture partials[2];
  for (const SegmentGroup& g : m_groups) {
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
  for (const SegmentGroup& g : m_groups) {
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
      p.uniform("u_xShift", m_layoutShift).uniform("u_valuesShift", m_valuesShift).uniform("u_offset", offset);
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
  stream::Runtime& rt = stream::Runtime::current();
  if (rt.backend() != stream::Backend::Compute || spanDispatch().spans == 0) {
    PermutedMatrix::applyInternalAndDot(x, y, epilogue);  // the product, then a reduction
    return;
  }
  requireInternalProduct(x, y, "applyInternalAndDot");
  gl::StateGuard guard;
  const SpanDispatch& d = spanDispatch();
  const int total = d.groupsX * d.groupsY;
  if (!m_dotScratch) {
    // A zero counter, then one partial per workgroup of the dispatch.
    const std::vector<unsigned char> zeros(16 + 4 * std::size_t(total), 0);
    m_dotScratch = std::make_unique<gl::Buffer>(name() + ".dot_scratch", zeros.size(), zeros.data(), GL_DYNAMIC_COPY);
  }
  stream::Pass p(stream::composeReductionKernel("sparse/spmv_segment_spans", epilogue.include, 1));
  bindSpanProduct(p, x, /*withDiagonal=*/true);
  p.define("WITH_DOT").label("spmv_segment + dot").uniform("u_groupBase", 0).uniform("u_totalGroups", total);
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
  // diagonal, x's own texel, R (4 bytes), y; values and C texels; one float of x per slot.
  return texels * (16 + 16 + 4 + 16) + double(m_valueTexels) * (16 + 16 + 4 * 4);
}

double SegmentMatrix::flopsPerApply() const { return 2.0 * double(rows() + m_offDiagonalNonZeros); }

double SegmentMatrix::paddingRatio() const {
  return m_offDiagonalNonZeros == 0 ? 1.0 : double(m_storedSlots) / double(m_offDiagonalNonZeros);
}

int SegmentMatrix::passesPerApply() const {
  int passes = 0;
  for (const SegmentGroup& g : m_groups) passes += std::max(1, (g.k + kMaxSegmentPerPass - 1) / kMaxSegmentPerPass);
  return passes;
}

}  // namespace texstream::linalg
