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

TEST_CASE("bench --compare with several kept runs: each row against the newest run that has it", "[bench]") {
  Report older, newer, now;
  older.renderer = newer.renderer = now.renderer = "NVIDIA H200/PCIe/SSE2, OpenGL 4.6.0 NVIDIA 580.159";
  older.date = "2026-11-28T19:34:42Z";
  newer.date = "2026-11-29T14:40:20Z";
  older.rows = {row("axpy", "compute", 100, 1.0), row("cg", "compute", 100, 2.0)};
  newer.rows = {row("cg", "compute", 100, 1.0), row("vcycle", "compute", 100, 4.0)};
  now.rows = {row("axpy", "compute", 100, 1.0), row("cg", "compute", 100, 1.5), row("vcycle", "compute", 100, 4.0),
              row("new", "compute", 100, 1.0)};
  // Listed oldest first or newest first: the cg row meets the newer run's 1.0 ms either way.
  for (const bool newerFirst : {false, true}) {
    INFO((newerFirst ? "newer listed first" : "older listed first"));
    const std::vector<KeptRun> kept = newerFirst ? std::vector<KeptRun>{{"new.json", newer}, {"old.json", older}}
                                                 : std::vector<KeptRun>{{"old.json", older}, {"new.json", newer}};
    const Comparison c = compareReports(now, kept);
    CHECK(c.matched == 3);
    CHECK(c.slower == 1);
    CHECK(c.faster == 0);
    const std::string newerKey = newerFirst ? "[1]" : "[2]", olderKey = newerFirst ? "[2]" : "[1]";
    CHECK_THAT(c.text, Catch::Contains("1.500  SLOWER  " + newerKey) && Catch::Contains("1.000  " + olderKey + "\n") &&
                           Catch::Contains(newerKey + " new.json (2026-11-29T14:40:20Z)"));
    CHECK(c.warning.empty());
  }
  // A kept run of another GPU is named by its path.
  older.renderer = "NVIDIA H100 80GB HBM3/PCIe/SSE2, OpenGL 4.6.0";
  CHECK_THAT(compareReports(now, {{"old.json", older}, {"new.json", newer}}).warning,
             Catch::Contains("old.json is of another GPU (NVIDIA H100 80GB HBM3, this one NVIDIA H200)"));
}
