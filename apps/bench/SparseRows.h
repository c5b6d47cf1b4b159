#pragma once
// Rows shared by the cases that measure a sparse SPD matrix (SparseBench.cpp): SpMV in
// chosen storage formats and one CG iteration, each beside cuSPARSE and Eigen on the same
// CSR matrix and vectors, every row checked against the double-precision product (or k
// iterations of double CG) in the user's order. The mesh systems of the "sparse" case and
// the least-squares systems of the "lscm" and "dsi" cases go through it.
#include "BenchCase.h"

#include <texstream/geometry/Mesh.h>
#include <texstream/linalg/Csr.h>

#include <string>
#include <vector>

namespace texstream::bench {

/// The storage formats a row can measure (ops "spmv.<name>.<tag>", "cg_iteration.<name>.<tag>").
enum class SparseFormat {
  SegmentGroups,             ///< "segment.groups": Bolz §3.2's rectangles per group
  SegmentTiles,              ///< "segment.tiles": identical tiles
  SegmentTilesInterleaved,   ///< "segment.tiles_interleaved"
  SegmentGroupsInterleaved,  ///< "segment.groups_interleaved"
  SegmentTilesUnmerged,      ///< "segment.tiles_unmerged": no group merging
  Bcrs2,                     ///< "bcrs2": Buatois §2.2.3
  Bcrs4,                     ///< "bcrs4"
  Bcrs4Rcm,                  ///< "bcrs4_rcm": after reverse Cuthill–McKee
};

struct SparseRowsSpec {
  std::string tag;  ///< suffix of every op ("mesh37k", "lscm26k")
  std::vector<SparseFormat> spmvFormats;
  std::vector<SparseFormat> cgFormats;  ///< a subset of spmvFormats
  /// k: CG iterations timed together (tolerance 0 from x = 0), then divided by k.
  int cgIterations = 50;
  /// Adds "spmv.segment_user.<tag>": apply() in the user's order (the first spmv format
  /// must then be a segment format).
  bool userOrderRow = false;
  std::string matrixNote;  ///< prefixed to every row's note ("LSCM normal matrix")
};

/// The SpMV and CG-iteration rows of spec on A (square, SPD), with their peers.
void sparseMatrixRows(BenchContext& ctx, const linalg::Csr& A, const SparseRowsSpec& spec);

/// The curvature-flow system of Bolz §3 on `mesh` (closed: no held rows), assembled on the
/// CPU in double precision. SPD: 4 diag(A_i) plus λΔt times the cotangent stiffness matrix.
linalg::Csr curvatureMatrix(const geometry::Mesh& mesh, double lambdaDt);

}  // namespace texstream::bench
