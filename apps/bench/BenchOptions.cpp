#include "BenchOptions.h"

#include "AppOptions.h"
#include "OutputPath.h"

#include <texstream/gl/HeadlessContext.h>

#include <iostream>

#include <CLI/CLI.hpp>

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
           .pointPerRow = 8, .cgGrid = 16, .cgIterations = 10, .pressure3d = {16}, .pressure3dNaturalMic = 16, .pressure3dEigen = 16, .fluid3d = {16}};
      break;
    case Preset::Default:  // desktop GPU: 1024^2-texel vectors
      s = {.vector = std::size_t(4) << 20, .grid2d = 2048, .grid3d = 160, .banded = std::size_t(4) << 20,
           .dense = 2048, .point = std::size_t(1) << 20, .pointPerRow = 8, .cgGrid = 64, .cgIterations = 30,
           .pressure3d = {64, 128}, .pressure3dNaturalMic = 128, .pressure3dEigen = 128, .fluid3d = {64, 128}};
      break;
    case Preset::Full:  // data-centre GPU: 4096^2-texel vectors (GPU.md)
      s = {.vector = std::size_t(64) << 20, .grid2d = 8192, .grid3d = 256, .banded = std::size_t(16) << 20,
           .dense = 8192, .point = std::size_t(4) << 20, .pointPerRow = 8, .cgGrid = 100, .cgIterations = 200,
           .pressure3d = {64, 128, 256}, .pressure3dNaturalMic = 128, .pressure3dEigen = 64, .fluid3d = {128, 256}};
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

std::optional<int> parseOptions(int argc, char** argv, BenchOptions& o) {
  CLI::App app{
      "texstream-bench: bandwidth and accuracy of texstream's kernels on both backends, against the\n"
      "fragment fill and compute copy ceilings of the same run, and against cuBLAS/cuSPARSE/Eigen\n"
      "peers on the same data. Progress goes to stderr, the table to stdout."};
  bool quick = false, full = false, noPeers = false;
  auto* q = app.add_flag("--quick", quick, "CI sizes: under a minute on llvmpipe");
  auto* f = app.add_flag("--full", full, "data-centre GPU sizes: 4096^2-texel vectors, CG on 100^3");
  q->excludes(f);
  app.add_option("--json", o.jsonPath, "write the results to this JSON file");
  app.add_option("--markdown", o.markdownPath,
                 "read a results JSON (from --json) and print it as a markdown table, then exit")
      ->check(CLI::ExistingFile);
  app.add_option("--compare", o.comparePath,
                 "after the run, compare each row's time with this kept run of the same GPU kind (assets/bench/) "
                 "and flag rows more than 10% slower or faster; exit status 3 when a row is slower")
      ->check(CLI::ExistingFile);
  app.add_option("--backend", o.backends, "fragment, compute or both")
      ->check(CLI::IsMember({"fragment", "compute", "both"}, CLI::ignore_case));
  app.add_option("--gl", o.contexts,
                 "contexts to measure in turn, comma-separated (3.3, 4.1, 4.3, 4.5, max, es3.0, es3.1, es3.2, es); "
                 "the first also runs the peers; rows of the others carry backend@context (default: max)")
      ->delimiter(',')
      ->type_name("VERSION[,VERSION...]");
  app.add_option("--ops", o.ops, "comma-separated cases to run (default all; --list shows them)");
  app.add_flag("--no-peers", noPeers, "skip the cuBLAS/cuSPARSE/Eigen peer rows");
  app.add_option("--batches", o.batches, "timed batches per row (median reported)")->check(CLI::Range(1, 1000));
  app.add_option("--min-batch-ms", o.minBatchMs, "repetitions per batch last at least this long")
      ->check(CLI::Range(0.0, 1e6));
  app.add_option("--pressure-sizes", o.pressureSizes,
                 "the pressure3d case's grids, comma-separated n for n^3 cells (default: the preset's)")
      ->delimiter(',')
      ->check(CLI::Range(1, 1024));
  app.add_option("--pressure-domains", o.pressureDomains,
                 "the pressure3d case's domains, comma-separated (default all)")
      ->delimiter(',')
      ->check(CLI::IsMember({"smoke", "smoke_sphere", "liquid_pool"}));
  app.add_option("--pressure-preconditioners", o.pressurePreconditioners,
                 "the pressure3d case's preconditioners, comma-separated (default all)")
      ->delimiter(',')
      ->check(CLI::IsMember({"multigrid", "mic0", "jacobi"}));
  app.add_option("--fluid3d-sizes", o.fluid3dSizes,
                 "the fluid3d case's grids, comma-separated n for n^3 cells (default: the preset's)")
      ->delimiter(',')
      ->check(CLI::Range(4, 1024));
  app.add_flag("--list", o.list, "list the cases and exit");
  try {
    app.parse(argc, argv);
    // Before the benchmark runs, so that its results are never lost to a bad path.
    if (o.jsonPath) texstream::app::requireWritablePath("--json", *o.jsonPath);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const texstream::app::UsageError& e) {
    return app.exit(CLI::ValidationError(e.what()));
  }
  o.preset = quick ? Preset::Quick : full ? Preset::Full : Preset::Default;
  o.peers = !noPeers;
  for (char& c : o.backends) c = char(std::tolower(static_cast<unsigned char>(c)));
  for (std::string& c : o.contexts) {
    try {
      gl::GlRequest::parse(c);
    } catch (const std::exception& e) {
      std::cerr << "texstream-bench: --gl: " << e.what() << "\n";
      return 2;
    }
  }
  return std::nullopt;
}

}  // namespace texstream::bench
