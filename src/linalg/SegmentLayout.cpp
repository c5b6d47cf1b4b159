// Bolz et al. 2003, §3.1.1: rows grouped by non-zero count into rectangles, one segment per
// row; §3.2.2: identical rectangles filled greedily by decreasing cost, a program for K
// serving shorter rows, padded entries pointing at one constant zero element.
#include <texstream/linalg/SegmentLayout.h>

#include <texstream/gl/Error.h>
#include <texstream/linalg/IndexTextures.h>
#include <texstream/linalg/LargeArrays.h>
#include <texstream/linalg/OperatorShapes.h>
#include <texstream/linalg/RowBlocks.h>
#include <texstream/linalg/TextureTiles.h>

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>
#include <stdexcept>

namespace texstream::linalg {

const char* packingName(SegmentPacking p) {
  return p == SegmentPacking::GroupRectangles ? "groups" : "tiles";
}

std::vector<int> offDiagonalCounts(const Csr& A) {
  std::vector<int> count(A.rows, 0);
  for (std::size_t i = 0; i < A.rows; ++i) {
    for (std::int64_t e = A.rowPtr[i]; e < A.rowPtr[i + 1]; ++e) {
      if (std::size_t(A.colIdx[std::size_t(e)]) != i) ++count[i];
    }
  }
  return count;
}

std::vector<int> RowPlacement::tileOfTexels() const {
  if (tileWidth == 0) return {};
  std::vector<int> tileOf(texels());
  const int h = int(height());
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < width; ++x) {
      tileOf[std::size_t(y) * std::size_t(width) + std::size_t(x)] = (y / tileHeight) * (width / tileWidth) + x / tileWidth;
    }
  }
  return tileOf;
}

RowPlacement placeRows(std::span<const int> counts, const SegmentOptions& options, int maxTextureSize,
                       const std::string& where) {
  const std::size_t n = counts.size();
  std::vector<std::int32_t> sorted(n);
  std::iota(sorted.begin(), sorted.end(), 0);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [&](auto a, auto b) { return counts[std::size_t(a)] > counts[std::size_t(b)]; });
  RowPlacement rows;
  rows.userToInternal.resize(n);
  const std::size_t texels = (n + 3) / 4;
  if (options.packing == SegmentPacking::GroupRectangles) {
    rows.width = pow2Width(texels, 1);
    rows.size = n;
    for (std::size_t r = 0; r < n; ++r) rows.userToInternal[std::size_t(sorted[r])] = std::int32_t(r);
  } else {
    const int tw = options.tileWidth, th = options.tileHeight;
    rows.tileWidth = tw;
    rows.tileHeight = th;
    rows.width = pow2Width(texels, tw);
    const std::size_t tileTexels = std::size_t(tw) * std::size_t(th), tilesX = std::size_t(rows.width / tw);
    for (std::size_t r = 0; r < n; ++r) {
      const std::size_t tile = r / (4 * tileTexels), inTile = (r / 4) % tileTexels;
      const std::size_t x = (tile % tilesX) * std::size_t(tw) + inTile % std::size_t(tw);
      const std::size_t y = (tile / tilesX) * std::size_t(th) + inTile / std::size_t(tw);
      const std::size_t p = 4 * (y * std::size_t(rows.width) + x) + r % 4;
      rows.userToInternal[std::size_t(sorted[r])] = std::int32_t(p);
      rows.size = std::max(rows.size, p + 1);
    }
  }
  // The last element of the texture must be Layout padding: it is the constant zero that
  // padded entries point at. Add a dead slot (and so a texel row) when it is not.
  if (4 * rows.texels() == rows.size) ++rows.size;
  if (rows.size >= kExactFloatLimit) {
    throw gl::Error(where + ": " + std::to_string(rows.size) +
                    " internal elements; positions are exact floats, so fewer than 2^24");
  }
  if (rows.width > maxTextureSize) {
    throw gl::Error(where + ": internal layout " + std::to_string(rows.width) +
                    " texels wide exceeds the GPU's maximum texture size");
  }
  return rows;
}

int bucketSegmentLength(int k) {
  auto roundUp = [](int v, int m) { return (v + m - 1) / m * m; };
  if (k <= 16) return k;
  if (k <= 32) return roundUp(k, 4);
  if (k <= 64) return roundUp(k, 8);
  return roundUp(k, 16);
}

void mergeSmallGroups(std::vector<int>& texelK, int mergeBelow) {
  if (mergeBelow <= 0) return;
  std::map<int, std::size_t, std::greater<int>> sizes;
  for (int k : texelK) ++sizes[k];
  std::map<int, int> target;
  int host = -1;
  for (const auto& [k, count] : sizes) {
    if (host >= 0 && double(count) * double(host - k) <= double(mergeBelow)) {
      target[k] = host;
    } else {
      target[k] = host = k;
    }
  }
  for (int& k : texelK) k = target[k];
}

