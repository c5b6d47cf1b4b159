#pragma once
// The benchmark's results: one Row per (op, backend, size), the run's header (renderer,
// date), and the ratios every row carries — to the ceiling of its own backend measured in
// the same run, and to its peer (cuBLAS/cuSPARSE/Eigen) on the same data in the same run.
//
// JSON: {"renderer", "date", "preset", ..., "results": [{"op", "backend", "n", "ms",
// "gbps", "gbps_written", "gflops", "max_rel_err", "ceiling", "ratio", "peer",
// "peer_speedup", ...}]}. Undefined numbers are null.
#include "Timing.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace texstream::bench {

/// The ceiling row of each backend (GPU.md: a benchmark always prints both GL ceilings).
inline constexpr const char* kFragmentCeiling = "limits.fragment_fill";
inline constexpr const char* kComputeCeiling = "limits.compute_copy";
inline constexpr const char* kCudaCeiling = "limits.cuda_copy";
inline constexpr const char* kCpuCeiling = "limits.cpu_copy";
/// The ceiling row a row of `backend` is judged against ("" when none).
const char* ceilingFor(const std::string& backend);
/// The row of one dependent pass's latency on `backend` ("limits.compute_pass"; "" for the
/// CUDA and CPU backends).
std::string passLatencyFor(const std::string& backend);

struct Row {
  std::string op;       ///< "axpy", "spmv.stencil3d", "peer.cublas_saxpy", "limits.compute_copy"
  std::string backend;  ///< "fragment", "compute", "cuda", "cpu"; "fragment@4.1" from a further --gl context
  std::size_t n = 0;    ///< unknowns (vector length, matrix rows)
  double ms = 0, wallMs = 0;
  double submitMs = 0;  ///< CPU time to enqueue one repetition (GL rows; 0 elsewhere)
  int reps = 0, batches = 0;
  std::string timer;
  double bytes = 0;         ///< bytes moved per repetition (reads + writes)
  double bytesWritten = 0;  ///< bytes written per repetition (what the fragment path is bound by)
  double flops = 0;
  /// Dependent passes per repetition (Timing::passes); -1 where not counted.
  double passes = -1;
  double maxRelErr = 0;     ///< against the CPU double reference; NaN when results were missing
  double tolerance = 0;     ///< max_rel_err above this fails the run
  std::vector<std::string> peerCandidates;  ///< peer ops, best first (set by the case)
  std::string note;
  /// Case-specific figures (iterations, set-up time, ...), written under "extra" in the JSON.
  std::vector<std::pair<std::string, double>> extras;

  // Filled by Report::finalize().
  std::string ceiling;
  std::optional<double> ratio;
  std::string peer;
  std::optional<double> peerSpeedup;  ///< peer ms / this ms (> 1: texstream is faster)
  /// The least time the row could take on this GPU, from the same run: the larger of its
  /// bytes at the ceiling's rate and its dependent passes times one pass's latency
  /// (limits.<backend>_pass). Fragment rows count bytes written against the fill's rate, as
  /// ratio does. Unset without a ceiling row or bytes and passes.
  std::optional<double> floorMs;
  /// floorMs / ms: 1 at the floor.
  std::optional<double> ofFloor() const {
    return floorMs && ms > 0 ? std::optional<double>(*floorMs / ms) : std::nullopt;
  }

  double gbps() const { return ms > 0 ? bytes / (ms * 1e6) : 0; }
  double gbpsWritten() const { return ms > 0 ? bytesWritten / (ms * 1e6) : 0; }
  double gflops() const { return ms > 0 ? flops / (ms * 1e6) : 0; }
  bool ok() const { return maxRelErr <= tolerance; }  // false for NaN
};

/// "fragment" for "fragment@es3.0": the backend without the context it ran on.
std::string backendKind(const std::string& backend);

/// A row from a measurement; the caller adds maxRelErr, tolerance, peers and notes.
Row makeRow(std::string op, std::string backend, std::size_t n, const Timing& t, double bytes,
            double bytesWritten, double flops);

struct Report {
  std::string renderer;  ///< GL renderer summary (vendor, version)
  std::string context;   ///< how the headless context was found
  std::string cudaDevice;
  std::string date;      ///< ISO 8601, UTC
  std::string preset;    ///< quick / default / full
  std::vector<Row> rows;

  /// Sets ceiling/ratio and peer/peerSpeedup of every row from the other rows.
  void finalize();
  const Row* find(const std::string& op, const std::string& backend) const;
  bool allOk() const;

  /// Keys in the order of the spec (op, backend, n, ms, gbps, ...), then the extras.
  nlohmann::ordered_json toJson() const;
  /// Reads what toJson wrote (or a file with only the spec's fields) and recomputes the
  /// ratios from its rows.
  static Report fromJson(const nlohmann::json& j);
};

/// "2025-06-01T12:00:00Z"
std::string isoDateNow();
/// One aligned line per row, for the terminal.
std::string formatRow(const Row& r);
std::string formatHeader();

}  // namespace texstream::bench
