#pragma once
// The benchmark's cases: a registry of named cases (limits, copy, axpy, ...), the context
// each runs in, and the run of a whole benchmark. Each case measures its operation on
// every selected backend, checks one poisoned-output run against the CPU double
// reference, and adds its peers' rows (cuBLAS/cuSPARSE when built, Eigen) on the same data.
#include "BenchOptions.h"
#include "Report.h"

#include <texstream/stream/Backend.h>

#include <string>
#include <vector>

namespace texstream::bench {

struct BenchContext {
  const BenchOptions& options;
  Sizes sizes;
  TimingSpec timing;
  std::vector<stream::Backend> backends;  ///< the GL backends to measure
  bool cudaPeers = false;                 ///< built with TEXSTREAM_CUDA_PEERS and a device found
  bool cpuPeers = true;                   ///< Eigen rows
  Report& report;

  /// One line on stderr ("[bench] axpy: compute ...").
  void progress(const std::string& line) const;
  /// Appends a row to the report and prints it on stdout.
  void add(Row row);
};

struct BenchCase {
  const char* name;     ///< what --ops selects
  const char* summary;
  void (*run)(BenchContext&);
};

/// Every case, in run order; "limits" comes first (the ceilings every ratio needs).
const std::vector<BenchCase>& benchCases();
/// The cases `ops` names (comma-separated; empty: all). "limits" is always included: the
/// ratios need the ceilings. Throws std::invalid_argument naming an unknown case.
std::vector<const BenchCase*> selectCases(const std::string& ops);

/// Runs the selected cases in a headless context; returns the exit code (0: every row
/// within its tolerance; 2: a correctness check failed or a case threw).
int runBenchmark(const BenchOptions& options);

// The cases, one file each by concept.
void runLimits(BenchContext& ctx);    // LimitsBench.cpp
void runCopy(BenchContext& ctx);      // VectorBench.cpp
void runAxpy(BenchContext& ctx);
void runDot(BenchContext& ctx);
void runNorm(BenchContext& ctx);
void runStencil2D(BenchContext& ctx); // MatrixBench.cpp
void runStencil3D(BenchContext& ctx);
void runBanded(BenchContext& ctx);
void runDense(BenchContext& ctx);
void runPoint(BenchContext& ctx);
void runCg(BenchContext& ctx);        // CgBench.cpp
void runMultigrid(BenchContext& ctx); // FluidBench.cpp
void runFluid(BenchContext& ctx);
void runSmooth(BenchContext& ctx);    // SmoothBench.cpp
void runSparse(BenchContext& ctx);    // SparseBench.cpp
void runEbj(BenchContext& ctx);       // EbjBench.cpp
void runLscm(BenchContext& ctx);      // LeastSquaresBench.cpp
void runDsi(BenchContext& ctx);
void runRefine(BenchContext& ctx);    // RefinementBench.cpp
void runPressure3D(BenchContext& ctx);  // Pressure3DBench.cpp
void runFluid3D(BenchContext& ctx);     // Fluid3DBench.cpp

}  // namespace texstream::bench
