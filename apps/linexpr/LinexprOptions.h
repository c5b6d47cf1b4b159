#pragma once
// The command line of texstream-linexpr, declared once as a SettingTable (LinexprOptions.cpp):
//   --example wave8x8|rk4-suspension|gauss-seidel|ebj2d|ebj3d
//   --matrix A.mtx [--b b.mtx] [--gauss-seidel]
//   --seed N  --iterations N  --restarts N  --t0 T  --t1 T
//   --glsl OUT [--glsl-form kernel|function]  --asm OUT  --json PATH  --quiet
// Every bad value is reported as "texstream-linexpr: --seed: invalid value "x": ..." with
// exit code 2.
#include "AppOptions.h"

#include <cstdint>
#include <optional>
#include <string>

namespace texstream::linexpr {

using app::kUsageExitCode;
using app::UsageError;

struct Options {
  std::string example;       ///< "" when --matrix is given
  std::string matrix;        ///< Matrix Market file of A
  std::string b;             ///< Matrix Market file of b ("" = b = 0)
  bool gaussSeidel = false;  ///< --matrix: optimise a Gauss–Seidel sweep for A x = b
  /// The annealing schedule's fields the command line gives; the others are the example's
  /// (codegen::Example::schedule), or codegen::AnnealingSchedule's defaults for --matrix.
  std::optional<std::uint64_t> seed;
  std::optional<long long> iterations;
  std::optional<int> restarts;
  std::optional<double> initialTemperature, finalTemperature;
  std::string glsl;  ///< output path ("" = none)
  std::string glslForm = "kernel";
  std::string assembly;  ///< output path of the instruction listing
  std::string json;      ///< output path of the report
  bool quiet = false;
};

/// Parses argv. Returns an exit code when the program should stop (--help: 0; a bad
/// command line: kUsageExitCode after printing the message), else nullopt.
std::optional<int> parseOptions(int argc, char** argv, Options& options);

}  // namespace texstream::linexpr
