// Tests src/codegen/Examples.* with the annealer: the paper's systems (Bajaj et al. 2004,
// §3.1–3.3, §4.1) reach the costs the paper reports after transformation, and for each
// the optimum is shown attainable by an explicit ordering (an equitable partition into
// blocks of four, from symmetries of the grid), so the bound ceil(nnz / 4) is the optimum.
#include <catch2/catch.hpp>

#include <texstream/codegen/Annealer.h>
#include <texstream/codegen/Examples.h>
#include <texstream/codegen/SimdCost.h>

#include <array>
#include <functional>
#include <set>

using namespace texstream;
using namespace texstream::codegen;

namespace {

/// Groups the cells of a grid into blocks of four: the orbits of a group of grid symmetries
/// (`images` maps a cell to its three images), in order of first appearance.
std::vector<int> orbitPermutation(int cells, const std::function<std::array<int, 3>(int)>& images) {
  std::vector<int> perm;
  std::set<int> used;
  for (int v = 0; v < cells; ++v) {
    if (used.count(v)) continue;
    const auto img = images(v);
    const std::set<int> orbit{v, img[0], img[1], img[2]};
    REQUIRE(orbit.size() == 4);  // the group acts freely
    for (int u : orbit) {
      perm.push_back(u);
      used.insert(u);
    }
  }
  return perm;
}

}  // namespace

TEST_CASE("explicit orderings attain the lower bound ceil(nnz / 4)", "[codegen]") {
  SECTION("3D enhanced block Jacobi S block: four parallel stretches of 10 unknowns -> 20") {
    const Example ex = example("ebj3d");
    std::vector<int> perm;
    for (int k = 0; k < 10; ++k) {
      for (int p = 0; p < 4; ++p) perm.push_back(k + 10 * p);
    }
    const SimdCost c = simdCost(ex.expression.permuted(perm));
    REQUIRE(c.total == 20);
    REQUIRE(c.total == (int(ex.expression.nonzeros()) + 3) / 4);
  }
  SECTION("Gauss-Seidel on the 4 x 4 x 4 cube: orbits of two half-turns -> 72 (efficiency 8.0)") {
    const Example ex = example("gauss-seidel");
    auto cell = [](int x, int y, int z) { return x + 4 * (y + 4 * z); };
    const auto perm = orbitPermutation(64, [&](int v) {
      const int x = v % 4, y = v / 4 % 4, z = v / 16;
      return std::array<int, 3>{cell(3 - x, 3 - y, z), cell(x, 3 - y, 3 - z), cell(3 - x, y, 3 - z)};
    });
    const SimdCost c = simdCost(ex.system.permuted(perm));
    REQUIRE(c.total == 72);
    REQUIRE(c.efficiency() == Approx(8.0));  // Table 2, column d
  }
  SECTION("2D wave on 8 x 8: orbits of the two mirror lines -> 72, below our 92 but above the paper's 63") {
    const Example ex = example("wave8x8");
    const auto perm = orbitPermutation(64, [](int v) {
      const int x = v % 8, y = v / 8;
      return std::array<int, 3>{(7 - x) + 8 * y, x + 8 * (7 - y), (7 - x) + 8 * (7 - y)};
    });
    REQUIRE(simdCost(ex.expression.permuted(perm)).total == 72);
  }
}

TEST_CASE("annealing the paper's examples reaches the paper's costs", "[codegen]") {
  // The examples' own schedules (Examples.cpp). The search is random: Examples.h gives the
  // success rates over seeds. To keep this test fast it uses seeds whose first run reaches
  // the cost (gauss-seidel seed 2 near proposal 2.7M, ebj3d seed 7 near 0.83M); the
  // generator is our own, so the runs do not depend on the standard library's <random>.
  struct Case {
    const char* name;
    std::uint64_t seed;
  };
  for (const Case& c : {Case{"ebj2d", 1}, Case{"rk4-suspension", 1}, Case{"gauss-seidel", 2}, Case{"ebj3d", 7}}) {
    INFO(c.name);
    const Example ex = example(c.name);
    AnnealingSchedule s = ex.schedule;
    s.seed = c.seed;
    const AnnealingRun r = ex.gaussSeidel ? anneal(ex.system, s).run : anneal(ex.expression, s).run;
    REQUIRE(r.initialCost == ex.paperCostBefore);
    REQUIRE(r.bestCost == ex.paperCostAfter);
  }
}
