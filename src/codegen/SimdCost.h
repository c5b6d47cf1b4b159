#pragma once
// texstream::codegen: the instruction-count cost model of Bajaj et al. 2004, §2.3.1 (and its
// Gauss–Seidel variant, §3.3), for the abstract four-wide SIMD machine of §2.1 (MUL, MAD,
// DP4, ADD; free swizzles and write masks; one instruction per cycle).
//
// A is padded to m = 4n and cut into 4 x 4 blocks A_IJ; T_IJ = A_IJ x_J.
//  - Column-major cost c(I, J): A_IJ is "peeled off vertically", one skin per instruction
//    (one MUL, then MADs). Because any component of x_J may be swizzled into any lane,
//    a skin takes the next non-zero of every row, so c = the largest number of non-zeros
//    in a row of the block (the paper's Figure 1(a): rows with 2, 3, 1, 2 non-zeros
//    give c = 3, although all four columns are non-zero).
//  - Row-major cost r(I, J): one DP4 per row of A_IJ with a non-zero.
//  - C_mul(I, J) = min(c, r); column-major on ties, because its first MUL can become a
//    MAD that also adds the running sum (it "absorbs" one ADD).
//  - C_sum(I): the row-major products T_IJ and a non-null b_I are combined with ADDs, then
//    the column-major MADs accumulate on the result. With S = (row-major terms) + [b_I
//    non-null] items, that is S - 1 ADDs. The paper writes C_sum = n_r if b_I is
//    non-trivial, n_r - 1 otherwise, which is S - 1; for S = 0 (only column-major terms and
//    no b_I, or an empty block row) it would give -1, while the real count is 0, so we
//    count max(S - 1, 0). The paper's own numbers agree with the clamp: the enhanced block
//    Jacobi S blocks of §4.1 (no b at all) cost 6 (2D) and 38 (3D) before transformation,
//    which the unclamped formula would make 4 and 28.
//  - C(E) = Σ C_mul + Σ C_sum.
// Gauss–Seidel (§3.3): C(E1, E2) = C(E1) + C(E2), with E1 = A1 x^(l) (strictly lower
// part, no b) and E2 = A2 x^(l-1) + b2; the diagonal blocks of E1 are always row-major
// (the new x^(l) of a block must be computed one element after the other).
#include <texstream/codegen/LinearExpression.h>

#include <cstdint>

namespace texstream::codegen {

class GaussSeidelSystem;

/// How a block product T_IJ is evaluated.
enum class Multiplication { None, ColumnMajor, RowMajor };

/// Bit 4p + q of a block mask is set when entry (p, q) of the 4 x 4 block is non-zero.
using BlockMask = std::uint16_t;
/// Bits (p, q) with q < p: the strictly lower triangle of a diagonal block.
inline constexpr BlockMask kStrictlyLowerMask = 0x7310;  // (1,0) (2,0) (2,1) (3,0) (3,1) (3,2)

/// c_E: the number of vertical peels, the largest row non-zero count of the block.
int columnMajorCost(BlockMask mask);
/// r_E: the number of rows of the block with a non-zero.
int rowMajorCost(BlockMask mask);

struct BlockCost {
  Multiplication method = Multiplication::None;
  int cost = 0;  ///< instructions of the product (0 for a null block)
};
/// C_mul and the method chosen (column-major on ties); `forceRowMajor` for the diagonal
/// blocks of the Gauss–Seidel E1.
BlockCost blockCost(BlockMask mask, bool forceRowMajor = false);
/// C_sum of a block row: max(rowMajorTerms + [hasB] - 1, 0) ADDs.
int summationCost(int rowMajorTerms, bool hasB);

/// C(E) split as in §2.3.1, and the efficiency of Table 2 (d = operations / cost).
struct SimdCost {
  int total = 0;           ///< C(E) = multiplication + summation
  int multiplication = 0;  ///< Σ C_mul (MUL/MAD/DP4)
  int summation = 0;       ///< Σ C_sum (ADD)
  int rowMajorTerms = 0;
  int columnMajorTerms = 0;
  long long operations = 0;  ///< scalar operations of a plain evaluation (Table 2, column a)
  double efficiency() const { return total > 0 ? double(operations) / double(total) : 0.0; }
};

/// C(E) of y = A x + b (§2.3.1).
SimdCost simdCost(const LinearExpression& e);
/// C(E1, E2) of one Gauss–Seidel sweep (§3.3).
SimdCost simdCost(const GaussSeidelSystem& s);

/// The mask of every non-null block of e: (I * n + J, mask), sorted by key (n = e.blocks()).
std::vector<std::pair<long long, BlockMask>> blockMasks(const LinearExpression& e);

}  // namespace texstream::codegen
