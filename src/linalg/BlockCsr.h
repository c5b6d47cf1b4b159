#pragma once
// texstream::linalg::BlockCsr: a sparse matrix of small dense blocks on the CPU, in double
// (block compressed sparse rows, the CPU side of the BCRS layout of Buatois et al. 2008,
// §3.2). Aggregation multigrid's set-up (solvers/multigrid/AggregationHierarchy.h) multiplies in this
// form: LSCM's normal matrix is 2x2 blocks, its prolongators 2x4 and its coarse levels 4x4,
// and a block product does a small dense product per pair of blocks where Gustavson's
// scalar product pays an index lookup and an accumulator probe per multiply-add.
#include <texstream/linalg/Csr.h>
#include <texstream/linalg/LargeArrays.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace texstream::linalg {

/// The largest block side (a near-null space of up to 16 vectors on multigrid's coarse levels).
inline constexpr int kMaxBlockSize = 16;

struct BlockCsr {
  /// Scalar rows and columns per block, each 1 to kMaxBlockSize (1, 2 and 4 have unrolled
  /// product loops).
  int blockRows = 1, blockCols = 1;
  /// The size in blocks.
  std::size_t rows = 0, cols = 0;
  std::vector<std::int64_t> rowPtr;  ///< rows + 1 offsets into colIdx, in blocks
  /// Block columns, ascending in each block row. The two large arrays skip the serial zero
  /// fill (LargeArrays.h): the threaded loops that make them write every element.
  UninitializedVector<std::int32_t> colIdx;
  /// blockRows x blockCols values per block, row-major, block after block.
  UninitializedVector<double> values;

  std::size_t blocks() const { return colIdx.size(); }
  int blockValues() const { return blockRows * blockCols; }
  /// Throws std::invalid_argument naming the first problem (a block size out of range, row
  /// pointer not monotone, a block column out of range or out of order, sizes disagree).
  void validate(const std::string& what) const;

  /// A's blocks: every blockRows x blockCols tile of A holding an entry, the tile's other
  /// entries 0 (duplicates summed). std::invalid_argument when A is invalid, or a block size
  /// is out of range or does not divide A's.
  static BlockCsr fromCsr(const Csr& A, int blockRows, int blockCols);
  /// Every value of every block as a scalar entry, columns ascending in each row: zeros
  /// inside a block too (the structural pattern), or, with dropZeros, only the values that
  /// are not exactly 0 (an operator applied many times reads fewer entries).
  Csr toCsr(bool dropZeros = false) const;
};

/// A^T: block (j, i) is block (i, j) transposed (blockCols x blockRows blocks).
BlockCsr transpose(const BlockCsr& A);
/// A B (A.blockRows x B.blockCols blocks), block columns ascending in each block row,
/// blocks that cancel to exactly 0 kept: Gustavson's row-by-row product with a dense
/// accumulator of blocks, rows split over threads (RowBlocks.h). std::invalid_argument when
/// A or B is invalid or A's columns are not B's rows (in blocks and in scalars).
BlockCsr multiply(const BlockCsr& A, const BlockCsr& B);

}  // namespace texstream::linalg
