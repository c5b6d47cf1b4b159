#pragma once
// The command line of texstream-linexpr:
//   --example wave8x8|rk4-suspension|gauss-seidel|ebj2d|ebj3d
//   --matrix A.mtx [--b b.mtx] [--gauss-seidel]
//   --seed N  --iterations N  --restarts N  --t0 T  --t1 T
//   --glsl OUT [--glsl-form kernel|function]  --asm OUT  --json PATH  --quiet
// Every bad value is reported as "texstream-linexpr: --seed: invalid value "x": ..." with
// exit code 2.
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace texstream::linexpr {

inline constexpr int kUsageExitCode = 2;

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Options {
  std::string example;       ///< "" when --matrix is given
  std::string matrix;        ///< Matrix Market file of A
  std::string b;             ///< Matrix Market file of b ("" = b = 0)
  bool gaussSeidel = false;  ///< --matrix: optimise a Gauss–Seidel sweep for A x = b
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
