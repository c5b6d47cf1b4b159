// Tests src/codegen/Annealer.*: simulated annealing (Bajaj et al. 2004, §2.3.3) never
// returns a costlier expression than its input, returns what it claims (the permuted
// expression's cost is bestCost and it evaluates to the permuted y), is reproducible from
// its seed, records a consistent history, stops at the lower bound, and rejects bad
// schedules.
#include <catch2/catch.hpp>

#include "codegen/CodegenTestSupport.h"

#include <texstream/codegen/Annealer.h>
#include <texstream/codegen/SimdCost.h>

using namespace texstream;
using namespace texstream::codegen;

namespace {

AnnealingSchedule quick(std::uint64_t seed, long long iterations) {
  AnnealingSchedule s;
  s.seed = seed;
  s.iterations = iterations;
  return s;
}

void checkHistory(const AnnealingRun& r) {
  REQUIRE(!r.history.empty());
  REQUIRE(r.history.front().iteration == 0);
  REQUIRE(r.history.front().best == r.initialCost);
  for (std::size_t k = 1; k < r.history.size(); ++k) {
    REQUIRE(r.history[k].best <= r.history[k - 1].best);
    REQUIRE(r.history[k].iteration >= r.history[k - 1].iteration);
    REQUIRE(r.history[k].best <= r.history[k].cost);
  }
  REQUIRE(r.history.back().best == r.bestCost);
}

}  // namespace

TEST_CASE("annealing never returns a costlier expression, and returns the one it reports", "[codegen]") {
  for (int m : {1, 2, 5, 8, 23, 40}) {
    for (double density : {0.08, 0.25, 0.6}) {
      INFO("m = " << m << ", density = " << density);
      const LinearExpression e = test::randomExpression(m, density, 0.5, std::uint64_t(m * 31 + density * 10));
      const int before = simdCost(e).total;
      // A hot, short run: most accepted moves go uphill, the best must still be kept.
      AnnealingSchedule hot = quick(7, 3000);
      hot.initialTemperature = hot.finalTemperature = 50.0;
      for (const AnnealingSchedule& s : {quick(3, 20000), hot, quick(5, 0)}) {
        const AnnealedExpression r = anneal(e, s);
        REQUIRE(r.run.initialCost == before);
        REQUIRE(r.run.bestCost <= before);
        REQUIRE(simdCost(r.expression).total == r.run.bestCost);
        REQUIRE(r.expression.nonzeros() == e.nonzeros());
        REQUIRE(r.run.lowerBound == int((e.nonzeros() + 3) / 4));
        REQUIRE(r.run.bestCost >= std::min(r.run.lowerBound, before));
        checkHistory(r.run);
        // The returned expression is equivalent: same y, reordered.
        const auto x = test::randomVector(std::size_t(m), std::uint64_t(m));
        const auto y = e.evaluate(x);
        const auto yp = r.expression.evaluate(permuteVector(x, r.run.permutation));
        REQUIRE(test::relativeError(unpermuteVector(yp, r.run.permutation, m), y) < 1e-13);
      }
      const GaussSeidelSystem g(e);
      const AnnealedGaussSeidel rg = anneal(g, quick(11, 20000));
      REQUIRE(rg.run.bestCost <= simdCost(g).total);
      REQUIRE(simdCost(rg.system).total == rg.run.bestCost);
      checkHistory(rg.run);
    }
  }
}

TEST_CASE("annealing is reproducible from its seed and improves a scrambled expression", "[codegen]") {
  // A scrambled tridiagonal (zero diagonal, 32 unknowns).
  std::vector<int> scramble(32);
  for (int i = 0; i < 32; ++i) scramble[std::size_t(i)] = (i * 13) % 32;
  std::vector<Entry> entries;
  for (int i = 0; i < 32; ++i) {
    if (i > 0) entries.push_back({i, i - 1, 1.0});
    if (i < 31) entries.push_back({i, i + 1, 1.0});
  }
  const LinearExpression tri = LinearExpression(32, entries).permuted(scramble);
  const AnnealedExpression a = anneal(tri, quick(42, 200000)), b = anneal(tri, quick(42, 200000));
  REQUIRE(a.run.permutation == b.run.permutation);
  REQUIRE(a.run.bestCost == b.run.bestCost);
  REQUIRE(a.run.accepted == b.run.accepted);
  REQUIRE(a.run.bestCost < simdCost(tri).total);
  REQUIRE(a.run.bestCost >= a.run.lowerBound);  // 62 non-zeros: at least 16
  REQUIRE(a.run.lowerBound == 16);
  // Another seed searches differently.
  REQUIRE(anneal(tri, quick(43, 200000)).run.permutation != a.run.permutation);
}

TEST_CASE("annealing stops at the lower bound and runs restarts", "[codegen]") {
  // Already optimal (a diagonal with b): nothing to search.
  std::vector<Entry> diag;
  for (int i = 0; i < 8; ++i) diag.push_back({i, i, 2.0});
  const AnnealedExpression d = anneal(LinearExpression(8, diag, std::vector<double>(8, 1.0)), quick(1, 100000));
  REQUIRE(d.run.stoppedEarly);
  REQUIRE(d.run.iterations == 0);
  REQUIRE(d.run.bestCost == 2);
  // Restarts: a run per restart, unless the bound is met; stopAtCost = 0 never stops early.
  const LinearExpression e = test::randomExpression(24, 0.3, 0.5, 9);
  AnnealingSchedule s = quick(3, 5000);
  s.restarts = 3;
  s.stopAtCost = 0;
  const AnnealedExpression r = anneal(e, s);
  REQUIRE(r.run.runs == 3);
  REQUIRE(r.run.iterations == 15000);
  REQUIRE(!r.run.stoppedEarly);
  checkHistory(r.run);
}

TEST_CASE("bad schedules are rejected with the field's name", "[codegen]") {
  const LinearExpression e = test::randomExpression(8, 0.3, 0.5, 1);
  auto bad = [&](auto change, const char* field) {
    AnnealingSchedule s;
    change(s);
    REQUIRE_THROWS_WITH(anneal(e, s), Catch::Contains(field));
  };
  bad([](AnnealingSchedule& s) { s.iterations = -1; }, "iterations");
  bad([](AnnealingSchedule& s) { s.restarts = 0; }, "restarts");
  bad([](AnnealingSchedule& s) { s.initialTemperature = 0.0; }, "initialTemperature");
  bad([](AnnealingSchedule& s) { s.finalTemperature = 5.0; }, "finalTemperature");
  bad([](AnnealingSchedule& s) { s.boltzmann = -1.0; }, "boltzmann");
  bad([](AnnealingSchedule& s) { s.movesPerTemperature = -2; }, "movesPerTemperature");
  bad([](AnnealingSchedule& s) { s.stopAtCost = -5; }, "stopAtCost");
}
