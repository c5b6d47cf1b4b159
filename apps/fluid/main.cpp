// texstream-fluid: Stam's stable fluids with the pressure solved by the layered multigrid
// of Bolz et al. 2003, §4 (scenes smoke, channel (Bolz fig. 5), cavity, obstacles), on
// the fragment or compute backend. Windowed by default (mouse: left drag stirs, right
// drag paints obstacles; keys: FluidDemo.h's and the shell's); --headless (or no DISPLAY)
// runs --steps and writes --screenshot / --json / --export-fields / --record (--steps 0:
// the initial state). The settings (FluidSettings.h) are options and preset keys alike.
// Exit status (app::kDemoExitStatus): 0 done; 1 a failure or a blow-up (NaN, or speeds
// far beyond anything the scene injects); 2 a bad command line.
#include "DemoMain.h"
#include "FluidDemo.h"
#include "FluidSettings.h"
#include "OutputPath.h"

int main(int argc, char** argv) {
  using namespace texstream;
  std::string exportText;
  return app::demoMain<app::FluidDemo>(argc, argv, [&](app::FluidSettings& settings) -> app::DemoProgram {
    return {// On a half-float-only context (iOS Safari) the fluid runs its advected fields in RGBA16F.
            .info = {"fluid", "texstream-fluid: stable fluids on the layered multigrid", 1280, 800, app::kFluidBindings,
                     true},
            .description =
                "texstream-fluid: stable fluids on the GPU, pressure by the layered multigrid (Bolz et al. 2003, s4)",
            .defaults = {.size = {256, 256}, .defaultSteps = 100},
            .addOptions =
                [&](CLI::App& cli) {
                  cli.add_option("--export-fields", exportText, "Write the final fields as CSV (i,j,x,y,u,v,p)")
                      ->type_name("PATH.csv");
                },
            .validate =
                [&] {
                  if (!exportText.empty()) {
                    if (exportText.size() < 5 || exportText.substr(exportText.size() - 4) != ".csv")
                      throw app::UsageError("--export-fields: invalid value \"" + exportText +
                                            "\": the file name must end in .csv");
                    app::requireWritablePath("--export-fields", exportText);
                    settings.exportFields = exportText;
                  }
                  app::finishFluidSettings(settings);
                }};
  });
}
