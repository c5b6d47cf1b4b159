#pragma once
// texstream::linalg::BcrsLayout: where a BcrsMatrix (BcrsMatrix.h) keeps its blocks
// (Buatois et al. 2008, §2.2.3 and §2.3.3), planned on the CPU: no GL context is needed, so
// each step is a function a test can call. planBcrs runs them in order on the internally
// ordered matrix:
//  1. blockRows: the B x B blocks of each block row by increasing block column, their
//     values (duplicates summed) and the diagonal;
//  2. placeBlocks: each block's slot in the block textures: in block-row order, or (2x2
//     blocks) interleaved in slices of kBcrsInterleaveTexels output texels;
//  3. blockTextureShape: the block textures' shape;
//  4. the textures' contents: valueLayer (a layer per block row of a 4x4 block, one for
//     2x2), blockColumnTexels, rowBlockTexels.
// BcrsMatrix orders the rows (optionally by reverse Cuthill–McKee) and uploads the plan.
#include <texstream/linalg/Csr.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace texstream::linalg {

/// Output texels of y per slice of the interleaved 2x2 layout (half a workgroup of the
/// block-row kernel, sparse/spmv_bcrs2_rows.glsl).
inline constexpr std::size_t kBcrsInterleaveTexels = 128;

/// Step 1's result: block row I holds blocks start[I] .. start[I + 1] - 1; block b sits in
/// block column column[b] with values[B^2 b ..] row-major. diagonal: a_ii per row (float
/// sums in CSR order).
struct BcrsBlocks {
  int blockSize = 4;
  std::size_t blockRows = 0;
  std::vector<std::int64_t> start;
  std::vector<std::int32_t> column;
  std::vector<float> values;
  std::vector<float> diagonal;
  std::size_t count() const { return column.size(); }
  /// Blocks of block row I.
  std::size_t inRow(std::size_t I) const { return std::size_t(start[I + 1] - start[I]); }
};

/// Checks a BcrsMatrix's input: std::invalid_argument naming `where` for an invalid,
/// non-square or empty matrix or a block size other than 2 or 4, gl::Error from n = 2^24 on
/// (indices are exact floats).
void requireBcrsInput(const Csr& A, int blockSize, const std::string& where);

/// Step 1 on M (square, validated), blockSize 2 or 4; block rows on threads (RowBlocks.h).
BcrsBlocks blockRows(const Csr& M, int blockSize);

/// Step 3's result: the block columns texture is width x height texels, the values texture
/// width x valuesHeight (whole 4 x 8 tiles when interleaved, TextureTiles.h).
struct BcrsTextureShape {
  std::size_t width = 0, height = 0, valuesHeight = 0;
};

/// Step 3: `stored` slots in a texture 2^k texels wide (at least 4), near square.
BcrsTextureShape blockTextureShape(std::size_t stored, bool interleaved);

/// Step 2's result: block b is stored at slot slotOfBlock[b]; output texel t's first block
/// at texelFirst[t]; `stored` slots in all (the interleaved layout's padding included).
struct BcrsPlacement {
  bool interleaved = false;
  std::vector<std::size_t> slotOfBlock;
  std::vector<std::size_t> texelFirst;
  std::size_t stored = 0;
};

/// Step 2 for an output of usedTexels texels (B = 4: block row t in texel t; B = 2: block
/// rows 2t and 2t + 1). interleave (2x2 only): slice s0 of kBcrsInterleaveTexels texels
/// stores block k of its texel t's first block row at slice start + 2 k S + (t - s0) and
/// of its second at slice start + 2 k S + S + (t - s0) (S = kBcrsInterleaveTexels), a slice
/// as long as its longest block row. mayFallBack: when that padding would take the slots
/// to 2^24 or the texture past maxTextureSize while the block-row order fits, store in
/// block-row order instead (an interleave the caller did not ask for).
BcrsPlacement placeBlocks(const BcrsBlocks& blocks, std::size_t usedTexels, bool interleave, bool mayFallBack,
                          int maxTextureSize);

/// Step 4: layer l of the values texture (4 floats a texel, width x valuesHeight): block
/// b's row l (B = 4) or its whole 2x2 block (B = 2) at its slot, numbered in tiles when
/// interleaved, zeros elsewhere. `texels` is resized and overwritten (reused per layer).
void valueLayer(const BcrsBlocks& blocks, const BcrsPlacement& placement, const BcrsTextureShape& shape, int layer,
                std::vector<float>& texels);
/// Step 4: the block column of each slot (width x height floats; padding slots 0).
std::vector<float> blockColumnTexels(const BcrsBlocks& blocks, const BcrsPlacement& placement,
                                     const BcrsTextureShape& shape);
/// Step 4: per output texel (first slot, blocks of its first block row, blocks of its
/// second (B = 2), 0), 4 floats a texel for usedTexels texels.
std::vector<float> rowBlockTexels(const BcrsBlocks& blocks, const BcrsPlacement& placement, std::size_t usedTexels);

/// Steps 1 to 3 with their limits: gl::Error naming `where` when the slots reach 2^24 or
/// the textures exceed maxTextureSize. interleave: BcrsOptions::interleave; unset, the
/// given default (with fall-back, see placeBlocks). 4x4 blocks are never interleaved.
struct BcrsPlan {
  BcrsBlocks blocks;
  BcrsPlacement placement;
  BcrsTextureShape shape;
};
BcrsPlan planBcrs(const Csr& M, int blockSize, std::size_t usedTexels, std::optional<bool> interleave,
                  bool interleaveByDefault, int maxTextureSize, const std::string& where);

}  // namespace texstream::linalg
