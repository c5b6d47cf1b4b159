#pragma once
// texstream::linalg::SegmentMatrix: any square sparse matrix in the layout of Bolz et al.
// 2003, §3.1.1 and §3.2 (the "segment" layout for unstructured meshes).
//
// Where each row, segment and entry goes is planned on the CPU (SegmentLayout.h, step by
// step); the matrix uploads the plan and keeps its SegmentLayout (layout()).
//
// Storage (all in the matrix's INTERNAL row order, see below):
// - diagonal: a vector in internalLayout(), a_ii at x_i's own position.
// - off-diagonal values (offDiagonalValues(), RGBA32F): one segment per row. The four rows
//   of one internal texel t share a run of K_t texels (K_t = the texel's bucketed maximum
//   off-diagonal count), R[t] + c * stride for c < K_t (stride 1: consecutive, as Bolz;
//   see SegmentOptions::interleave and SegmentGroup::stride: interleaved by default on the
//   compute backend, consecutive on the fragment one), channel c of that run
//   holding row 4t+c's entries in CSR order; shorter rows are padded with zeros.
// - R (segmentStarts(), R32F, internal layout's W x H): per internal texel the index of the
//   first texel of its segment in the values texture (exact float; values texels are
//   numbered in 4 x 8 tiles, 32 consecutive indices a tile: TextureTiles.h says why).
//   Segments follow the order rows were placed in (reading order, or tile by tile), so one
//   workgroup's segments are contiguous.
// - C (columns(), RGBA32F, laid out like the values): per entry the internal element index
//   of x_j (exact float); padded entries point at one constant element that is always zero
//   (the last element of the internal texture, Layout padding: Bolz §3.2.2 "Notes").
// y = A x renders, for each distinct K, the rectangles of texels with that K bound to the
// program spmv_segment.glsl compiled with #define K (Bolz §3.1.1); K is bucketed (exact up
// to 16, then multiples of 4, 8, 16) so that few programs exist, small groups join the
// next larger one (SegmentOptions::mergeBelow: a pass costs more than a little padding),
// and segments longer than kMaxSegmentPerPass are summed over several passes (partial sums
// ping-pong). The compute backend takes every group in one dispatch instead
// (spmv_segment_spans.glsl: a table of the groups' rectangles, K a value in it, not a
// #define), and splits segments of 16 or more entries over 4 or 8 invocations per texel:
// the coarse levels of aggregation multigrid have rows of 30 to 120 entries and too few
// texels to hide one invocation's chain of K gathers, and their many groups spent more time
// between dependent dispatches than in them. A matrix of one group of short rows (fewer
// than 16 entries: a mesh's) keeps the per-group program on the compute backend too, one
// pass either way, K a #define (faster: SegmentMatrix.cpp, productPerGroup), and so does
// its fused product and dot (applyInternalAndDot, sparse/spmv_segment_dot.glsl) when the
// group covers the whole texture.
//
// Internal order: rows sorted by decreasing off-diagonal count, placed in texels either
//  - GroupRectangles: in reading order, so each count group is a contiguous run of texels
//    (one rectangle plus at most a partial first and last texel row), or
//  - IdenticalTiles (Bolz §3.2.2): identical tileWidth x tileHeight rectangles filled
//    greedily in decreasing cost, each rendered with the cheapest program valid for all
//    its rows; texels of a partly filled last tile are dead slots.
// The permutation is the library's business (PermutedMatrix.h): apply()/diagonal() take
// and return USER-order vectors of n elements, gathered around the product; internal() is
// the same matrix on INTERNAL-order vectors (internalLayout(), dead slots are identity
// rows holding zero), which solvers run on.
//
// Values written on the GPU (Bolz §3.1.2, curvature flow): build with fromPattern(), then
// render into mutableOffDiagonalValues() (texel (x, y), channel c <-> CSR entry
// layout().slotEntries[4 (y * valuesWidth + x) + c], or -1 for padding, which must stay 0) and
// into mutableDiagonal() (internal layout; dead slots must hold a finite non-zero value,
// 1 is what the matrix puts there; Layout padding must stay 0).
#include <texstream/gl/Buffer.h>
#include <texstream/gl/Texture.h>
#include <texstream/linalg/Csr.h>
#include <texstream/linalg/PermutedMatrix.h>
#include <texstream/linalg/SegmentLayout.h>
#include <texstream/stream/Pass.h>
#include <texstream/stream/Vector.h>

