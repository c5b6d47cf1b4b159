// One step of the 3D fluid (fluid/FluidSolver3D.h) on n^3 cells, rendering excluded, at each
// size of the preset: smoke (open top), smoke around spheres (the moving one rebuilds the
// matrix and the V-cycle each step) and the dam break (liquid: level set, redistancing and
// volume correction, ghost-fluid free surface, extrapolation), each projected to a relative
// residual of 1e-4 by MGPCG (the defaults). A row's ms is the median step after ten steps of
// warm-up (the flow under way), by the wall clock with the GPU drained (the solve reads its
// residual back every iteration); max_rel_err is the divergence after / before the projection
// of a step with statistics, at most twice the tolerance. Extras: cells per second, the
// CG iterations, and the GPU time per stage of a step from the pass profiler (passes
// labelled "fluid3d <stage>"; the pressure solve and its set-up by the solver's labels).
#include "BenchCase.h"
#include "ProfileSteps.h"
#include "StatisticsStep.h"

#include <texstream/fluid/FluidSolver3D.h>
#include <texstream/gl/StateGuard.h>
#include <texstream/stream/Profiler.h>
#include <texstream/stream/Runtime.h>

#include <glad/gl.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace texstream::bench {

namespace {

struct SceneCase {
  const char* name;
  fluid::Scene3D scene;
};

const SceneCase kScenes[] = {
    {"smoke", fluid::Scene3D::Smoke},
    {"smoke_sphere", fluid::Scene3D::SmokeSphere},
    {"liquid", fluid::Scene3D::DamBreak},
};

/// The stage a pass label belongs to.
std::string stageOf(const std::string& label) {
  static const std::pair<const char*, const char*> kStages[] = {
      {"fluid3d advect", "advect"},         {"fluid3d curl", "forces"},
      {"fluid3d forces", "forces"},         {"fluid3d redistance", "level_set"},
      {"fluid3d volume", "level_set"},      {"fluid3d solids", "solids"},
      {"fluid3d labels", "pressure_setup"}, {".build", "pressure_setup"},
      {"mg3d coarse", "pressure_setup"},    {"mic0 factor", "pressure_setup"},
      {"inverse diagonal", "pressure_setup"}, {"fluid3d divergence", "divergence"},
      {"fluid3d project", "project"},       {"fluid3d extrapolate", "extrapolate"},
  };
  for (const auto& [key, stage] : kStages) {
    if (label.find(key) != std::string::npos) return stage;
  }
  // Everything else is the pressure solve's: CG, its preconditioner and its reductions (the
  // liquid's two volume sums among them).
  return "pressure_solve";
}

std::string fixed2(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

}  // namespace

void runFluid3D(BenchContext& ctx) {
  for (const int n : ctx.sizes.fluid3d) {
    const std::size_t cells = std::size_t(n) * std::size_t(n) * std::size_t(n);
    for (const SceneCase& sc : kScenes) {
      const std::string op = std::string("fluid3d.") + sc.name;
      ctx.progress(op + ": " + std::to_string(n) + "^3 cells");
      for (stream::Backend backend : ctx.backends) {
        stream::BackendScope scope(backend);
        gl::StateGuard guard;
        fluid::FluidParameters3D p;
        p.scene = sc.scene;
        p.nx = p.ny = p.nz = n;
        p.statistics = false;
        if (ctx.options.pressureBoundarySweeps) p.multigrid.boundarySweeps = *ctx.options.pressureBoundarySweeps;
        fluid::FluidSolver3D solver(p);
        for (int k = 0; k < 10; ++k) solver.step();
        // Correctness: one step with statistics.
        const fluid::StepStats3D stats = statisticsStep(solver);
        const Timing t = timeGl([&] { solver.step(); }, ctx.timing, /*gpuTimer=*/false);

        // GPU time per stage over three more steps (where the context has timer queries).
        std::map<std::string, double> stageMs;
        long long passes = 0;
        if (stream::Profiler::available()) {
          for (const auto& [label, st] : profileSteps(3, [&] { solver.step(); })) {
            stageMs[stageOf(label)] += st.totalMs / 3.0;
            passes += st.passes;
          }
        }

        Row row = makeRow(op, stream::backendName(backend), cells, t, 0.0, 0.0, 0.0);
        row.maxRelErr = stats.finite && stats.divergenceBefore > 0 ? stats.divergenceAfter / stats.divergenceBefore : NAN;
        row.tolerance = 2.0 * double(p.pressure.tolerance);
        row.extras = {{"cells_per_second", t.ms > 0 ? double(cells) / (t.ms * 1e-3) : 0.0},
                      {"iterations", double(stats.iterations)},
                      {"passes_per_step", double(passes) / 3.0}};
        std::string stages;
        for (const auto& [stage, ms] : stageMs) {
          row.extras.push_back({"stage_ms_" + stage, ms});
          stages += (stages.empty() ? "" : ", ") + stage + " " + fixed2(ms);
        }
        if (solver.liquid()) row.extras.push_back({"liquid_volume", stats.liquidVolume});
        row.note = fixed2(double(cells) / (t.ms * 1e-3) / 1e6) + " M cells/s, MGPCG to 1e-4: " +
                   std::to_string(stats.iterations) + " iterations (boundary sweeps " +
                   std::to_string(p.multigrid.boundarySweeps) + ", band " + std::to_string(p.multigrid.boundaryWidth) +
                   "); " +
                   (stages.empty() ? std::string("no GPU timers on this context") : "GPU ms per stage: " + stages);
        ctx.add(std::move(row));
      }
    }
  }
}

}  // namespace texstream::bench
