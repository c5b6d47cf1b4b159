#pragma once
// texstream::linalg::BcrsMatrix: block compressed row storage with 2x2 or 4x4 blocks, as in
// the Concurrent Number Cruncher (Buatois et al. 2008, §2.2.3 register blocking, §2.3.3
// storage on vector GPUs).
//
// Rows are cut into block rows of B = 2 or 4 rows, columns likewise; every B x B block
// holding a non-zero is stored whole (zeros inside included: fillRatio() says how full).
// Where each block goes is planned on the CPU (BcrsLayout.h, step by step).
// Textures (blocks numbered b = 0.. in block-row order, block b at texel (b % Wb, b / Wb)):
// - B = 4: output texel t of y is block row t. The 16 values of a block are four RGBA32F
//   sub-arrays (layers of one array texture), layer r holding the block's row r, all four
//   fetched at the same index b (§2.3.3); x's texel J (block column J, four scalars) is
//   read once per block and reused by the four rows: y_t += (r0.x_J, r1.x_J, r2.x_J, r3.x_J).
// - B = 2: output texel t holds block rows 2t and 2t+1; a block is one RGBA32F texel
//   (a00, a01, a10, a11) multiplying the half texel of x that holds block column J.
// - rowBlocks(): per output texel (first block, blocks of its first block row, blocks of
//   its second block row (B = 2)), exact floats; blockColumns(): J per block, exact float.
// - Interleaved (B = 2 only, BcrsOptions::interleave, the default on the compute backend):
//   the output texels are cut into slices of 128; block k of the first block row of a
//   slice's texel s is stored at slice start + 256 k + s, of its second at
//   slice start + 256 k + 128 + s, so the invocations of one subgroup, each taking one
//   block row of neighbouring texels, read neighbouring texels of the block textures. A
//   slice is as long as its longest block row (shorter rows padded with zero blocks).
//   rowBlocks() then gives slice start + s as the first block. The block columns stay at
//   texel (b % Wb, b / Wb); the values texture numbers its texels in 4 x 8 tiles, 32
//   consecutive slots a tile (TextureTiles.h says why).
// The product is one pass whose kernel loops over the blocks of its block rows; with 2x2
// blocks on the compute backend each block row has an invocation of its own
// (sparse/spmv_bcrs2_rows.glsl), the two halves of a texel meeting in shared memory.
//
// Optional reverse Cuthill–McKee reordering (Reordering.h) renumbers rows and columns
// before blocking (fewer, fuller blocks, better locality of x). It makes the internal
// order differ from the user's (PermutedMatrix.h): apply()/diagonal() take and return
// user-order vectors (a gather before and after the product), internal() works on
// internally ordered vectors (internalLayout() = Layout::forSize(n)) with no permutation.
// Without reordering the internal order IS the user order and apply() is one pass.
//
// applyAndDot (CG's w = A u with w . u, LinearOperator.h) folds the dot product into the
// product's own dispatch on the compute backend (sparse/spmv_bcrs_dot.glsl: every
// workgroup leaves a partial sum, the last one folds them and runs the epilogue), as
// SegmentMatrix does: one pass instead of two.
#include <texstream/gl/Buffer.h>
#include <texstream/gl/Texture.h>
#include <texstream/linalg/Csr.h>
#include <texstream/linalg/PermutedMatrix.h>
#include <texstream/stream/Layout.h>
#include <texstream/stream/Vector.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace texstream::linalg {

struct BcrsOptions {
  int blockSize = 4;                 ///< 2 or 4
  bool reverseCuthillMcKee = false;  ///< reorder rows and columns by RCM before blocking
  /// 2x2 blocks: store them interleaved (see the file comment) for the compute backend's
  /// block-row kernel, which then reads neighbouring texels across a subgroup. Unset: from
  /// the backend current when the matrix is built (interleaved on Compute, unless its
  /// padding would take the block count past 2^24 or the GPU's texture size where the
  /// consecutive layout fits); either layout works on either backend. 4x4 blocks are
  /// never interleaved.
  std::optional<bool> interleave;
};

class BcrsMatrix : public PermutedMatrix {
 public:
  /// A square CSR matrix (validated; std::invalid_argument otherwise, and for a block
  /// size other than 2 or 4). gl::Error when a texture exceeds the GPU's limits or the
  /// block count reaches 2^24 (indices are exact floats).
  BcrsMatrix(const Csr& A, std::string name, BcrsOptions options = {});

  /// Stored block values and columns (padding included: the kernel reads it), x once and
  /// y: the gathers of x per block come from caches.
  double bytesPerApply() const override;
  /// 2 x the stored non-zeros of A (useful work only, as Buatois et al. count).
  double flopsPerApply() const override;

  /// y = A x with x (n elements, any layout) and y (internalLayout()) in internal order.
  void applyInternal(const stream::Vector& x, stream::Vector& y) const override;
  /// r = b - A x in double-float arithmetic on internal vectors (spmv_bcrs.glsl,
  /// DOUBLE_FLOAT_RESIDUAL).
  void residualInternalInDoubleFloat(const DoubleFloatVector& b, const DoubleFloatVector& x,
                                     stream::Vector& r) const override;
  /// applyInternal, then epilogue(y . x); x and y both in internalLayout() (gl::Error
  /// otherwise, naming the vector). On the compute backend one dispatch
  /// (sparse/spmv_bcrs_dot.glsl); on the fragment backend the base class's product and
  /// reduction, whose reduceInto throws there (epilogues are compute-only).
  void applyInternalAndDot(const stream::Vector& x, stream::Vector& y,
                           const stream::Epilogue& epilogue) const override;

  int blockSize() const { return m_options.blockSize; }
  std::size_t blocks() const { return m_blocks; }
  /// Blocks stored, the interleaved layout's padding included (blocks() otherwise).
  std::size_t storedBlocks() const { return m_storedBlocks; }
  /// Whether the 2x2 blocks are stored interleaved (BcrsOptions::interleave).
  bool interleaved() const { return m_interleaved; }
  /// Non-zeros of A / stored block entries (B^2 per block), in (0, 1].
  double fillRatio() const;
  /// Bandwidth of the internally ordered matrix (reduced by RCM).
  std::size_t internalBandwidth() const { return m_bandwidth; }

  const gl::Texture& blockValues() const { return m_values; }
  const gl::Texture& blockColumns() const { return m_columns; }
  const gl::Texture& rowBlocks() const { return m_rowBlocks; }

 private:
  /// The kernel reads x by element index (X_WIDTH), so x may come in any layout.
  bool readsAnyXLayout() const override { return true; }
  /// The product's defines, textures and uniforms (sparse/spmv_bcrs_product.glsl).
  void bindProduct(stream::Pass& pass, const stream::Vector& x) const;
  /// The compute backend's 2x2 product runs one invocation per block row
  /// (sparse/spmv_bcrs2_rows.glsl) instead of one per output texel.
  bool blockRowInvocations() const;

  std::size_t m_nonZeros = 0, m_blocks = 0, m_storedBlocks = 0, m_bandwidth = 0;
  bool m_interleaved = false;
  BcrsOptions m_options;
  gl::Texture m_values, m_columns, m_rowBlocks;
  mutable gl::Buffer m_dotScratch;  // applyInternalAndDot: counter + a float per workgroup
  mutable gl::Buffer m_rowsDotScratch;  // the same for the block-row kernel's workgroups
};

}  // namespace texstream::linalg
