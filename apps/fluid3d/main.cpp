// texstream-fluid3d: smoke and liquid in 3D (scenes smoke, smoke-sphere, dam-break, drop,
// pool), the pressure projected by CG with a multigrid, MIC(0) or Jacobi preconditioner,
// drawn by ray casting: smoke through its volume, the liquid's surface from its level set.
// Windowed by default (drag orbits, scroll zooms; keys: Fluid3DDemo.h's and the shell's);
// --headless (or no DISPLAY) runs --steps and writes --screenshot / --json / --record
// (--steps 0: the initial state). The settings (Fluid3DSettings.h) are options and preset
// keys alike; --size takes N (a cube) or NXxNYxNZ.
// Exit status (app::kDemoExitStatus): 0 done; 1 a failure or a blow-up; 2 a bad command
// line, or a grid beyond the GPU's texture limit; 3 a context without RGBA32F targets.
#include "DemoMain.h"
#include "Fluid3DDemo.h"
#include "Fluid3DSettings.h"
#include "SystemExportOptions.h"

#include <texstream/stream/EnumNames.h>

#include <string>

int main(int argc, char** argv) {
  using namespace texstream;
  app::SystemExportOptions exportOptions;
  return app::demoMain<app::Fluid3DDemo>(argc, argv, [&](app::Fluid3DSettings& settings) -> app::DemoProgram {
    return {.info = {.name = "fluid3d",
                     .title = "texstream-fluid3d: smoke and liquid in 3D",
                     .bindings = app::kFluid3DBindings,
                     .needsFloatTargets = "every scene (" + stream::nameList(fluid::scene3DNames()) +
                                          ") projects its pressure by CG on 32-bit float fields"},
            .description = "texstream-fluid3d: smoke and liquid in 3D on the GPU, the pressure by preconditioned CG "
                           "(MGPCG by default), drawn by ray casting",
            .defaults = {.size = {2, 2}, .defaultSteps = 100},
            .addOptions =
                [&](CLI::App& cli) {
                  // The shared --size is a 2D grid's: the settings' 3D --size takes its place (and the
                  // shell's 2D size, which it checks against the texture limit, stays the smallest).
                  cli.remove_option(cli.get_option("--size"));
                  exportOptions.addTo(cli,
                                      "After the run, write the last step's pressure system A q = b (over the cells "
                                      "with an equation) and texstream's solution x_texstream.mtx into DIR (for other "
                                      "solvers; see apps/solve/petsc_solve.py)");
                },
            .validate =
                [&] {
                  exportOptions.check();
                  settings.exportPetsc = exportOptions.petsc();
                  settings.exportDirectory = exportOptions.directory();
                }};
  });
}
