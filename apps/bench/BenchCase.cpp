#include "BenchCase.h"

#include "Compare.h"

#include "CudaPeers.h"

#include <texstream/gl/Capabilities.h>
#include <texstream/gl/HeadlessContext.h>
#include <texstream/stream/Runtime.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

namespace texstream::bench {

void BenchContext::progress(const std::string& line) const {
  static const auto start = std::chrono::steady_clock::now();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  char stamp[32];
  std::snprintf(stamp, sizeof stamp, "[bench %6.1fs] ", s);
  std::cerr << stamp << line << std::endl;
}

void BenchContext::add(Row row) {
  progress(formatRow(row));
  if (!row.ok())
    progress(row.op + " [" + row.backend + "]: max_rel_err " + std::to_string(row.maxRelErr) +
             " above tolerance " + std::to_string(row.tolerance));
  report.rows.push_back(std::move(row));
  // A run cut short (a time limit on the GPU machine) still leaves its rows so far.
  if (options.jsonPath) {
    Report partial = report;
    partial.finalize();
    std::ofstream out(*options.jsonPath + ".partial");
    out << partial.toJson().dump(2) << "\n";
  }
}

const std::vector<BenchCase>& benchCases() {
  static const std::vector<BenchCase> cases = {
      {"limits", "fragment write-only fill and compute copy in RGBA32F: the two ceilings", runLimits},
      {"copy", "y = x", runCopy},
      {"axpy", "y = a x + y (2 reads + 1 write)", runAxpy},
      {"dot", "x . y to a GPU scalar", runDot},
      {"norm", "||x||_2 to a GPU scalar", runNorm},
      {"stencil2d", "SpMV, 2D 5-point Poisson stencil", runStencil2D},
      {"stencil3d", "SpMV, 3D 7-point Poisson stencil", runStencil3D},
      {"banded", "SpMV, banded matrix (diagonals as vectors)", runBanded},
      {"dense", "dense matrix-vector product", runDense},
      {"point", "SpMV, point matrix (Krüger's vertex scatter)", runPoint},
      {"cg", "one CG iteration, 3D 7-point Poisson", runCg},
      {"multigrid", "layered multigrid V(2,2) cycle and factor; solve to 1e-6 against Jacobi-PCG", runMultigrid},
      {"fluid", "one stable-fluids step, projection by two V(4,2) cycles", runFluid},
      {"smooth", "one mean-curvature-flow step (GPU assembly + CG), Eigen LLT and CG peers", runSmooth},
      {"sparse", "SpMV (segment, BCRS 2x2/4x4) and CG on mesh curvature-flow systems", runSparse},
      {"ebj", "enhanced block Jacobi (Bajaj 2004): iteration, solves to 1e-3/1e-4/1e-5 vs Jacobi, CG, CPU GS", runEbj},
      {"lscm", "LSCM parameterization at CNC Table 3 sizes: set-up, whole solve, SpMV and CG on A^T A; Eigen LLT/CG peers", runLscm},
      {"dsi", "DSI smoothing at CNC Table 3 sizes: set-up, whole step, SpMV and CG on A^T A; Eigen LLT/CG peers", runDsi},
      {"refine", "mixed vs single precision: time to 1e-6 and 1e-10 true residual; double CG peers", runRefine},
      {"pressure3d", "3D fluid pressure: MGPCG, multicolour MIC(0)-PCG, Jacobi-PCG to 1e-4/1e-8 on smoke and liquid domains; Eigen IC-CG, cuSPARSE peers", runPressure3D},
      {"fluid3d", "one 3D fluid step (smoke, smoke around spheres, dam break) with MGPCG to 1e-4: cells per second, GPU time per stage", runFluid3D},
  };
  return cases;
}

std::vector<const BenchCase*> selectCases(const std::string& ops) {
  std::vector<std::string> wanted;
  std::stringstream in(ops);
  for (std::string item; std::getline(in, item, ',');) {
    const auto b = item.find_first_not_of(" \t"), e = item.find_last_not_of(" \t");
    if (b == std::string::npos) continue;
    item = item.substr(b, e - b + 1);
    bool known = false;
    for (const BenchCase& c : benchCases()) known = known || item == c.name;
    if (!known) {
      std::string names;
      for (const BenchCase& c : benchCases()) names += std::string(names.empty() ? "" : ", ") + c.name;
      throw std::invalid_argument("--ops: unknown case \"" + item + "\" (cases: " + names + ")");
    }
    wanted.push_back(item);
  }
  std::vector<const BenchCase*> selected;
  for (const BenchCase& c : benchCases()) {
    bool on = wanted.empty() || std::string(c.name) == "limits";
    for (const std::string& w : wanted) on = on || w == c.name;
    if (on) selected.push_back(&c);
  }
  return selected;
}

namespace {

// Runs the selected cases on the current context, adding rows to ctx.report; returns false
// when a case failed.
bool runCases(const std::vector<const BenchCase*>& cases, BenchContext& ctx) {
  bool ok = true;
  for (const BenchCase* c : cases) {
    ctx.progress(std::string(c->name) + ": " + c->summary);
    try {
      c->run(ctx);
    } catch (const std::exception& e) {
      ok = false;
      ctx.progress(std::string(c->name) + " FAILED: " + e.what());
    }
  }
  return ok;
}

}  // namespace

int runBenchmark(const BenchOptions& options) {
  // The kept runs are read first: a file that is not a benchmark JSON fails before the run.
  std::vector<KeptRun> kept;
  for (const std::string& path : options.comparePaths) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("--compare: cannot read " + path);
    try {
      kept.push_back(KeptRun{path, Report::fromJson(nlohmann::json::parse(in))});
    } catch (const std::exception& e) {
      throw std::runtime_error("--compare: " + path + ": " + e.what());
    }
  }
  const std::vector<const BenchCase*> cases = selectCases(options.ops);
  const std::vector<std::string> contexts = options.contexts.empty() ? std::vector<std::string>{"max"} : options.contexts;

