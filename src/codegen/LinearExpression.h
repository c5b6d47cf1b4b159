#pragma once
// texstream::codegen::LinearExpression: E: y = A x + b with constant A (m x m, sparse) and b
// (m), the object of Bajaj, Ihm, Min & Oh 2004, "SIMD optimization of linear expressions
// for programmable graphics hardware" (§2.2). x and y are variables.
//
// Permutations (§2.3.2): an equivalent expression E' is E with rows and columns of A and
// the entries of b, x and y put in another order. A permutation is a vector `perm` with
// perm[p] = the index of E whose row/column/entry sits at position p of E':
//   A'[p][q] = A[perm[p]][perm[q]],  b'[p] = b[perm[p]],  x'[p] = x[perm[p]],  y'[p] = y[perm[p]].
// perm may be longer than m: indices >= m are zero padding (the "augmented" expression of
// §2.2 whose size is a multiple of 4), and the optimizer may move padding anywhere.
#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace texstream::codegen {

/// One non-zero of A.
struct Entry {
  int row = 0, col = 0;
  double value = 0.0;
};

class LinearExpression {
 public:
  LinearExpression() = default;
  /// m x m matrix from entries (any order; exact zeros are dropped) and b (size m, or empty
  /// for b = 0). Throws std::invalid_argument for m < 1, an index outside [0, m), a
  /// duplicate (row, col), a non-finite value or a b of the wrong size, naming the entry.
  LinearExpression(int m, std::vector<Entry> entries, std::vector<double> b = {});
  /// From a dense row-major m x m array (a[i * m + j]) and b (size m or empty).
  static LinearExpression fromDense(int m, std::span<const double> a, std::span<const double> b = {});

  int size() const { return m_size; }
  /// size() rounded up to a multiple of 4 (§2.2: the augmented expression).
  int paddedSize() const { return (m_size + 3) / 4 * 4; }
  /// Number of 4-element blocks n = paddedSize() / 4.
  int blocks() const { return paddedSize() / 4; }
  /// Non-zeros of A, sorted by (row, col).
  const std::vector<Entry>& entries() const { return m_entries; }
  /// Entries [rowStart(i), rowStart(i + 1)) of entries() are row i.
  int rowStart(int i) const { return m_rowStart[std::size_t(i)]; }
  /// b, size() values (zeros where b is null).
  const std::vector<double>& b() const { return m_b; }
  std::size_t nonzeros() const { return m_entries.size(); }
  /// A[i][j] (0 where absent).
  double at(int i, int j) const;

  /// y = A x + b in double precision; x.size() must be size().
  std::vector<double> evaluate(std::span<const double> x) const;
  /// Scalar additions and multiplications of a plain evaluation (the paper's Table 2,
  /// column a): a row with k > 0 non-zeros costs k multiplications and k - 1 additions,
  /// plus one addition when its b is non-zero.
  long long operations() const;

  /// E' for `perm` (see the file comment); perm must be a permutation of [0, perm.size())
  /// with perm.size() >= size(). The result has size perm.size().
  LinearExpression permuted(std::span<const int> perm) const;

 private:
  int m_size = 0;
  std::vector<Entry> m_entries;
  std::vector<int> m_rowStart{0};
  std::vector<double> m_b;
};

/// The identity permutation of length n.
std::vector<int> identityPermutation(int n);
/// Throws std::invalid_argument unless perm is a permutation of [0, perm.size()) and
/// perm.size() >= minSize ("what" names the caller).
void requirePermutation(const char* what, std::span<const int> perm, int minSize);
/// v'[p] = v[perm[p]] (entries past v.size() read as 0).
std::vector<double> permuteVector(std::span<const double> v, std::span<const int> perm);
/// The inverse: out[perm[p]] = v'[p] for perm[p] < outSize.
std::vector<double> unpermuteVector(std::span<const double> permuted, std::span<const int> perm, int outSize);

}  // namespace texstream::codegen
