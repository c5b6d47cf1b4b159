#pragma once
// texstream::linalg::SegmentLayout: where a SegmentMatrix (SegmentMatrix.h) keeps each row,
// segment and entry (Bolz et al. 2003, §3.1.1 and §3.2.2), planned on the CPU: no GL
// context is needed, so each step is a function a test can call. planSegments runs them in
// order:
//  1. offDiagonalCounts: the off-diagonal entries of each row;
//  2. placeRows: the internal order, rows by decreasing count placed in texels in reading
//     order (GroupRectangles) or tile by tile (IdenticalTiles);
//  3. segmentLengths: K per internal texel, the bucketed longest row of the texel (of its
//     tile), small groups merged into the next larger one;
//  4. groupRectangles: the rectangles of texels of equal K, one group per K;
//  5. placeSegments: each texel's segment start and stride among the values texels;
//  6. mapEntries: each CSR entry's slot, each slot's entry and column.
// SegmentMatrix uploads the plan and keeps its SegmentLayout.
#include <texstream/linalg/Csr.h>
#include <texstream/stream/Pass.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace texstream::linalg {

enum class SegmentPacking {
  GroupRectangles,  ///< one rectangle (plus ragged first/last rows) per non-zero count
  IdenticalTiles,   ///< Bolz §3.2.2: identical tiles filled greedily by decreasing cost
};
const char* packingName(SegmentPacking p);

struct SegmentOptions {
  SegmentPacking packing = SegmentPacking::GroupRectangles;
  /// Tile size in texels for IdenticalTiles; tileWidth a power of two. 16 x 16 is the
  /// compute backend's workgroup: one workgroup then reads 1024 consecutive rows.
  int tileWidth = 16, tileHeight = 16;
  /// Bolz §3.2.2 lets a program for k serve rows with fewer entries: a group whose
  /// padding up to the next larger group would cost at most this many value texels
  /// joins it, saving a pass (the icosphere's 12 valence-5 vertices, the texels past the
  /// last row). 0: one group per bucketed count.
  int mergeBelow = 16384;
  /// Segments interleaved for coalesced reads: entry c of texel t at R[t] + c * stride,
  /// the stride being the group's texel count (GroupRectangles) or the tile's
  /// (IdenticalTiles), so neighbouring texels read neighbouring value texels. false:
  /// Bolz's consecutive segments (stride 1). Interleaving coalesces a compute workgroup's
  /// reads; on the fragment backend a rasteriser's quads already read neighbouring
  /// segments together, and interleaving spreads one texel's reads (docs/performance.md).
  /// Unset (the default): chosen from the backend current when the matrix is built,
  /// interleaved on Compute, consecutive on Fragment; the layout is then fixed
  /// (SegmentLayout::interleaved) and both layouts work on both backends, so a matrix
  /// built on one backend and applied on the other is only slower. Kernels that walk
  /// segments themselves must use SegmentGroup::stride.
  std::optional<bool> interleave;
  /// Keep, beside each entry rounded to float, its remainder v - float(v) (the "tail") in
  /// textures of their own, so that products in double-float arithmetic see the entries
  /// to about 48 bits (applyInDoubleFloat, residualInDoubleFloat; Göddeke, Strzodka &
  /// Turek 2007, §3). Costs a second values texture and diagonal. See
  /// SegmentMatrix::setKeepEntryTails.
  bool entryTails = false;
};

/// Where a CSR entry sits: off-diagonal entries in the values texture (texel x, y and
/// channel), diagonal entries in the diagonal (texel x, y and channel of the internal
/// layout). Several entries may share a slot only if the CSR holds duplicate diagonal
/// entries (they are summed).
struct SegmentSlot {
  bool diagonal = false;
  int x = 0, y = 0, channel = 0;
};

/// The rectangles of internal texels rendered with one program (K off-diagonals per row).
struct SegmentGroup {
  int k = 0;
  std::vector<stream::Rect> rects;
  std::size_t texels = 0;
  /// Segment entry c of a texel t of this group is values texel R[t] + c * stride (1
  /// unless interleaved, see SegmentOptions::interleave).
  int stride = 1;
};

/// Step 1: per row, its entries off the diagonal.
std::vector<int> offDiagonalCounts(const Csr& A);

/// Step 2's result, the internal order: element userToInternal[u] holds user row u, in a
/// layout of `size` elements `width` texels wide (stream::Layout::withWidth(size, width)).
/// Elements holding no row are dead slots; the last element of the texture is always
/// padding (the zero that padded entries read).
struct RowPlacement {
  std::vector<std::int32_t> userToInternal;
  std::size_t size = 0;
  int width = 1;
  /// Rows placed tile by tile in tiles of tileWidth x tileHeight texels (IdenticalTiles);
  /// 0: in reading order.
  int tileWidth = 0, tileHeight = 0;
  std::size_t height() const { return ((size + 3) / 4 + std::size_t(width) - 1) / std::size_t(width); }
  std::size_t texels() const { return height() * std::size_t(width); }
  /// Per texel its tile, numbered in reading order; empty in reading order.
  std::vector<int> tileOfTexels() const;
};

/// Step 2: rows by decreasing count (stable: a mesh's own locality survives within a
/// count), 4 to a texel, in reading order (GroupRectangles) or filling tileWidth x
/// tileHeight tiles one after the other (IdenticalTiles), in a texture 2^k texels wide (at
/// least one tile). `where` names the matrix in errors: gl::Error when the internal
/// elements reach 2^24 (positions are exact floats) or the width exceeds maxTextureSize.
RowPlacement placeRows(std::span<const int> counts, const SegmentOptions& options, int maxTextureSize,
                       const std::string& where);

