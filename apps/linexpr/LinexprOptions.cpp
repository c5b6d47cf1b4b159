#include "LinexprOptions.h"

#include <texstream/codegen/Examples.h>

#include <CLI/CLI.hpp>

#include <charconv>
#include <cmath>
#include <iostream>

namespace texstream::linexpr {

namespace {

[[noreturn]] void fail(const std::string& option, const std::string& text, const std::string& why) {
  throw UsageError(option + ": invalid value \"" + text + "\": " + why);
}

template <class T>
T parseWhole(const std::string& option, const std::string& text, T min, T max) {
  T value{};
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  const std::string range = "[" + std::to_string(min) + ", " + std::to_string(max) + "]";
  if (text.empty() || ec == std::errc::invalid_argument || ptr != text.data() + text.size()) {
    fail(option, text, "expected a whole number in " + range);
  }
  if (ec == std::errc::result_out_of_range || value < min || value > max) fail(option, text, "must be in " + range);
  return value;
}

double parsePositive(const std::string& option, const std::string& text) {
  double value = 0.0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size()) fail(option, text, "not a number");
  if (!std::isfinite(value) || value <= 0.0) fail(option, text, "must be a positive, finite number");
  return value;
}

}  // namespace

std::optional<int> parseOptions(int argc, char** argv, Options& o) {
  CLI::App app{
      "texstream-linexpr: SIMD packing of y = A x + b for four-wide GPUs (Bajaj, Ihm, Min & Oh 2004).\n"
      "Finds, by simulated annealing over row/column swaps, an equivalent expression that needs fewer\n"
      "MUL/MAD/DP4/ADD instructions, and writes the GLSL that evaluates it.\n"
      "Exit codes: 0 done, 1 bad input file or failed output, 2 bad command line.",
      "texstream-linexpr"};
  std::string seed, iterations, restarts, t0, t1, form;
  std::string examples;
  for (const auto& n : codegen::exampleNames()) examples += (examples.empty() ? "" : "|") + n;
  app.add_option("--example", o.example, "one of the paper's systems: " + examples);
  app.add_option("--matrix", o.matrix, "Matrix Market file of the square matrix A");
  app.add_option("--b", o.b, "Matrix Market file of the vector b (m x 1); default b = 0");
  app.add_flag("--gauss-seidel", o.gaussSeidel,
               "with --matrix: optimise one Gauss-Seidel sweep for A x = b (paper §3.3)");
  app.add_option("--seed", seed, "annealing seed (default: 1)");
  app.add_option("--iterations", iterations, "proposed swaps per annealing run (default: the example's, else 1000000)");
  app.add_option("--restarts", restarts, "independent annealing runs, best kept (default: the example's, else 1)");
  app.add_option("--t0", t0, "initial temperature (default: the example's, else 2)");
  app.add_option("--t1", t1, "final temperature (default: the example's, else 0.1)");
  app.add_option("--glsl", o.glsl, "write the GLSL of the optimised expression here");
  app.add_option("--glsl-form", form, "kernel (a texstream kernel, default) or function (vec4 arrays)");
  app.add_option("--asm", o.assembly, "write the instruction listing here");
  app.add_option("--json", o.json, "write the report (costs, efficiency, permutation, cost history) here");
  app.add_flag("--quiet", o.quiet, "print nothing on success");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : kUsageExitCode;
  }
  try {
    if (o.example.empty() == o.matrix.empty()) {
      throw UsageError(o.example.empty() ? "give --example NAME or --matrix A.mtx"
                                         : "--example and --matrix exclude each other");
    }
    if (!o.example.empty()) {
      bool known = false;
      for (const auto& n : codegen::exampleNames()) known = known || n == o.example;
      if (!known) fail("--example", o.example, "expected one of " + examples);
    }
    if (!o.b.empty() && o.matrix.empty()) throw UsageError("--b needs --matrix (the examples bring their own b)");
    if (o.gaussSeidel && o.matrix.empty())
      throw UsageError("--gauss-seidel needs --matrix (use --example gauss-seidel)");
    if (!seed.empty()) o.seed = parseWhole<std::uint64_t>("--seed", seed, 0, UINT64_MAX);
    if (!iterations.empty()) o.iterations = parseWhole<long long>("--iterations", iterations, 0, 10'000'000'000LL);
    if (!restarts.empty()) o.restarts = parseWhole<int>("--restarts", restarts, 1, 100000);
    if (!t0.empty()) o.initialTemperature = parsePositive("--t0", t0);
    if (!t1.empty()) o.finalTemperature = parsePositive("--t1", t1);
    if (!form.empty()) {
      if (form != "kernel" && form != "function") fail("--glsl-form", form, "expected kernel or function");
      o.glslForm = form;
      if (o.glsl.empty()) throw UsageError("--glsl-form needs --glsl OUT");
    }
  } catch (const UsageError& e) {
    std::cerr << "texstream-linexpr: " << e.what() << "\n";
    return kUsageExitCode;
  }
  return std::nullopt;
}

}  // namespace texstream::linexpr
