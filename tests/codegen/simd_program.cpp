// Tests src/codegen/SimdProgram.*: the generated instruction list (Bajaj et al. 2004,
// §2.3.1) evaluated by the CPU interpreter equals the plain evaluation y = A x + b (and a
// plain Gauss–Seidel sweep, §3.3) on random data, and its arithmetic instructions number
// exactly the cost model's C(E).
#include <catch2/catch.hpp>

#include "codegen/CodegenTestSupport.h"

#include <texstream/codegen/Annealer.h>
#include <texstream/codegen/Examples.h>
#include <texstream/codegen/SimdCost.h>
#include <texstream/codegen/SimdProgram.h>

#include <sstream>

using namespace texstream;
using namespace texstream::codegen;

namespace {

void checkExpression(const LinearExpression& e, std::uint64_t seed) {
  const SimdProgram p = compile(e);
  REQUIRE(p.size == e.paddedSize());
  REQUIRE(p.counts().arithmetic() == simdCost(e).total);
  const auto x = test::randomVector(std::size_t(e.size()), seed);
  auto y = interpret(p, x);
  REQUIRE(y.size() == std::size_t(e.paddedSize()));
  for (int i = e.size(); i < e.paddedSize(); ++i) REQUIRE(y[std::size_t(i)] == 0.0);  // padding stays zero
  y.resize(std::size_t(e.size()));
  REQUIRE(test::relativeError(y, e.evaluate(x)) < 1e-13);
}

GaussSeidelSystem randomSystem(int m, double density, double bDensity, std::uint64_t seed) {
  const LinearExpression off = test::randomExpression(m, density, bDensity, seed);
  std::vector<Entry> entries;
  for (const Entry& e : off.entries()) {
    if (e.row != e.col) entries.push_back(e);
  }
  for (int i = 0; i < m; ++i) entries.push_back({i, i, 4.0 + i % 3});
  return GaussSeidelSystem::fromSystem(LinearExpression(m, std::move(entries), off.b()));
}

void checkSweep(const GaussSeidelSystem& s, std::uint64_t seed) {
  const SimdProgram p = compile(s);
  REQUIRE(p.gaussSeidel);
  const auto x = test::randomVector(std::size_t(s.size()), seed);
  auto got = interpret(p, x);
  got.resize(std::size_t(s.size()));
  REQUIRE(test::relativeError(got, s.sweep(x)) < 1e-13);
}

/// The paper's C(E1, E2), adjusted by the two cases SimdProgram.h describes: +1 ADD per
/// block row whose E1 diagonal block is null while E1 (off the diagonal) and E2 both have
/// items to sum, -1 where the diagonal block is non-null, E1 has row-major terms off the
/// diagonal and E2 has no item.
int expectedSweepCount(const GaussSeidelSystem& s) {
  const LinearExpression& m = s.iteration();
  const int n = m.blocks();
  std::vector<int> diagonal(std::size_t(n), 0), lowerRow(std::size_t(n), 0), upperItems(std::size_t(n), 0);
  for (int i = 0; i < m.size(); ++i) {
    if (m.b()[std::size_t(i)] != 0.0) upperItems[std::size_t(i / 4)] = 1;
  }
  for (const auto& [key, mask] : blockMasks(m)) {
    const std::size_t I = std::size_t(key / n), J = std::size_t(key % n);
    const BlockMask lower = I > J ? mask : (I == J ? BlockMask(mask & kStrictlyLowerMask) : BlockMask(0));
    const BlockMask upper = BlockMask(mask & ~lower);
    if (I == J) diagonal[I] = lower != 0;
    if (I != J && lower != 0 && blockCost(lower).method == Multiplication::RowMajor) ++lowerRow[I];
    if (upper != 0 && blockCost(upper).method == Multiplication::RowMajor) ++upperItems[I];
  }
  int count = simdCost(s).total;
  for (std::size_t I = 0; I < std::size_t(n); ++I) {
    if (!diagonal[I] && lowerRow[I] > 0 && upperItems[I] > 0) ++count;
    if (diagonal[I] && lowerRow[I] > 0 && upperItems[I] == 0) --count;
  }
  return count;
}

}  // namespace