#include <memory>
#include <span>
#include <string>
#include <vector>

namespace texstream::linalg {

/// The layout `options` gives on the current backend: options.interleave if set, else
/// true on Backend::Compute and false on Backend::Fragment.
bool resolveInterleave(const SegmentOptions& options);

class SegmentMatrix : public PermutedMatrix {
 public:
  /// A square CSR matrix (validated; std::invalid_argument otherwise). Zero rows, empty
  /// rows and rows of any length are fine. gl::Error when textures exceed the GPU limits
  /// or an index does not fit an exact float (more than 2^24 elements or values texels).
  SegmentMatrix(const Csr& A, std::string name, SegmentOptions options = {});
  /// The pattern of `pattern` (its values ignored), all values zero: for matrices whose
  /// entries are computed on the GPU.
  static SegmentMatrix fromPattern(const Csr& pattern, std::string name, SegmentOptions options = {});

  /// A^T as its own SegmentMatrix (Bolz §3.1.1: transposed products need an explicit
  /// A^T), with the SAME internal order as A (so internal vectors are interchangeable);
  /// built from the current values (downloaded if they were written on the GPU).
  SegmentMatrix transposed(std::string name) const;

  /// New values for the pattern, one per CSR entry in the pattern's order (duplicates
  /// summed). std::invalid_argument on a wrong count or a non-finite value.
  void setValues(const std::vector<double>& csrValues);
  /// The same, with a diagonal per row (user order) added to the pattern's diagonal
  /// entries: for patterns without diagonal entries (a mesh's edges). std::invalid_argument
  /// on a wrong count or a non-finite value.
  void setValues(const std::vector<double>& csrValues, std::span<const double> diagonal);
  /// The current matrix (downloads the GPU values, tails included): same pattern, entry
  /// order as built.
  Csr toCsr() const;

  /// Whether setValues keeps the entries' tails (SegmentOptions::entryTails); takes effect
  /// at the next setValues. false drops the tails at once.
  void setKeepEntryTails(bool keep);
  /// Whether tails of the current values are held: set by setValues with entryTails on
  /// when some entry is not a float; dropped by mutableDiagonal() and
  /// mutableOffDiagonalValues() (values computed on the GPU are floats).
  bool hasEntryTails() const { return m_hasTails; }
  /// The tails, laid out like offDiagonalValues() and internalDiagonal() (hasEntryTails()
  /// only; gl::Error naming the matrix otherwise).
  const gl::Texture& offDiagonalTails() const;
  const stream::Vector& diagonalTails() const;

  /// Bytes of one internal product: diagonal, R, values and C texels read (padded entries
  /// included), x once, y written; the gathers of x per entry come from caches.
  double bytesPerApply() const override;
  /// Stored non-zeros (diagonal n plus off-diagonal entries, padding excluded).
  double flopsPerApply() const override;

  // ---- INTERNAL order (PermutedMatrix.h) ------------------------------------------
  /// y = A x on internal vectors (both internalLayout()).
  void applyInternal(const stream::Vector& x, stream::Vector& y) const override;
  /// r = b - A x in double-float arithmetic on internal vectors (spmv_segment.glsl,
  /// DOUBLE_FLOAT_RESIDUAL; long rows carry the pair between chunks).
  void residualInternalInDoubleFloat(const DoubleFloatVector& b, const DoubleFloatVector& x,
                                     stream::Vector& r) const override;
  /// y = A x in double-float arithmetic on internal pairs (DOUBLE_FLOAT_PRODUCT), with the
  /// entries' tails when the matrix holds them (hasEntryTails()): double-float CG's product.
  void applyInternalInDoubleFloat(const DoubleFloatVector& x, DoubleFloatVector& y) const override;
  /// applyInternal, then epilogue(y . x). On the compute backend the dot product is folded
  /// into the product's one dispatch (sparse/spmv_segment_spans.glsl with WITH_DOT): one
  /// pass fewer per CG iteration. On the fragment backend the product and a reduction.
  void applyInternalAndDot(const stream::Vector& x, stream::Vector& y,
                           const stream::Epilogue& epilogue) const override;
  /// The product gathers single elements of x: true.
  bool internalGathersElements() const override { return true; }
  /// applyInternalAndDot with the gathers reading x's elements from `xCopy` (compute
  /// backend, GATHER_ELEMENTS in sparse/spmv_segment_product.glsl): 4-byte loads instead of
  /// 16-byte texels. gl::Error unless xCopy has internalLayout(); the fragment backend's
  /// product and reduction ignore it.
  void applyInternalAndDotWithCopy(const stream::Vector& x, const stream::ElementCopy& xCopy, stream::Vector& y,
                                   const stream::Epilogue& epilogue) const override;
  /// y = (A - diag(A)) x on internal vectors: e.g. row sums of the off-diagonal part with
  /// x = 1.
  void applyOffDiagonal(const stream::Vector& x, stream::Vector& y) const;

