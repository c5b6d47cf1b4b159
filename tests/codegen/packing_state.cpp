// Tests src/codegen/PackingState.*: the incrementally updated cost equals the cost of the
// permuted expression recomputed from scratch, after any sequence of (i, j) swaps
// (Bajaj et al. 2004, §2.3.2), for plain expressions and Gauss–Seidel sweeps, square
// patterns, non-symmetric ones and sizes that are not multiples of 4 or 64.
#include <catch2/catch.hpp>

#include "codegen/CodegenTestSupport.h"

#include <texstream/codegen/Examples.h>
#include <texstream/codegen/PackingState.h>
#include <texstream/codegen/SimdCost.h>

using namespace texstream;
using namespace texstream::codegen;

namespace {

void checkSwaps(const LinearExpression& e, bool gaussSeidel, std::uint64_t seed, int swaps) {
  PackingState state = gaussSeidel ? PackingState(GaussSeidelSystem(e)) : PackingState(e);
  auto full = [&](const std::vector<int>& perm) {
    return gaussSeidel ? simdCost(GaussSeidelSystem(e).permuted(perm)).total : simdCost(e.permuted(perm)).total;
  };
  REQUIRE(state.cost() == full(state.permutation()));
  std::uint64_t s = seed;
  for (int k = 0; k < swaps; ++k) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    const int i = int((s >> 33) % std::uint64_t(state.paddedSize())),
              j = int((s >> 13) % std::uint64_t(state.paddedSize()));
    const int before = state.cost();
    const int after = state.swap(i, j);
    REQUIRE(after == state.cost());
    if (k % 7 == 0) {
      REQUIRE(state.cost() == state.recomputeCost());
      REQUIRE(state.cost() == full(state.permutation()));
    }
    if (k % 5 == 0) {  // swapping back restores the cost
      REQUIRE(state.swap(i, j) == before);
      state.swap(i, j);
    }
  }
  REQUIRE(state.cost() == full(state.permutation()));
}

}  // namespace

TEST_CASE("PackingState keeps C(E) exact under swaps", "[codegen]") {
  for (int m : {1, 3, 4, 5, 17, 64, 70, 130}) {
    for (double density : {0.05, 0.3}) {
      INFO("m = " << m << ", density = " << density);
      const LinearExpression e = test::randomExpression(m, density, 0.4, std::uint64_t(m * 10 + density * 100));
      checkSwaps(e, false, std::uint64_t(m), 300);
      checkSwaps(e, true, std::uint64_t(m + 1), 300);
    }
  }
  for (const auto& name : exampleNames()) {
    INFO(name);
    const Example ex = example(name);
    checkSwaps(ex.expression, ex.gaussSeidel, 99, 400);
  }
}

TEST_CASE("PackingState rejects positions outside the expression", "[codegen]") {
  PackingState state(test::randomExpression(6, 0.5, 0.5, 3));
  REQUIRE(state.paddedSize() == 8);
  REQUIRE(state.swap(2, 2) == state.cost());
  REQUIRE_THROWS_WITH(state.swap(0, 8), Catch::Contains("positions are 0..7"));
  REQUIRE_THROWS_AS(state.swap(-1, 0), std::out_of_range);
}