TEST_CASE("the interpreter of the generated program equals y = A x + b", "[codegen]") {
  for (int m : {1, 2, 3, 4, 5, 7, 16, 17, 64, 97}) {
    for (double density : {0.02, 0.15, 0.5, 1.0}) {
      for (double bDensity : {0.0, 0.3, 1.0}) {
        INFO("m = " << m << ", density = " << density << ", b density = " << bDensity);
        const LinearExpression e =
            test::randomExpression(m, density, bDensity, std::uint64_t(m * 1000 + density * 100 + bDensity * 10));
        checkExpression(e, std::uint64_t(m));
      }
    }
  }
  // Annealed expressions (mixed row- and column-major terms) and the examples.
  for (int seed = 1; seed <= 4; ++seed) {
    const LinearExpression e = test::randomExpression(40, 0.12, 0.5, std::uint64_t(seed));
    AnnealingSchedule s;
    s.seed = std::uint64_t(seed);
    s.iterations = 20000;
    checkExpression(anneal(e, s).expression, std::uint64_t(seed + 10));
  }
  for (const char* name : {"wave8x8", "rk4-suspension", "ebj2d", "ebj3d"}) {
    INFO(name);
    checkExpression(example(name).expression, 5);
  }
}

TEST_CASE("programs use MUL only without a sum to absorb, and MOV only for products-free rows", "[codegen]") {
  // Block row 0: a diagonal block with b (one MAD on b); block row 1: b only (MOV);
  // block row 2: one full row without b (a DP4 straight into y).
  std::vector<Entry> entries{{0, 0, 1}, {1, 1, 2}, {2, 2, 3}, {3, 3, 4}, {9, 0, 1}, {9, 1, 2}, {9, 2, 3}, {9, 3, 4}};
  std::vector<double> b(12, 0.0);
  b[0] = 1;
  b[5] = 2;
  const SimdProgram p = compile(LinearExpression(12, entries, b));
  const InstructionCounts c = p.counts();
  REQUIRE(c.mad == 1);
  REQUIRE(c.mul == 0);
  REQUIRE(c.dp4 == 1);
  REQUIRE(c.add == 0);
  REQUIRE(c.mov == 1);
  REQUIRE(c.arithmetic() == 2);
  std::istringstream lines(toAssembly(p));
  int instructions = 0;
  for (std::string line; std::getline(lines, line);) instructions += line.rfind("# ", 0) == 0 ? 0 : 1;
  REQUIRE(instructions == c.arithmetic() + c.mov + c.zero);
}

TEST_CASE("the Gauss-Seidel program is one sweep in the permuted order", "[codegen]") {
  for (int m : {1, 3, 4, 9, 33, 64}) {
    for (double density : {0.05, 0.3, 0.8}) {
      for (double bDensity : {0.0, 0.3, 1.0}) {
        INFO("m = " << m << ", density = " << density << ", b density = " << bDensity);
        const GaussSeidelSystem s = randomSystem(m, density, bDensity, std::uint64_t(m + density * 100 + bDensity * 7));
        checkSweep(s, std::uint64_t(m));
        AnnealingSchedule sch;
        sch.iterations = 5000;
        const GaussSeidelSystem annealed = anneal(s, sch).system;
        checkSweep(annealed, std::uint64_t(m + 1));
        REQUIRE(compile(s).counts().arithmetic() == expectedSweepCount(s));
        REQUIRE(compile(annealed).counts().arithmetic() == expectedSweepCount(annealed));
      }
    }
  }
  // On the paper's system (b2 non-zero everywhere, E1 diagonal blocks non-null) the count
  // is exactly the paper's cost.
  const Example gs = example("gauss-seidel");
  REQUIRE(compile(gs.system).counts().arithmetic() == 112);
  checkSweep(gs.system, 3);
  // Several sweeps converge to the solution of A x = b.
  std::vector<double> x(64, 0.0);
  const SimdProgram p = compile(gs.system);
  for (int k = 0; k < 60; ++k) x = interpret(p, x);
  REQUIRE(test::relativeError(gs.system.sweep(x), x) < 1e-10);
}
