// texstream-fluid: Stam's stable fluids with the pressure solved by the layered multigrid
// of Bolz et al. 2003, §4 (scenes smoke, channel (Bolz fig. 5), cavity, obstacles), on
// the fragment or compute backend. Windowed by default (mouse: left drag stirs, right
// drag paints obstacles; keys: FluidDemo.h's and the shell's); --headless (or no DISPLAY)
// runs --steps and writes --screenshot / --json / --export-fields / --record (--steps 0:
// the initial state). The settings (FluidSettings.h) are options and preset keys alike.
// Exit status (app::kDemoExitStatus): 0 done; 1 a failure or a blow-up (NaN, or speeds
// far beyond anything the scene injects); 2 a bad command line.
#include "AppOptions.h"
#include "DemoCommandLine.h"
#include "DemoRunner.h"
#include "FluidDemo.h"
#include "FluidSettings.h"
#include "MainGuard.h"
#include "OutputPath.h"

namespace {

int runMain(int argc, char** argv) {
  using namespace texstream;
  app::AppOptions defaults;
  defaults.size = {256, 256};
  defaults.defaultSteps = 100;
  app::DemoCommandLine cmd("texstream-fluid",
                       "texstream-fluid: stable fluids on the GPU, pressure by the layered multigrid (Bolz et al. 2003, s4)",
                       defaults);
  std::string exportText;
  CLI::App& cli = cmd.cli();
  cli.add_option("--export-fields", exportText, "Write the final fields as CSV (i,j,x,y,u,v,p)")->type_name("PATH.csv");

  app::FluidSettings settings;
  app::SettingTable table;
  app::describeFluidSettings(table, settings);
  cmd.settings(table);
  cmd.footer(app::kFluidBindings);

  const auto exitCode = cmd.parse(argc, argv, [&] {
    if (!exportText.empty()) {
      if (exportText.size() < 5 || exportText.substr(exportText.size() - 4) != ".csv")
        throw app::UsageError("--export-fields: invalid value \"" + exportText + "\": the file name must end in .csv");
      app::requireWritablePath("--export-fields", exportText);
      settings.exportFields = exportText;
    }
  });
  if (exitCode) return *exitCode;
  app::finishFluidSettings(settings);

  // On a half-float-only context (iOS Safari) the fluid runs its advected fields in RGBA16F.
  app::AppInfo info{"fluid", "texstream-fluid: stable fluids on the layered multigrid", 1280, 800, app::kFluidBindings,
                    true};
  return app::runDemo(info, cmd.options(), [&](const app::RunContext& ctx) {
    return std::make_unique<app::FluidDemo>(ctx, settings);
  });
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return runMain(argc, argv);
  } catch (...) {
    return texstream::app::failedMain("texstream-fluid");
  }
}
