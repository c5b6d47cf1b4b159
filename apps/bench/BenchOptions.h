#pragma once
// Command line of texstream-bench (declared once as a SettingTable in BenchOptions.cpp) and
// the problem sizes of each preset.
//   --quick: CI sizes, under a minute on llvmpipe (2 cores)
//   (none):  mid sizes, for a desktop GPU
//   --full:  data-centre GPU sizes, vectors of 4096^2 texels, CG on 100^3 unknowns
#include "Timing.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace texstream::bench {

enum class Preset { Quick, Default, Full };
const char* presetName(Preset p);

struct Sizes {
  std::size_t vector = 0;       ///< copy, axpy, dot, norm: elements
  std::size_t grid2d = 0;       ///< 5-point stencil: grid2d x grid2d unknowns
  std::size_t grid3d = 0;       ///< 7-point stencil: grid3d^3 unknowns
  std::size_t banded = 0;       ///< banded matrix rows
  std::size_t dense = 0;        ///< dense matrix: dense x dense
  std::size_t point = 0;        ///< point matrix rows (and columns)
  int pointPerRow = 0;          ///< non-zeros per row of the point matrix
  std::size_t cgGrid = 0;       ///< CG on the 3D Poisson problem, cgGrid^3 unknowns
  int cgIterations = 0;         ///< k iterations timed together (tolerance 0), then divided
  std::vector<int> pressure3d;  ///< 3D pressure solves on n^3 grids
  int pressure3dNaturalMic = 0; ///< natural-order MIC(0) on the CPU up to this n
  int pressure3dEigen = 0;      ///< the Eigen IC-CG peer up to this n
  int pressure3dCusparseIc0 = 0; ///< the cuSPARSE IC(0)-CG peer up to this n (its analysis
                                 ///< and triangular solves take minutes at 256^3)
  std::vector<int> fluid3d;     ///< 3D fluid steps on n^3 grids
};
Sizes sizesFor(Preset p);
TimingSpec timingFor(Preset p);

struct BenchOptions {
  Preset preset = Preset::Default;
  std::optional<std::string> jsonPath;
  std::optional<std::string> markdownPath;  ///< read this results JSON, print markdown, exit
  /// --compare OLD.json[,OLD.json...]: after the run, each row's time against the newest
  /// kept run that has it (Compare.h); empty: no comparison.
  std::vector<std::string> comparePaths;
  std::string backends = "both";            ///< fragment | compute | both
  /// Contexts to measure in turn (--gl 4.5,4.1,es3.0): the first with every backend and the
  /// peers; the others add their rows with backend "fragment@4.1", "compute@es3.1", ...
  std::vector<std::string> contexts;
  std::string ops;                          ///< comma-separated case names; empty: all
  bool peers = true;                        ///< cuBLAS/cuSPARSE (when built) and Eigen rows
  std::optional<int> batches;
  std::optional<double> minBatchMs;
  std::vector<int> pressureSizes;           ///< --pressure-sizes: the 3D pressure grids instead of the preset's
  std::vector<std::string> pressureDomains; ///< --pressure-domains: a subset of the pressure3d case's domains
  std::vector<std::string> pressurePreconditioners;  ///< --pressure-preconditioners: a subset of multigrid, mic0, jacobi
  /// --pressure-boundary-sweeps: PressureMultigrid3DOptions::boundarySweeps of the pressure3d
  /// and fluid3d cases' multigrid; unset: the library's default
  std::optional<int> pressureBoundarySweeps;
  std::vector<int> fluid3dSizes;            ///< --fluid3d-sizes: the 3D fluid grids instead of the preset's
  bool list = false;                        ///< print the cases and exit
};

/// Parses argv. Returns the process exit code when the program should stop now (--help: 0;
/// a bad option: CLI11's code, 105 for a bad value, with the message naming the option),
/// nullopt to go on.
std::optional<int> parseOptions(int argc, char** argv, BenchOptions& options);

}  // namespace texstream::bench