std::vector<int> segmentLengths(const RowPlacement& rows, std::span<const int> counts, int mergeBelow) {
  const std::size_t texels = rows.texels();
  std::vector<int> texelK(texels, 0);
  for (std::size_t u = 0; u < counts.size(); ++u) {
    const std::size_t t = std::size_t(rows.userToInternal[u]) / 4;
    texelK[t] = std::max(texelK[t], counts[u]);
  }
  const std::vector<int> tileOf = rows.tileOfTexels();
  if (!tileOf.empty()) {
    std::map<int, int> tileK;
    for (std::size_t t = 0; t < texels; ++t) tileK[tileOf[t]] = std::max(tileK[tileOf[t]], texelK[t]);
    for (std::size_t t = 0; t < texels; ++t) texelK[t] = tileK[tileOf[t]];
  }
  for (int& k : texelK) k = bucketSegmentLength(k);
  mergeSmallGroups(texelK, mergeBelow);
  return texelK;
}

std::vector<SegmentGroup> groupRectangles(int width, int height, std::span<const int> texelK) {
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
  auto kAt = [&](int x, int y) { return texelK[std::size_t(y) * std::size_t(width) + std::size_t(x)]; };
  std::vector<Run> open, next;
  for (int y = 0; y < height; ++y) {
    next.clear();
    std::size_t o = 0;
    for (int x = 0; x < width;) {
      const int k = kAt(x, y);
      int x1 = x + 1;
      while (x1 < width && kAt(x1, y) == k) ++x1;
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
  for (const Run& r : open) emit(r, height);
  std::vector<SegmentGroup> out;
  for (auto& [k, g] : groups) out.push_back(std::move(g));
  return out;
}

SegmentStarts placeSegments(const RowPlacement& rows, std::span<const int> texelK, bool interleave,
                            std::vector<SegmentGroup>& groups) {
  const std::size_t texels = texelK.size(), W = std::size_t(rows.width);
  SegmentStarts s;
  s.start.assign(texels, 0);
  s.stride.assign(texels, 1);
  // Texels in the order rows were placed (tile by tile for tiles).
  const std::vector<int> tileOf = rows.tileOfTexels();
  std::vector<std::size_t> placement(texels);
  std::iota(placement.begin(), placement.end(), std::size_t(0));
  if (!tileOf.empty()) {
    std::stable_sort(placement.begin(), placement.end(),
                     [&](std::size_t a, std::size_t b) { return tileOf[a] < tileOf[b]; });
  }
  if (!interleave) {
    for (std::size_t t : placement) {
      s.start[t] = s.total;
      s.total += std::size_t(texelK[t]);
    }
  } else if (!tileOf.empty()) {
    // Interleaved within each tile: texel l of a tile of S texels reads R + c S.
    const std::size_t tw = std::size_t(rows.tileWidth), th = std::size_t(rows.tileHeight), S = tw * th;
    std::size_t i = 0;
    while (i < placement.size()) {
      const int tile = tileOf[placement[i]];
      const int k = texelK[placement[i]];
      for (; i < placement.size() && tileOf[placement[i]] == tile; ++i) {
        const std::size_t t = placement[i];
        s.start[t] = s.total + (t / W) % th * tw + (t % W) % tw;
        s.stride[t] = int(S);
      }
      s.total += std::size_t(k) * S;
    }
    for (SegmentGroup& g : groups) g.stride = int(S);
  } else {
    // Interleaved within each group (a run of texels in reading order).
    for (SegmentGroup& g : groups) {
      g.stride = int(g.texels);
      std::size_t rank = 0;
      for (std::size_t t = 0; t < texels; ++t) {
        if (texelK[t] != g.k) continue;
        s.start[t] = s.total + rank++;
        s.stride[t] = g.stride;
      }
      s.total += std::size_t(g.k) * g.texels;
    }
  }
  return s;
}

EntryMap mapEntries(const Csr& A, const RowPlacement& rows, const SegmentStarts& segments, int valuesWidth,
                    int valuesHeight, std::int32_t zeroElement) {
  const std::size_t W = std::size_t(rows.width), Wv = std::size_t(valuesWidth);
  const std::size_t elements = 4 * Wv * std::size_t(valuesHeight);
  EntryMap m;
  assignLarge(m.entrySlots, A.nonZeros(), SegmentSlot{});
  assignLarge(m.slotEntries, elements, std::int64_t(-1));
  m.columns = largeArray(elements, float(zeroElement));
  // Rows on threads (RowBlocks.h): each row writes only its own entries' slots.
  forWeightedRowBlocks(A.rowPtr, workThreads(double(A.nonZeros())), [&](unsigned, std::size_t first, std::size_t last) {
    for (std::size_t u = first; u < last; ++u) {
      const std::size_t p = std::size_t(rows.userToInternal[u]), t = p / 4;
      const int channel = int(p % 4);
      std::size_t c = 0;
      for (std::int64_t e = A.rowPtr[u]; e < A.rowPtr[u + 1]; ++e) {
        const std::size_t j = std::size_t(A.colIdx[std::size_t(e)]);
        SegmentSlot& slot = m.entrySlots[std::size_t(e)];
        if (j == u) {
          slot = {true, int(t % W), int(t / W), channel};
          continue;
        }
        const auto [x, y] = tiledTexel(segments.start[t] + std::size_t(segments.stride[t]) * c++, Wv);
        slot = {false, int(x), int(y), channel};
        const std::size_t at = 4 * (y * Wv + x) + std::size_t(channel);
        m.slotEntries[at] = std::int64_t(e);
        m.columns[at] = float(rows.userToInternal[j]);
      }
    }
  });
  return m;
}

double SegmentLayout::paddingRatio() const {
  return offDiagonalNonZeros == 0 ? 1.0 : double(4 * valueTexels) / double(offDiagonalNonZeros);
}

int SegmentLayout::passesPerApply() const {
  int passes = 0;
  for (const SegmentGroup& g : groups) passes += std::max(1, (g.k + kMaxSegmentPerPass - 1) / kMaxSegmentPerPass);
  return passes;
}

namespace {

void validate(const Csr& A, const SegmentOptions& options, const std::string& where) {
  A.validate(where);
  A.requireSquare(where);
  if (A.rows == 0) throw std::invalid_argument(where + ": the matrix has no rows");
  if (options.packing == SegmentPacking::IdenticalTiles &&
      (options.tileWidth < 1 || options.tileHeight < 1 || (options.tileWidth & (options.tileWidth - 1)) != 0)) {
    throw std::invalid_argument(where + ": tiles of " + std::to_string(options.tileWidth) + "x" +
                                std::to_string(options.tileHeight) +
                                " texels; the width must be a power of two and both at least 1");
  }
  if (A.rows >= kExactFloatLimit) {
    throw gl::Error(where + ": n = " + std::to_string(A.rows) +
                    "; column positions are stored as exact floats, so n must be below 2^24");
  }
}

}  // namespace

SegmentPlan planSegments(const Csr& A, const SegmentOptions& options, int maxTextureSize, const std::string& where,
                         const RowPlacement* placed) {
  validate(A, options, where);
  SegmentPlan plan;
  SegmentLayout& layout = plan.layout;
  layout.packing = options.packing;
  layout.interleaved = options.interleave.value();
  const std::vector<int> counts = offDiagonalCounts(A);
  for (int c : counts) layout.offDiagonalNonZeros += std::size_t(c);
  plan.rows = placed ? *placed : placeRows(counts, options, maxTextureSize, where);
  const RowPlacement& rows = plan.rows;
  layout.internalShift = log2Ceil(std::size_t(rows.width));
  if ((1 << layout.internalShift) != rows.width) {
    throw gl::Error(where + ": internal layout width " + std::to_string(rows.width) + " is not a power of two");
  }
  layout.zeroElement = std::int32_t(4 * rows.texels() - 1);
  if (std::size_t(layout.zeroElement) < rows.size) {
    throw gl::Error(where + ": the internal layout of " + std::to_string(rows.size) + " elements, " +
                    std::to_string(rows.width) + " texels wide, has no padding element to read zeros from");
  }

  const std::vector<int> texelK = segmentLengths(rows, counts, options.mergeBelow);
  layout.groups = groupRectangles(rows.width, int(rows.height()), texelK);
  const SegmentStarts segments = placeSegments(rows, texelK, layout.interleaved, layout.groups);
  layout.valueTexels = segments.total;
  if (segments.total >= kExactFloatLimit) {
    throw gl::Error(where + ": " + std::to_string(segments.total) +
                    " texels of off-diagonal values; segment starts are exact floats, so fewer than 2^24");
  }
  // Values texels are numbered in tiles (TextureTiles.h): at least one tile wide, whole
  // tiles high.
  layout.valuesWidth = pow2Width(segments.total, 4);
  layout.valuesHeight = int(tiledRows(segments.total, std::size_t(layout.valuesWidth)));
  if (layout.valuesWidth > maxTextureSize || layout.valuesHeight > maxTextureSize) {
    throw gl::Error(where + ": the off-diagonal values need a " + std::to_string(layout.valuesWidth) + "x" +
                    std::to_string(layout.valuesHeight) + " texture, beyond this GPU's maximum texture size " +
                    std::to_string(maxTextureSize));
  }
  layout.valuesShift = log2Ceil(std::size_t(layout.valuesWidth));

  EntryMap entries = mapEntries(A, rows, segments, layout.valuesWidth, layout.valuesHeight, layout.zeroElement);
  layout.entrySlots = std::move(entries.entrySlots);
  layout.slotEntries = std::move(entries.slotEntries);
  plan.columns = std::move(entries.columns);
  plan.segmentStarts.resize(segments.start.size());
  for (std::size_t t = 0; t < segments.start.size(); ++t) plan.segmentStarts[t] = float(segments.start[t]);
  return plan;
}

}  // namespace texstream::linalg