  Report report;
  report.date = isoDateNow();
  report.preset = presetName(options.preset);
  bool failedCase = false;
  for (std::size_t k = 0; k < contexts.size(); ++k) {
    const bool primary = k == 0;
    gl::HeadlessContext context(gl::HeadlessOptions{-1, gl::GlRequest::parse(contexts[k]), false});
    stream::Runtime& runtime = stream::Runtime::current();
    if (primary) {
      report.renderer = runtime.caps().summary();
      report.context = context.description();
    } else {
      report.context += "; " + context.description();
    }

    BenchContext ctx{.options = options,
                     .sizes = sizesFor(options.preset),
                     .timing = timingFor(options.preset),
                     .backends = {},
                     .cudaPeers = false,
                     .cpuPeers = options.peers && primary,
                     .report = report};
    if (!options.pressureSizes.empty()) ctx.sizes.pressure3d = options.pressureSizes;
    if (!options.fluid3dSizes.empty()) ctx.sizes.fluid3d = options.fluid3dSizes;
    if (options.batches) ctx.timing.batches = *options.batches;
    if (options.minBatchMs) ctx.timing.minBatchMs = *options.minBatchMs;

    if (options.backends != "compute") ctx.backends.push_back(stream::Backend::Fragment);
    if (options.backends != "fragment") {
      if (runtime.caps().compute) {
        ctx.backends.push_back(stream::Backend::Compute);
      } else {
        ctx.progress("compute backend unavailable (" + runtime.caps().apiName() +
                     "): measuring the fragment backend only");
        if (options.backends == "compute") throw std::runtime_error("--backend compute: " + runtime.caps().summary() + " has no compute shaders");
      }
    }
    std::string whyNoCuda;
    if (options.peers && primary) {
      ctx.cudaPeers = cuda::available(&whyNoCuda);
      if (ctx.cudaPeers) report.cudaDevice = cuda::deviceName();
      else ctx.progress("CUDA peers off: " + whyNoCuda);
    }

    std::cout << "renderer: " << runtime.caps().summary() << "\n"
              << "context:  " << context.description() << "\n";
    if (ctx.cudaPeers) std::cout << "cuda:     " << report.cudaDevice << "\n";
    std::cout << "preset:   " << report.preset << ", " << ctx.timing.batches << " batches of >= "
              << ctx.timing.minBatchMs << " ms, median" << std::endl;

    const std::size_t firstRow = report.rows.size();
    failedCase = !runCases(cases, ctx) || failedCase;
    // Rows of the further contexts say where they ran: "fragment@4.1" (ceilings are
    // matched within the same context, peers come from the first).
    if (!primary) {
      for (std::size_t i = firstRow; i < report.rows.size(); ++i) report.rows[i].backend += "@" + contexts[k];
    }
  }

  report.finalize();
  std::cout << "\n" << formatHeader() << "\n";
  for (const Row& r : report.rows) std::cout << formatRow(r) << "\n";
  std::cout.flush();

  if (options.jsonPath) {
    std::ofstream out(*options.jsonPath);
    if (!out) throw std::runtime_error("--json: cannot write " + *options.jsonPath);
    out << report.toJson().dump(2) << "\n";
    if (!out) throw std::runtime_error("--json: error writing " + *options.jsonPath);
    std::cerr << "texstream-bench: wrote " << *options.jsonPath << std::endl;
    std::remove((*options.jsonPath + ".partial").c_str());
  }
  if (failedCase || !report.allOk()) {
    std::cerr << "texstream-bench: some rows failed their correctness check or a case failed (see above)" << std::endl;
    return 2;
  }
  if (!kept.empty()) {
    const Comparison c = compareReports(report, kept);
    if (kept.size() == 1)
      std::cout << "\ncompared with " << kept[0].path << " (" << kept[0].report.date << ", " << kept[0].report.renderer
                << "):\n";
    else
      std::cout << "\ncompared with " << kept.size() << " kept runs, each row with the newest that has it:\n";
    std::cout << c.text;
    if (!c.warning.empty()) std::cout << "warning: " << c.warning << "\n";
    std::cout << c.matched << (kept.size() == 1 ? " rows in both runs: " : " rows found in a kept run: ") << c.slower << " more than "
              << int(kCompareThreshold * 100 + 0.5) << "% slower, " << c.faster << " faster" << std::endl;
    if (c.slower > 0) return 3;
  }
  return 0;
}

}  // namespace texstream::bench
