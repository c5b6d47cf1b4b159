// Bajaj et al. 2004, §2.3.1 (cost of one expression) and §3.3 (Gauss–Seidel variant).
#include <texstream/codegen/GaussSeidel.h>
#include <texstream/codegen/SimdCost.h>

#include <algorithm>
#include <bit>

namespace texstream::codegen {

int columnMajorCost(BlockMask mask) {
  int c = 0;
  for (int p = 0; p < 4; ++p) c = std::max(c, std::popcount(unsigned((mask >> (4 * p)) & 0xFu)));
  return c;
}

int rowMajorCost(BlockMask mask) {
  int r = 0;
  for (int p = 0; p < 4; ++p) r += ((mask >> (4 * p)) & 0xFu) != 0 ? 1 : 0;
  return r;
}

BlockCost blockCost(BlockMask mask, bool forceRowMajor) {
  if (mask == 0) return {};
  const int r = rowMajorCost(mask);
  if (forceRowMajor) return {Multiplication::RowMajor, r};
  const int c = columnMajorCost(mask);
  return r < c ? BlockCost{Multiplication::RowMajor, r} : BlockCost{Multiplication::ColumnMajor, c};
}

int summationCost(int rowMajorTerms, bool hasB) { return std::max(rowMajorTerms + (hasB ? 1 : 0) - 1, 0); }

std::vector<std::pair<long long, BlockMask>> blockMasks(const LinearExpression& e) {
  const long long n = e.blocks();
  std::vector<std::pair<long long, BlockMask>> keys;
  keys.reserve(e.nonzeros());
  for (const Entry& x : e.entries()) {
    keys.push_back({(x.row / 4) * n + x.col / 4, BlockMask(1u << (4 * (x.row % 4) + x.col % 4))});
  }
  std::sort(keys.begin(), keys.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::pair<long long, BlockMask>> out;
  for (const auto& [key, bit] : keys) {
    if (!out.empty() && out.back().first == key) {
      out.back().second |= bit;
    } else {
      out.push_back({key, bit});
    }
  }
  return out;
}

namespace {

std::vector<char> blockRowHasB(const LinearExpression& e) {
  std::vector<char> has(std::size_t(e.blocks()), 0);
  for (int i = 0; i < e.size(); ++i) {
    if (e.b()[std::size_t(i)] != 0.0) has[std::size_t(i / 4)] = 1;
  }
  return has;
}

void addBlock(SimdCost& cost, BlockCost bc, int& rowTerms) {
  cost.multiplication += bc.cost;
  if (bc.method == Multiplication::RowMajor) {
    ++cost.rowMajorTerms;
    ++rowTerms;
  } else if (bc.method == Multiplication::ColumnMajor) {
    ++cost.columnMajorTerms;
  }
}

}  // namespace

SimdCost simdCost(const LinearExpression& e) {
  const int n = e.blocks();
  const auto hasB = blockRowHasB(e);
  std::vector<int> rowTerms(std::size_t(n), 0);
  SimdCost cost;
  for (const auto& [key, mask] : blockMasks(e)) addBlock(cost, blockCost(mask), rowTerms[std::size_t(key / n)]);
  for (int i = 0; i < n; ++i) cost.summation += summationCost(rowTerms[std::size_t(i)], hasB[std::size_t(i)] != 0);
  cost.total = cost.multiplication + cost.summation;
  cost.operations = e.operations();
  return cost;
}

SimdCost simdCost(const GaussSeidelSystem& s) {
  const LinearExpression& m = s.iteration();
  const int n = m.blocks();
  const auto hasB = blockRowHasB(m);
  std::vector<int> lowerTerms(std::size_t(n), 0), upperTerms(std::size_t(n), 0);
  SimdCost cost;
  for (const auto& [key, mask] : blockMasks(m)) {
    const long long i = key / n, j = key % n;
    const BlockMask lower = i > j ? mask : (i == j ? BlockMask(mask & kStrictlyLowerMask) : BlockMask(0));
    const BlockMask upper = BlockMask(mask & ~lower);
    addBlock(cost, blockCost(lower, i == j), lowerTerms[std::size_t(i)]);
    addBlock(cost, blockCost(upper), upperTerms[std::size_t(i)]);
  }
  for (int i = 0; i < n; ++i) {
    cost.summation += summationCost(lowerTerms[std::size_t(i)], false) +
                      summationCost(upperTerms[std::size_t(i)], hasB[std::size_t(i)] != 0);
  }
  cost.total = cost.multiplication + cost.summation;
  cost.operations = s.operations();
  return cost;
}

}  // namespace texstream::codegen
