// Tests apps/bench/Compare.*: rows matched by op, backend and size; a row more than 10%
// slower or faster is flagged; another GPU kind is named.
#include <catch2/catch.hpp>

#include "Compare.h"

using namespace texstream::bench;

namespace {

Row row(const char* op, const char* backend, std::size_t n, double ms) {
  Row r;
  r.op = op;
  r.backend = backend;
  r.n = n;
  r.ms = ms;
  return r;
}

}  // namespace

TEST_CASE("bench --compare: ratios per row, flags beyond 10%, other GPUs named", "[bench]") {
  Report before, now;
  before.renderer = "NVIDIA H200/PCIe/SSE2, OpenGL 4.6.0 NVIDIA 580.159";
  now.renderer = "NVIDIA H200/PCIe/SSE2, OpenGL 4.6.0 NVIDIA 580.160";
  before.rows = {row("axpy", "compute", 100, 1.0), row("dot", "compute", 100, 1.0), row("cg", "compute", 100, 2.0),
                 row("cg", "compute", 200, 1.0), row("gone", "compute", 100, 1.0)};
  now.rows = {row("axpy", "compute", 100, 1.2), row("dot", "compute", 100, 0.8), row("cg", "compute", 100, 2.1),
              row("cg", "fragment", 100, 9.0), row("new", "compute", 100, 1.0)};
  const Comparison c = compareReports(now, before);
  CHECK(c.matched == 3);
  CHECK(c.slower == 1);
  CHECK(c.faster == 1);
  CHECK(c.warning.empty());
  CHECK_THAT(c.text, Catch::Contains("1.200  SLOWER") && Catch::Contains("0.800  faster") && Catch::Contains("1.050\n"));
  CHECK(gpuKind(now.renderer) == "NVIDIA H200");
  now.renderer = "NVIDIA H100 80GB HBM3/PCIe/SSE2, OpenGL 4.6.0";
  CHECK_THAT(compareReports(now, before).warning, Catch::Contains("another GPU (NVIDIA H200, this one NVIDIA H100 80GB HBM3)"));
}