/// Few programs: K exact up to 16 (mesh valences), then rounded up to multiples of 4 (to
/// 32), 8 (to 64) and 16; a program for K also serves shorter rows (Bolz §3.2.2).
int bucketSegmentLength(int k);

/// Bolz §3.2.2: a pass costs more than a little padding, so the texels of a small K join
/// the next larger K while (texels of K) x (the K added) is at most mergeBelow; greedy,
/// largest K first. mergeBelow <= 0 leaves texelK as it is.
void mergeSmallGroups(std::vector<int>& texelK, int mergeBelow);

/// Step 3: K per internal texel: the longest count among its rows (among the rows of its
/// tile, when placed in tiles), bucketed (bucketSegmentLength), small groups merged.
std::vector<int> segmentLengths(const RowPlacement& rows, std::span<const int> counts, int mergeBelow);

/// Step 4: rectangles covering the width x height grid of texels, one group per distinct K
/// by decreasing K: runs of equal K in each texel row, merged downwards while the run
/// repeats exactly. Strides are left 1 (placeSegments sets them).
std::vector<SegmentGroup> groupRectangles(int width, int height, std::span<const int> texelK);

/// Step 5's result: entry c of the segment of internal texel t is values texel
/// start[t] + c * stride[t], numbered as TextureTiles.h says; `total` values texels in use.
struct SegmentStarts {
  std::vector<std::size_t> start;
  std::vector<int> stride;
  std::size_t total = 0;
};

/// Step 5: segments follow the order rows were placed in (reading order, or tile by tile),
/// so one workgroup's segments are contiguous. Consecutive (interleave false): K_t texels
/// a segment, one after the other. Interleaved: entry c of the texels of one tile (of one
/// group, in reading order, when not in tiles) side by side, the stride the tile's (the
/// group's) texel count, which is set in `groups`.
SegmentStarts placeSegments(const RowPlacement& rows, std::span<const int> texelK, bool interleave,
                            std::vector<SegmentGroup>& groups);

/// Step 6's result: per CSR entry its slot; per element 4 (y * width + x) + channel of the
/// values texture its entry (-1: padding) and the internal element of its column (padding:
/// the zero element).
struct EntryMap {
  std::vector<SegmentSlot> entrySlots;
  std::vector<std::int64_t> slotEntries;
  std::vector<float> columns;
};

/// Step 6: entry e of user row u sits in the segment of u's internal texel, channel
/// (its element) % 4, the diagonal entries in the diagonal. Rows run on threads
/// (RowBlocks.h). The values texture is valuesWidth x valuesHeight texels.
EntryMap mapEntries(const Csr& A, const RowPlacement& rows, const SegmentStarts& segments, int valuesWidth,
                    int valuesHeight, std::int32_t zeroElement);

/// What a SegmentMatrix keeps of its plan: the groups its product renders, the shapes and
/// shifts its kernels address textures with, and the CSR entry <-> texel mapping (Bolz
/// §3.1.2) for values written on the GPU.
struct SegmentLayout {
  SegmentPacking packing = SegmentPacking::GroupRectangles;
  /// Whether segments are interleaved (SegmentOptions::interleave, resolved at build).
  bool interleaved = false;
  /// log2 of the internal layout's width, for kernels that address it with shifts.
  int internalShift = 0;
  /// The internal element that always reads zero (padded entries point at it).
  std::int32_t zeroElement = 0;
  /// The groups rendered by a product, by decreasing K, covering every internal texel once.
  std::vector<SegmentGroup> groups;
  /// Texels of the values texture in use (the rest is never read).
  std::size_t valueTexels = 0;
  /// The values (and columns) texture: valuesWidth = 2^valuesShift, whole tiles high.
  int valuesWidth = 0, valuesHeight = 0, valuesShift = 0;
  /// Actual off-diagonal non-zeros of the pattern.
  std::size_t offDiagonalNonZeros = 0;
  /// Per CSR entry (pattern order): where its value lives.
  std::vector<SegmentSlot> entrySlots;
  /// Per values-texture element 4 (y * valuesWidth + x) + channel: the CSR entry stored
  /// there, or -1 for padding.
  std::vector<std::int64_t> slotEntries;

  /// Stored off-diagonal slots (padding included) / actual off-diagonal non-zeros (>= 1).
  double paddingRatio() const;
  /// Passes of one internal product on the fragment backend (rectangle draws counted once
  /// per group; segments longer than kMaxSegmentPerPass take several); the compute
  /// backend takes one dispatch.
  int passesPerApply() const;
};

/// Segment entries summed by one fragment pass; longer segments take several passes.
inline constexpr int kMaxSegmentPerPass = 64;

/// A plan: the layout, the internal order and the index textures' contents (R: a segment
/// start per internal texel; C: a column per values texel element).
struct SegmentPlan {
  SegmentLayout layout;
  RowPlacement rows;
  std::vector<float> segmentStarts;
  std::vector<float> columns;
};

/// Checks A and the options (std::invalid_argument for an invalid, non-square or empty
/// matrix or tiles that are not a power of two wide; gl::Error from n = 2^24 on), then
/// runs steps 1 to 6 and sizes the values texture (gl::Error when it exceeds
/// maxTextureSize or its texels reach 2^24). options.interleave must be set. `placed`
/// keeps a given internal order instead of step 2 (a transpose in its matrix's order); its
/// rows are then grouped as in reading order. `where` names the matrix in errors.
SegmentPlan planSegments(const Csr& A, const SegmentOptions& options, int maxTextureSize, const std::string& where,
                         const RowPlacement* placed = nullptr);

}  // namespace texstream::linalg
