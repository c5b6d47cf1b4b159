#pragma once
// texstream::codegen::PackingState: the cost C(E) (§2.3.1) or C(E1, E2) (§3.3) of an
// expression's non-zero pattern under a permutation that changes by (i, j) swaps
// (§2.3.2), kept up to date in O(m) per swap: the inner loop of the annealer.
//
// A swap of positions i and j exchanges rows i and j of A and b and columns i and j of A
// (so x and y stay consistent). Only blocks in block rows I = i/4, J = j/4 or block
// columns I, J change, and of those only the ones holding a non-zero of rows i, j or
// columns i, j: a swap costs O(non-zeros of those rows and columns + m / 64).
#include <texstream/codegen/LinearExpression.h>
#include <texstream/codegen/SimdCost.h>

#include <cstdint>
#include <vector>

namespace texstream::codegen {

class GaussSeidelSystem;

class PackingState {
 public:
  /// Largest padded size handled: the pattern is kept as two dense bit matrices
  /// (2 x m^2 / 8 bytes, 64 MiB at this size).
  static constexpr int kMaxSize = 16384;
  /// The pattern of e, padded to a multiple of 4, starting from the identity permutation.
  /// Throws std::invalid_argument when e is larger than kMaxSize.
  explicit PackingState(const LinearExpression& e);
  /// The pattern of the iteration expression of s, costed as C(E1, E2).
  explicit PackingState(const GaussSeidelSystem& s);

  bool gaussSeidel() const { return m_gaussSeidel; }
  int paddedSize() const { return m_size; }
  int cost() const { return m_total; }
  /// perm[p] = index of the original expression at position p (LinearExpression.h).
  const std::vector<int>& permutation() const { return m_perm; }
  /// Swaps positions i and j (0 <= i, j < paddedSize()) and returns the new cost; swapping
  /// the same pair again undoes it.
  int swap(int i, int j);
  /// C from scratch over the current pattern (for tests: must equal cost()).
  int recomputeCost() const;

 private:
  PackingState(const LinearExpression& e, bool gaussSeidel);
  BlockMask mask(int blockRow, int blockCol) const;
  /// Adds (sign = +1) or removes (-1) block (K, J)'s contribution to block row K's sums.
  void account(int K, int J, int sign);
  /// Row K's cost from its sums.
  int rowCost(int K) const;
  void recomputeRow(int K);
  /// Calls f(c) for every set bit c of word row r of `bits`.
  template <class F>
  void forEachBit(const std::vector<std::uint64_t>& bits, int r, F&& f) const;

  bool m_gaussSeidel = false;
  int m_size = 0, m_blocks = 0, m_words = 0;
  std::vector<std::uint64_t> m_bits;   ///< row r, column c: bit c % 64 of word r * m_words + c / 64
  std::vector<std::uint64_t> m_tbits;  ///< the transpose (column c, row r)
  std::vector<char> m_b;               ///< b (or b2) non-zero at position p
  std::vector<int> m_perm;
  // Per block row: Σ C_mul, row-major terms of E (or E2) and of E1, and its cost.
  std::vector<int> m_mul, m_rowTerms, m_lowerRowTerms, m_rowCost;
  int m_total = 0;
  // Scratch for swap(): affected block columns of rows I, J and block rows of columns I, J.
  std::vector<int> m_cols, m_rows, m_rowsOfCols, m_colsOfRows;
  std::vector<unsigned> m_colStamp, m_rowStamp;
  unsigned m_stamp = 0;
};

}  // namespace texstream::codegen
