// Bajaj et al. 2004, §2.3.2: (i, j) swaps, and the cost of §2.3.1 / §3.3 kept up to date.
#include <texstream/codegen/GaussSeidel.h>
#include <texstream/codegen/PackingState.h>

#include <array>
#include <bit>
#include <stdexcept>

namespace texstream::codegen {

namespace {

// blockCost() of every mask, packed as cost | (row-major ? 8 : 0) (cost <= 4).
struct CostTable {
  std::array<std::uint8_t, 65536> free{}, rowMajor{};
  CostTable() {
    for (unsigned m = 0; m < 65536; ++m) {
      const BlockCost a = blockCost(BlockMask(m)), b = blockCost(BlockMask(m), true);
      free[m] = std::uint8_t(a.cost | (a.method == Multiplication::RowMajor ? 8 : 0));
      rowMajor[m] = std::uint8_t(b.cost | (b.method == Multiplication::RowMajor ? 8 : 0));
    }
  }
};

const CostTable& table() {
  static const CostTable t;
  return t;
}

}  // namespace

PackingState::PackingState(const LinearExpression& e) : PackingState(e, false) {}
PackingState::PackingState(const GaussSeidelSystem& s) : PackingState(s.iteration(), true) {}

PackingState::PackingState(const LinearExpression& e, bool gaussSeidel)
    : m_gaussSeidel(gaussSeidel), m_size(e.paddedSize()), m_blocks(e.blocks()), m_words((e.paddedSize() + 63) / 64) {
  if (m_size > kMaxSize) {
    throw std::invalid_argument("PackingState: the expression has " + std::to_string(e.size()) +
                                " unknowns; the optimizer handles at most " + std::to_string(kMaxSize) +
                                " (it is meant for shader-sized expressions)");
  }
  const std::size_t words = std::size_t(m_size) * std::size_t(m_words);
  m_bits.assign(words, 0);
  m_tbits.assign(words, 0);
  for (const Entry& x : e.entries()) {
    m_bits[std::size_t(x.row) * std::size_t(m_words) + std::size_t(x.col / 64)] |= std::uint64_t(1) << (x.col % 64);
    m_tbits[std::size_t(x.col) * std::size_t(m_words) + std::size_t(x.row / 64)] |= std::uint64_t(1) << (x.row % 64);
  }
  m_b.assign(std::size_t(m_size), 0);
  for (int i = 0; i < e.size(); ++i) m_b[std::size_t(i)] = e.b()[std::size_t(i)] != 0.0;
  m_perm = identityPermutation(m_size);
  const std::size_t n = std::size_t(m_blocks);
  m_mul.assign(n, 0);
  m_rowTerms.assign(n, 0);
  m_lowerRowTerms.assign(n, 0);
  m_rowCost.assign(n, 0);
  m_colStamp.assign(n, 0);
  m_rowStamp.assign(n, 0);
  for (int K = 0; K < m_blocks; ++K) {
    recomputeRow(K);
    m_total += m_rowCost[std::size_t(K)];
  }
}

BlockMask PackingState::mask(int K, int J) const {
  const std::size_t word = std::size_t(J) / 16, shift = (std::size_t(J) % 16) * 4;
  const std::uint64_t* row = &m_bits[std::size_t(4 * K) * std::size_t(m_words) + word];
  const std::size_t w = std::size_t(m_words);
  return BlockMask(((row[0] >> shift) & 0xFu) | (((row[w] >> shift) & 0xFu) << 4) |
                   (((row[2 * w] >> shift) & 0xFu) << 8) | (((row[3 * w] >> shift) & 0xFu) << 12));
}

void PackingState::account(int K, int J, int sign) {
  const BlockMask m = mask(K, J);
  if (m == 0) return;
  const std::size_t k = std::size_t(K);
  const CostTable& t = table();
  if (!m_gaussSeidel) {
    const unsigned c = t.free[m];
    m_mul[k] += sign * int(c & 7u);
    if (c & 8u) m_rowTerms[k] += sign;
    return;
  }
  const BlockMask lower = K > J ? m : (K == J ? BlockMask(m & kStrictlyLowerMask) : BlockMask(0));
  const unsigned lc = K == J ? t.rowMajor[lower] : t.free[lower], uc = t.free[BlockMask(m & ~lower)];
  m_mul[k] += sign * int((lc & 7u) + (uc & 7u));
  if ((lc & 8u) && lower != 0) m_lowerRowTerms[k] += sign;
  if (uc & 8u) m_rowTerms[k] += sign;
}

int PackingState::rowCost(int K) const {
  const std::size_t k = std::size_t(K);
  const char* b = &m_b[std::size_t(4 * K)];
  const bool hasB = b[0] || b[1] || b[2] || b[3];
  int cost = m_mul[k] + summationCost(m_rowTerms[k], hasB);
  if (m_gaussSeidel) cost += summationCost(m_lowerRowTerms[k], false);
  return cost;
}

void PackingState::recomputeRow(int K) {
  const std::size_t k = std::size_t(K);
  m_mul[k] = m_rowTerms[k] = m_lowerRowTerms[k] = 0;
  for (int J = 0; J < m_blocks; ++J) account(K, J, +1);
  m_rowCost[k] = rowCost(K);
}

template <class F>
void PackingState::forEachBit(const std::vector<std::uint64_t>& bits, int r, F&& f) const {
  const std::uint64_t* row = &bits[std::size_t(r) * std::size_t(m_words)];
  for (int w = 0; w < m_words; ++w) {
    for (std::uint64_t v = row[w]; v; v &= v - 1) f(64 * w + std::countr_zero(v));
  }
}

int PackingState::swap(int i, int j) {
  if (i < 0 || j < 0 || i >= m_size || j >= m_size) {
    throw std::out_of_range("PackingState::swap(" + std::to_string(i) + ", " + std::to_string(j) +
                            "): positions are 0.." + std::to_string(m_size - 1));
  }
  if (i == j) return m_total;
  const int I = i / 4, J = j / 4;
  // Affected blocks: block rows I, J in the block columns where rows i, j have non-zeros
  // (and I, J), and the block rows where columns i, j have non-zeros in block columns I, J.
  // Rows with a non-zero in column i or j, and columns with a non-zero in row i or j.
  const std::size_t w = std::size_t(m_words);
  m_rowsOfCols.clear();
  m_colsOfRows.clear();
  for (std::size_t k = 0; k < w; ++k) {
    for (std::uint64_t v = m_tbits[std::size_t(i) * w + k] | m_tbits[std::size_t(j) * w + k]; v; v &= v - 1) {
      m_rowsOfCols.push_back(int(64 * k) + std::countr_zero(v));
    }
    for (std::uint64_t v = m_bits[std::size_t(i) * w + k] | m_bits[std::size_t(j) * w + k]; v; v &= v - 1) {
      m_colsOfRows.push_back(int(64 * k) + std::countr_zero(v));
    }
  }
  // Affected blocks: block rows I, J in the block columns of those columns (and I, J), and
  // the block rows of those rows in block columns I, J.
  ++m_stamp;
  m_cols.clear();
  m_rows.clear();
  auto addCol = [&](int c) {
    const int L = c / 4;
    if (m_colStamp[std::size_t(L)] != m_stamp) {
      m_colStamp[std::size_t(L)] = m_stamp;
      m_cols.push_back(L);
    }
  };
  auto addRow = [&](int r) {
    const int K = r / 4;
    if (K != I && K != J && m_rowStamp[std::size_t(K)] != m_stamp) {
      m_rowStamp[std::size_t(K)] = m_stamp;
      m_rows.push_back(K);
    }
  };
  addCol(i);
  addCol(j);
  for (int c : m_colsOfRows) addCol(c);
  for (int r : m_rowsOfCols) addRow(r);
  const int rowBlocks[2] = {I, J};
  const int rowBlockCount = I == J ? 1 : 2;
  auto accountAll = [&](int sign) {
    for (int a = 0; a < rowBlockCount; ++a) {
      for (int L : m_cols) account(rowBlocks[a], L, sign);
    }
    for (int K : m_rows) {
      for (int a = 0; a < rowBlockCount; ++a) account(K, rowBlocks[a], sign);
    }
  };
  accountAll(-1);

  // A' = P A P^T: exchange rows i and j (of A and of its transpose), then bits i and j in
  // every row that holds one of them (rows r of A with a non-zero in column i or j now sit
  // at sigma(r), sigma exchanging i and j; likewise for the transpose).
  for (std::size_t k = 0; k < w; ++k) {
    std::swap(m_bits[std::size_t(i) * w + k], m_bits[std::size_t(j) * w + k]);
    std::swap(m_tbits[std::size_t(i) * w + k], m_tbits[std::size_t(j) * w + k]);
  }
  const std::uint64_t bi = std::uint64_t(1) << (i % 64), bj = std::uint64_t(1) << (j % 64);
  auto exchangeBits = [&](std::vector<std::uint64_t>& bits, int r) {
    const int at = r == i ? j : (r == j ? i : r);
    std::uint64_t* row = &bits[std::size_t(at) * w];
    if (((row[i / 64] & bi) != 0) != ((row[j / 64] & bj) != 0)) {
      row[i / 64] ^= bi;
      row[j / 64] ^= bj;
    }
  };
  for (int r : m_rowsOfCols) exchangeBits(m_bits, r);
  for (int c : m_colsOfRows) exchangeBits(m_tbits, c);
  std::swap(m_b[std::size_t(i)], m_b[std::size_t(j)]);
  std::swap(m_perm[std::size_t(i)], m_perm[std::size_t(j)]);

  accountAll(+1);
  auto updateRow = [&](int K) {
    const int c = rowCost(K);
    m_total += c - m_rowCost[std::size_t(K)];
    m_rowCost[std::size_t(K)] = c;
  };
  for (int a = 0; a < rowBlockCount; ++a) updateRow(rowBlocks[a]);
  for (int K : m_rows) updateRow(K);
  return m_total;
}

int PackingState::recomputeCost() const {
  std::vector<Entry> entries;
  std::vector<double> b(std::size_t(m_size), 0.0);
  for (int r = 0; r < m_size; ++r) {
    if (m_b[std::size_t(r)]) b[std::size_t(r)] = 1.0;
    forEachBit(m_bits, r, [&](int c) { entries.push_back({r, c, 1.0}); });
  }
  LinearExpression e(m_size, std::move(entries), std::move(b));
  return m_gaussSeidel ? simdCost(GaussSeidelSystem(std::move(e))).total : simdCost(e).total;
}

}  // namespace texstream::codegen
