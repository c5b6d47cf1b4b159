#include "LinexprOptions.h"

#include "Settings.h"

#include <texstream/codegen/Annealer.h>
#include <texstream/codegen/Examples.h>
#include <texstream/text/FloatChars.h>

#include <CLI/CLI.hpp>

#include <cstdint>
#include <iostream>

namespace texstream::linexpr {

namespace {

/// Temperatures are in cost units (instructions): anything above this is a typo.
constexpr double kMaxTemperature = 1e9;

void describeOptions(app::SettingTable& t, Options& o) {
  const codegen::AnnealingSchedule defaults;
  std::vector<std::string> examples = codegen::exampleNames();
  std::string exampleList;
  for (const std::string& n : examples) exampleList += (exampleList.empty() ? "" : "|") + n;
  t.choice("example", o.example, examples, "one of the paper's systems: " + exampleList).typeName("NAME");
  t.text("matrix", o.matrix, nullptr, "Matrix Market file of the square matrix A").typeName("A.mtx");
  t.text("b", o.b, nullptr, "Matrix Market file of the vector b (m x 1); default b = 0").typeName("b.mtx");
  t.flag("gauss-seidel", o.gaussSeidel, "with --matrix: optimise one Gauss-Seidel sweep for A x = b (paper §3.3)");
  t.integer("seed", o.seed, 0, UINT64_MAX, "annealing seed (default: " + std::to_string(defaults.seed) + ")");
  t.integer("iterations", o.iterations, 0, 10'000'000'000LL,
            "proposed swaps per annealing run (default: the example's, else " + std::to_string(defaults.iterations) + ")");
  t.integer("restarts", o.restarts, 1, 100000,
            "independent annealing runs, best kept (default: the example's, else " + std::to_string(defaults.restarts) + ")");
  t.real("t0", o.initialTemperature, 0.0, kMaxTemperature, false,
         "initial temperature (default: the example's, else " + text::shortestText(defaults.initialTemperature) + ")")
      .typeName("T");
  t.real("t1", o.finalTemperature, 0.0, kMaxTemperature, false,
         "final temperature (default: the example's, else " + text::shortestText(defaults.finalTemperature) + ")")
      .typeName("T");
  t.text("glsl", o.glsl, nullptr, "write the GLSL of the optimised expression here").typeName("OUT");
  t.choice("glsl-form", o.glslForm, {"kernel", "function"}, "kernel (a texstream kernel) or function (vec4 arrays)");
  t.text("asm", o.assembly, nullptr, "write the instruction listing here").typeName("OUT");
  t.text("json", o.json, nullptr, "write the report (costs, efficiency, permutation, cost history) here").typeName("PATH");
  t.flag("quiet", o.quiet, "print nothing on success");
}

}  // namespace

std::optional<int> parseOptions(int argc, char** argv, Options& o) {
  CLI::App cli{
      "texstream-linexpr: SIMD packing of y = A x + b for four-wide GPUs (Bajaj, Ihm, Min & Oh 2004).\n"
      "Finds, by simulated annealing over row/column swaps, an equivalent expression that needs fewer\n"
      "MUL/MAD/DP4/ADD instructions, and writes the GLSL that evaluates it.\n"
      "Exit codes: 0 done, 1 bad input file or failed output, 2 bad command line.",
      "texstream-linexpr"};
  app::SettingTable table;
  describeOptions(table, o);
  table.addTo(cli, "Options");
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = cli.exit(e);
    return code == 0 ? 0 : kUsageExitCode;
  }
  try {
    table.applyCommandLine();
    if (o.example.empty() == o.matrix.empty()) {
      throw UsageError(o.example.empty() ? "give --example NAME or --matrix A.mtx"
                                         : "--example and --matrix exclude each other");
    }
    if (!o.b.empty() && o.matrix.empty()) throw UsageError("--b needs --matrix (the examples bring their own b)");
    if (o.gaussSeidel && o.matrix.empty())
      throw UsageError("--gauss-seidel needs --matrix (use --example gauss-seidel)");
    if (table.find("glsl-form")->given() && o.glsl.empty()) throw UsageError("--glsl-form needs --glsl OUT");
  } catch (const UsageError& e) {
    std::cerr << "texstream-linexpr: " << e.what() << "\n";
    return kUsageExitCode;
  }
  return std::nullopt;
}

}  // namespace texstream::linexpr