  // ---- The layout, the textures and the CSR <-> texel mapping (Bolz §3.1.2) ---------
  /// Groups, shapes, shifts and the entry <-> slot mapping (SegmentLayout.h).
  const SegmentLayout& layout() const { return m_layout; }
  /// Whether the compute backend's product (applyInternal, apply) runs one program per
  /// group, K a #define (a matrix of one group of rows shorter than 16 entries), rather
  /// than the span kernel that takes every group in one dispatch; chosen from the layout.
  bool computeProductPerGroup() const;
  /// The diagonal texture (internalLayout()), for passes that compute a_ii on the GPU.
  gl::Texture& mutableDiagonal() {
    m_hasTails = false;
    return storedDiagonal().mutableTexture();
  }
  const gl::Texture& offDiagonalValues() const { return m_values; }
  /// The off-diagonal values texture, for passes that compute a_ij on the GPU: write all
  /// of it (padding channels 0) or only the slots layout().slotEntries names.
  gl::Texture& mutableOffDiagonalValues() {
    m_hasTails = false;
    return m_values;
  }
  /// C, laid out like the values.
  const gl::Texture& columns() const { return m_columns; }
  /// R, in the internal layout's texels.
  const gl::Texture& segmentStarts() const { return m_starts; }

 private:
  /// applyInternalAndDot, gathering x from xCopy when it is given.
  void productAndDot(const stream::Vector& x, const stream::ElementCopy* xCopy, stream::Vector& y,
                     const stream::Epilogue& epilogue) const;
  SegmentMatrix(const Csr& A, std::string name, SegmentOptions options, const RowPlacement* placed);
  /// Throws gl::Error naming the matrix and `what` unless x, y are distinct non-empty
  /// vectors in internalLayout().
  void requireInternalProduct(const stream::Vector& x, const stream::Vector& y, const std::string& what) const;
  void applyGroups(const stream::Vector& x, stream::Vector& y, bool withDiagonal, const std::string& what) const;
  void uploadValues(const std::vector<double>& csrValues, std::span<const double> extraDiagonal);
  /// The double-float passes: r = b - A x (b, r given) or y = A x (y given).
  void doubleFloatGroups(const DoubleFloatVector* b, const DoubleFloatVector& x, stream::Vector* r,
                         DoubleFloatVector* y) const;

  SegmentOptions m_options;
  Csr m_pattern;
  SegmentLayout m_layout;
  gl::Texture m_values, m_columns, m_starts;
  gl::Texture m_valueTails;       // allocated the first time tails are kept
  stream::Vector m_diagonalTails;
  bool m_hasTails = false;
  mutable std::unique_ptr<gl::Buffer> m_dotScratch;  // applyInternalAndDot: counter + a float per workgroup (of one path)
  /// The compute product's span table (sparse/spmv_segment_spans.glsl): one entry per
  /// rectangle of each group, built at the first compute product.
  struct SpanDispatch {
    int spans = 0;              ///< entries of the table
    int groupsX = 0, groupsY = 0;  ///< the dispatch (groupsX * groupsY >= the spans' workgroups)
  };
  const SpanDispatch& spanDispatch() const;
  /// The span kernel's textures, uniforms and table on `p` (both its variants).
  void bindSpanProduct(stream::Pass& p, const stream::Vector& x, bool withDiagonal) const;
  mutable std::unique_ptr<gl::Buffer> m_spanTable;
  mutable SpanDispatch m_spanDispatch;
};

}  // namespace texstream::linalg
