// texstream-fluid3d: smoke and liquid in 3D (scenes smoke, smoke-sphere, dam-break, drop,
// pool), the pressure projected by CG with a multigrid, MIC(0) or Jacobi preconditioner,
// drawn by ray casting: smoke through its volume, the liquid's surface from its level set.
// Windowed by default (drag orbits, scroll zooms; keys: Fluid3DDemo.h's and the shell's);
// --headless (or no DISPLAY) runs --steps and writes --screenshot / --json / --record
// (--steps 0: the initial state). The settings (Fluid3DSettings.h) are options and preset
// keys alike; --size takes N (a cube) or NXxNYxNZ.
// Exit status (app::kDemoExitStatus): 0 done; 1 a failure or a blow-up; 2 a bad command
// line, or a grid beyond the GPU's texture limit; 3 a context without RGBA32F targets.
#include "AppOptions.h"
#include "DemoCommandLine.h"
#include "DemoRunner.h"
#include "Fluid3DDemo.h"
#include "Fluid3DSettings.h"
#include "MainGuard.h"

#include <texstream/stream/EnumNames.h>

#include <filesystem>
#include <string>

namespace {

int runMain(int argc, char** argv) {
  using namespace texstream;
  app::AppOptions defaults;
  defaults.defaultSteps = 100;
  defaults.size = {2, 2};
  app::DemoCommandLine cmd("texstream-fluid3d",
                           "texstream-fluid3d: smoke and liquid in 3D on the GPU, the pressure by preconditioned CG "
                           "(MGPCG by default), drawn by ray casting",
                           defaults);
  // The shared --size is a 2D grid's: the settings' 3D --size takes its place (and the
  // shell's 2D size, which it checks against the texture limit, stays the smallest).
  cmd.cli().remove_option(cmd.cli().get_option("--size"));

  app::Fluid3DSettings settings;
  app::SettingTable table;
  app::describeFluid3DSettings(table, settings);
  cmd.settings(table);
  cmd.footer(app::kFluid3DBindings);
  std::string exportDir, exportFormat = "mtx";
  cmd.cli()
      .add_option("--export-system", exportDir,
                  "After the run, write the last step's pressure system A q = b (over the cells with an equation) "
                  "and texstream's solution x_texstream.mtx into DIR (for other solvers; see apps/solve/petsc_solve.py)")
      ->type_name("DIR");
  cmd.cli()
      .add_option("--export-format", exportFormat,
                  "Format of --export-system: Matrix Market (A.mtx, b.mtx) or PETSc binary (system.petsc)")
      ->type_name("mtx|petsc")
      ->capture_default_str();

  const auto exitCode = cmd.parse(argc, argv, [&] {
    settings.exportPetsc = app::parseChoice("--export-format", exportFormat, {"mtx", "petsc"}) == "petsc";
    if (!exportDir.empty() && std::filesystem::exists(exportDir) && !std::filesystem::is_directory(exportDir))
      throw app::UsageError("--export-system: invalid value \"" + exportDir + "\": exists and is not a directory");
    settings.exportDirectory = exportDir;
  });
  if (exitCode) return *exitCode;

  app::AppInfo info{"fluid3d", "texstream-fluid3d: smoke and liquid in 3D", 1280, 800, app::kFluid3DBindings};
  info.needsFloatTargets = "every scene (" + stream::nameList(fluid::scene3DNames()) +
                           ") projects its pressure by CG on 32-bit float fields";
  return app::runDemo(info, cmd.options(), [&](const app::RunContext& ctx) {
    return std::make_unique<app::Fluid3DDemo>(ctx, settings);
  });
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return runMain(argc, argv);
  } catch (...) {
    return texstream::app::failedMain("texstream-fluid3d");
  }
}
