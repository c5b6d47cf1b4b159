// Tests src/codegen/EbjKernel.* (Bajaj et al. 2004, §4.1) on the CPU: the S block of the
// enhanced block Jacobi method and its costs in each ordering (the paper's 6 -> 4 and
// 38 -> 20), the compiled program of every ordering against S x, the slab kernel's
// conventions (position, diagonal, the slabs each row reads, one variant per slab in the
// source), and unsupported lines and grids refused. The GPU side (the kernels run by
// solvers::EnhancedBlockJacobi) is tests/solvers/stationary/enhanced_block_jacobi.cpp.
#include <catch2/catch.hpp>

#include "codegen/CodegenTestSupport.h"

#include <texstream/codegen/EbjKernel.h>
#include <texstream/solvers/stationary/EnhancedBlockJacobi.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

using namespace texstream;
using namespace texstream::codegen;

namespace {

constexpr EbjBoundary D = EbjBoundary::Dirichlet;
constexpr EbjBoundary N = EbjBoundary::Neumann;

AnnealingSchedule quickSchedule(std::uint64_t seed) {
  AnnealingSchedule s;
  s.seed = seed;
  s.iterations = 20000;
  s.initialTemperature = s.finalTemperature = 0.35;
  return s;
}

}  // namespace

TEST_CASE("EbjKernel: the S block, its orderings and their costs", "[codegen][ebj]") {
  SECTION("the paper's costs: 2D line of 8 (6 -> 4), 3D line of 40 (38 -> 20)") {
    const EbjKernel k2(8, 2, N, EbjOrdering::Stretches), k3(40, 3, N, EbjOrdering::Stretches);
    CHECK(k2.naturalCost() == 6);
    CHECK(k2.cost() == 4);
    CHECK(k3.naturalCost() == 38);
    CHECK(k3.cost() == 20);
    CHECK(EbjKernel(40, 3, N, EbjOrdering::Natural).cost() == 38);
    // The paper's a and b: -1/5 on the end rows, -1/6 inside (their sign convention).
    CHECK(k3.sBlock().at(0, 1) == Approx(1.0 / 5.0));
    CHECK(k3.sBlock().at(1, 0) == Approx(1.0 / 6.0));
    CHECK(k3.sBlock().at(39, 38) == Approx(1.0 / 5.0));
    CHECK(EbjKernel(40, 3, D, EbjOrdering::Natural).sBlock().at(0, 1) == Approx(1.0 / 6.0));
  }
  SECTION("annealed: a valid ordering never costlier than the natural one") {
    const EbjKernel k(24, 3, N, EbjOrdering::Annealed, quickSchedule(3));
    CHECK(k.cost() <= k.naturalCost());
    CHECK(k.cost() >= int((k.sBlock().nonzeros() + 3) / 4));
    std::vector<int> sorted = k.permutation();
    std::sort(sorted.begin(), sorted.end());
    for (int i = 0; i < 24; ++i) REQUIRE(sorted[std::size_t(i)] == i);
  }
  SECTION("the compiled program of every ordering computes S x") {
    for (const EbjOrdering o : {EbjOrdering::Natural, EbjOrdering::Stretches, EbjOrdering::Annealed}) {
      for (const int length : {4, 12, 40}) {
        INFO(ebjOrderingName(o) << ", length " << length);
        const EbjKernel k(length, 3, length == 12 ? D : N, o, quickSchedule(5));
        const std::vector<double> x = test::randomVector(std::size_t(length), 11);
        const std::vector<double> want = k.sBlock().evaluate(x);
        const std::vector<double> got =
            unpermuteVector(interpret(k.program(), permuteVector(x, k.permutation())), k.permutation(), length);
        CHECK(test::relativeError(got, want) < 1e-14);
        for (int s = 0; s < k.slabs(); ++s) {
          for (int p = 0; p < 4; ++p) {
            const int i = k.permutation()[std::size_t(4 * s + p)];
            CHECK(k.slabKernel().position()[std::size_t(i)] == 4 * s + p);
            CHECK(k.slabKernel().diagonal(s)[std::size_t(p)] == k.slabKernel().diagonalAt(i));
          }
        }
      }
    }
  }
  SECTION("unsupported lines are refused clearly") {
    for (const int bad : {0, 2, 6, 41, 260}) {
      INFO("length " << bad);
      CHECK_THROWS_WITH(EbjKernel(bad, 3, D, EbjOrdering::Natural),
                        Catch::Contains("multiple of 4") && Catch::Contains(std::to_string(bad)));
    }
    CHECK_THROWS_WITH(EbjKernel(8, 4, D, EbjOrdering::Natural), Catch::Contains("dimensions must be 2 or 3"));
    AnnealingSchedule s;
    s.restarts = 0;
    CHECK_THROWS_WITH(EbjKernel(8, 2, D, EbjOrdering::Annealed, s), Catch::Contains("restarts"));
  }
}

TEST_CASE("EbjKernel: the slab kernel names its source, one variant per slab", "[codegen][ebj]") {
  const EbjKernel k(16, 3, N, EbjOrdering::Stretches);
  const solvers::EbjSlabKernel& slab = k.slabKernel();
  CHECK(slab.length == 16);
  CHECK(slab.dimensions == 3);
  CHECK(slab.ends == N);
  CHECK(slab.slabs() == 4);
  CHECK(slab.permutation == k.permutation());
  CHECK(slab.name.rfind("ebj/generated/", 0) == 0);
  REQUIRE(slab.blocksRead.size() == 4);
  for (int s = 0; s < 4; ++s) {
    INFO("slab " << s);
    CHECK(slab.source.find("EBJ_SLAB == " + std::to_string(s)) != std::string::npos);
    CHECK(std::is_sorted(slab.blocksRead[std::size_t(s)].begin(), slab.blocksRead[std::size_t(s)].end()));
    for (int J : slab.blocksRead[std::size_t(s)]) {
      if (J != s) CHECK(slab.source.find("uniform sampler2D u_block" + std::to_string(J) + ";") != std::string::npos);
    }
  }
  // The same text, the same name; another ordering, another kernel.
  CHECK(EbjKernel(16, 3, N, EbjOrdering::Stretches).slabKernel().name == slab.name);
  CHECK(EbjKernel(16, 3, N, EbjOrdering::Natural).slabKernel().name != slab.name);
}

TEST_CASE("ebjSlabKernel: the kernel for a grid's lines, unsupported grids refused", "[codegen][ebj]") {
  const solvers::EbjGrid g{.nx = 12, .ny = 5, .nz = 3, .x = N, .y = D, .z = N};
  const solvers::EbjSlabKernel slab = ebjSlabKernel(g, {.ordering = EbjOrdering::Natural});
  CHECK(slab.length == 12);
  CHECK(slab.dimensions == 3);
  CHECK(slab.ends == N);
  CHECK(slab.name == EbjKernel(12, 3, N, EbjOrdering::Natural).slabKernel().name);
  CHECK_THROWS_WITH(ebjSlabKernel({.nx = 10, .ny = 4}), Catch::Contains("nx = 10") && Catch::Contains("multiple of 4"));
  CHECK_THROWS_WITH(ebjSlabKernel({.nx = 8, .ny = 0}), Catch::Contains("empty"));
}
