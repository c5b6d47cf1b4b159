#include "BenchOptions.h"

#include "AppOptions.h"
#include "OutputPath.h"
#include "Settings.h"

#include <texstream/gl/GlRequest.h>
#include <texstream/solvers/systems/PressureSolver3D.h>
#include <texstream/text/Format.h>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <filesystem>
#include <functional>

namespace texstream::bench {

const char* presetName(Preset p) {
  switch (p) {
    case Preset::Quick: return "quick";
    case Preset::Full: return "full";
    default: return "default";
  }
}

Sizes sizesFor(Preset p) {
  Sizes s;
  switch (p) {
    case Preset::Quick:  // llvmpipe on 2 cores: the whole run in well under a minute
      s = {.vector = 65536, .grid2d = 128, .grid3d = 24, .banded = 65536, .dense = 256, .point = 16384,
           .pointPerRow = 8, .cgGrid = 16, .cgIterations = 10, .pressure3d = {16}, .pressure3dNaturalMic = 16, .pressure3dEigen = 16, .pressure3dCusparseIc0 = 16, .fluid3d = {16}};
      break;
    case Preset::Default:  // desktop GPU: 1024^2-texel vectors
      s = {.vector = std::size_t(4) << 20, .grid2d = 2048, .grid3d = 160, .banded = std::size_t(4) << 20,
           .dense = 2048, .point = std::size_t(1) << 20, .pointPerRow = 8, .cgGrid = 64, .cgIterations = 30,
           .pressure3d = {64, 128}, .pressure3dNaturalMic = 128, .pressure3dEigen = 128, .pressure3dCusparseIc0 = 128, .fluid3d = {64, 128}};
      break;
    case Preset::Full:  // data-centre GPU: 4096^2-texel vectors (GPU.md)
      s = {.vector = std::size_t(64) << 20, .grid2d = 8192, .grid3d = 256, .banded = std::size_t(16) << 20,
           .dense = 8192, .point = std::size_t(4) << 20, .pointPerRow = 8, .cgGrid = 100, .cgIterations = 200,
           .pressure3d = {64, 128, 256}, .pressure3dNaturalMic = 128, .pressure3dEigen = 64, .pressure3dCusparseIc0 = 128, .fluid3d = {128, 256}};
      break;
  }
  return s;
}

TimingSpec timingFor(Preset p) {
  switch (p) {
    case Preset::Quick: return {.warmup = 1, .batches = 3, .minBatchMs = 20, .minReps = 1, .maxReps = 500};
    case Preset::Full:
      return {.warmup = 3, .warmupMs = 300, .batches = 7, .minBatchMs = 100, .minReps = 3, .maxReps = 2000};
    default: return {.warmup = 2, .warmupMs = 50, .batches = 5, .minBatchMs = 50, .minReps = 2, .maxReps = 1000};
  }
}

namespace {

/// A check that an item is one of `names` (case-sensitive, as the cases spell them).
std::function<void(std::string_view, const std::string&)> oneOf(std::vector<std::string> names) {
  return [names](std::string_view source, const std::string& item) {
    if (std::find(names.begin(), names.end(), item) != names.end()) return;
    std::string list;
    for (const std::string& n : names) list += (list.empty() ? "" : "|") + n;
    throw app::UsageError(std::string(source) + ": invalid value " + text::quoted(item) + ": expected one of " + list);
  };
}

void requireFile(std::string_view source, const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw app::UsageError(std::string(source) + ": invalid value " + text::quoted(path) + ": no such file");
}

void describeOptions(app::SettingTable& t, BenchOptions& o) {
  t.flag("quick", [&o] { return o.preset == Preset::Quick; },
         [&o](bool on) { o.preset = on ? Preset::Quick : o.preset == Preset::Quick ? Preset::Default : o.preset; },
         "CI sizes: under a minute on llvmpipe");
  t.flag("full", [&o] { return o.preset == Preset::Full; },
         [&o](bool on) { o.preset = on ? Preset::Full : o.preset == Preset::Full ? Preset::Default : o.preset; },
         "data-centre GPU sizes: 4096^2-texel vectors, CG on 100^3");
  // Before the benchmark runs, so that its results are never lost to a bad path.
  t.text("json", o.jsonPath, app::requireWritablePath, "write the results to this JSON file").typeName("PATH");
  t.text("markdown", o.markdownPath, requireFile,
         "read a results JSON (from --json) and print it as a markdown table, then exit")
      .typeName("PATH");
  t.list("compare", o.comparePaths, requireFile,
         "after the run, compare each row's time with these kept runs of the same GPU kind (assets/bench/; "
         "comma-separated, each row against the newest that has it) and flag rows more than 10% slower or "
         "faster; exit status 3 when a row is slower")
      .typeName("OLD.json");
  t.choice("backend", o.backends, {"fragment", "compute", "both"}, "fragment, compute or both");
  t.list("gl", o.contexts,
         [](std::string_view source, const std::string& version) {
           try {
             gl::GlRequest::parse(version);
           } catch (const std::exception&) {
             throw app::UsageError(std::string(source) + ": invalid value " + text::quoted(version) +
                                   ": expected one of " + gl::GlRequest::accepted());
           }
         },
         "contexts to measure in turn, comma-separated (3.3, 4.1, 4.3, 4.5, max, es3.0, es3.1, es3.2, es); "
         "the first also runs the peers; rows of the others carry backend@context (default: max)")
      .typeName("VERSION[,VERSION...]");
  t.text("ops", o.ops, nullptr, "comma-separated cases to run (default all; --list shows them)").typeName("CASE[,CASE...]");
  t.flag("peers", o.peers, "the cuBLAS/cuSPARSE/Eigen peer rows (--no-peers skips them)");
  t.integer("batches", o.batches, 1, 1000, "timed batches per row (median reported; default: the preset's)");
  t.real("min-batch-ms", o.minBatchMs, 0.0, 1e6, true,
         "repetitions per batch last at least this long (default: the preset's)")
      .typeName("MS");
  t.list("pressure-sizes", o.pressureSizes, 1, 1024,
         "the pressure3d case's grids, comma-separated n for n^3 cells (default: the preset's)");
  t.list("pressure-domains", o.pressureDomains, oneOf({"smoke", "smoke_sphere", "liquid_pool"}),
         "the pressure3d case's domains, comma-separated (default all)")
      .typeName("DOMAIN[,DOMAIN...]");
  std::vector<std::string> preconditioners;
  for (const auto& p : solvers::pressurePreconditionerNames()) preconditioners.push_back(p.name);
  t.list("pressure-preconditioners", o.pressurePreconditioners, oneOf(preconditioners),
         "the pressure3d case's preconditioners, comma-separated (default all)")
      .typeName("NAME[,NAME...]");
  t.integer("pressure-boundary-sweeps", o.pressureBoundarySweeps, 0, 16,
            "boundary-band sweeps of the pressure3d and fluid3d cases' multigrid V-cycle (default: the library's)")
      .typeName("N");
  t.list("fluid3d-sizes", o.fluid3dSizes, 4, 1024,
         "the fluid3d case's grids, comma-separated n for n^3 cells (default: the preset's)");
  t.flag("list", o.list, "list the cases and exit");
}

}  // namespace

std::optional<int> parseOptions(int argc, char** argv, BenchOptions& o) {
  CLI::App cli{
      "texstream-bench: bandwidth and accuracy of texstream's kernels on both backends, against the\n"
      "fragment fill and compute copy ceilings of the same run, and against cuBLAS/cuSPARSE/Eigen\n"
      "peers on the same data. Progress goes to stderr, the table to stdout.",
      "texstream-bench"};
  app::SettingTable table;
  describeOptions(table, o);
  table.addTo(cli, "Options");
  cli.get_option("--quick")->excludes(cli.get_option("--full"));
  try {
    cli.parse(argc, argv);
    table.applyCommandLine();
  } catch (const CLI::ParseError& e) {
    return cli.exit(e);
  } catch (const app::UsageError& e) {
    // CLI11's validation exit status (105): 2 is a row beyond its tolerance (Report.h).
    return cli.exit(CLI::ValidationError(e.what()));
  }
  return std::nullopt;
}

}  // namespace texstream::bench
