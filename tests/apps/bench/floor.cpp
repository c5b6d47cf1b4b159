// Tests apps/bench/Report.*'s floor: the larger of a row's bytes at its ceiling's rate and
// its dependent passes times one pass's latency, both from the same run; fragment rows by
// bytes written; no floor without a ceiling row; passes survive the JSON and the floor is
// recomputed from them.
#include <catch2/catch.hpp>

#include "Report.h"

using namespace texstream::bench;

namespace {

Row row(const char* op, const char* backend, double ms, double bytes, double bytesWritten, double passes) {
  Row r;
  r.op = op;
  r.backend = backend;
  r.n = 1000;
  r.ms = ms;
  r.bytes = bytes;
  r.bytesWritten = bytesWritten;
  r.passes = passes;
  return r;
}

}  // namespace

TEST_CASE("bench floor: bytes at the ceiling's rate or passes times the pass latency, whichever is larger",
          "[bench]") {
  Report report;
  report.rows = {
      row("limits.compute_copy", "compute", 1.0, 4e9, 2e9, 0),       // 4 GB a millisecond
      row("limits.compute_pass", "compute", 0.003, 0, 0, 1),
      row("limits.fragment_fill", "fragment", 1.0, 1e9, 1e9, 0),
      row("limits.fragment_pass", "fragment", 0.005, 0, 0, 1),
      row("axpy", "compute", 0.5, 1e9, 4e8, 1),                       // bytes: 0.25 ms
      row("multigrid", "compute", 2.0, 4e8, 2e8, 200),                // passes: 0.6 ms
      row("axpy", "fragment", 1.0, 3e9, 5e8, 1),                      // bytes written: 0.5 ms
      row("axpy", "fragment@es3.0", 1.0, 3e9, 5e8, 1),                // no ceiling row of that context
      row("peer.cublas_saxpy", "cuda", 0.3, 1e9, 4e8, -1),            // no CUDA ceiling row here
      row("uncounted", "compute", 1.0, 2e9, 1e9, -1),                 // bytes only: 0.5 ms
  };
  report.finalize();
  auto floorOf = [&](const char* op, const char* backend) { return report.find(op, backend)->floorMs; };
  REQUIRE(floorOf("axpy", "compute"));
  CHECK(*floorOf("axpy", "compute") == Approx(0.25));
  CHECK(*report.find("axpy", "compute")->ofFloor() == Approx(0.5));
  REQUIRE(floorOf("multigrid", "compute"));
  CHECK(*floorOf("multigrid", "compute") == Approx(0.6));
  REQUIRE(floorOf("axpy", "fragment"));
  CHECK(*floorOf("axpy", "fragment") == Approx(0.5));
  CHECK_FALSE(floorOf("axpy", "fragment@es3.0"));
  CHECK_FALSE(floorOf("peer.cublas_saxpy", "cuda"));
  REQUIRE(floorOf("uncounted", "compute"));
  CHECK(*floorOf("uncounted", "compute") == Approx(0.5));
  // The ceiling row is its own floor.
  CHECK(*report.find("limits.compute_copy", "compute")->ofFloor() == Approx(1.0));

  const Report again = Report::fromJson(report.toJson());
  CHECK(again.find("multigrid", "compute")->passes == 200);
  REQUIRE(again.find("multigrid", "compute")->floorMs);
  CHECK(*again.find("multigrid", "compute")->floorMs == Approx(0.6));
  CHECK(again.find("uncounted", "compute")->passes == -1);
  CHECK(report.toJson()["results"][5]["of_floor"].get<double>() == Approx(0.3));
}
