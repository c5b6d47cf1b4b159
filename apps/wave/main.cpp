// texstream-wave: the 2D wave equation of Krüger & Westermann (GPU Gems 2, §44.4) as a lit
// height field, explicit or implicit (Crank–Nicolson + CG), on the fragment or compute
// backend. Windowed by default; --headless (or no DISPLAY) runs --steps and writes
// --screenshot / --json / --record. The settings (WaveSettings.h) are options and preset
// keys alike.
// Exit status (app::kDemoExitStatus): 0 done; 1 a failure or a blow-up (the explicit
// scheme past its CFL limit: NaN, or the energy running away); 2 a bad command line.
#include "AppOptions.h"
#include "DemoCommandLine.h"
#include "DemoRunner.h"
#include "MainGuard.h"
#include "WaveDemo.h"
#include "WaveSettings.h"

namespace {

int runMain(int argc, char** argv) {
  using namespace texstream;
  app::AppOptions defaults;
  defaults.size = {256, 256};
  app::DemoCommandLine cmd("texstream-wave",
                       "texstream-wave: the 2D wave equation on the GPU (Krueger & Westermann, GPU Gems 2 s44.4)",
                       defaults);
  app::WaveSettings settings;
  app::SettingTable table;
  app::describeWaveSettings(table, settings);
  cmd.settings(table);
  cmd.footer(app::kWaveBindings);

  const auto exitCode = cmd.parse(argc, argv);
  if (exitCode) return *exitCode;
  app::finishWaveSettings(settings);

  app::AppInfo info{"wave", "texstream-wave: 2D wave equation", 1280, 800, app::kWaveBindings};
  return app::runDemo(info, cmd.options(), [&](const app::RunContext& ctx) {
    return std::make_unique<app::WaveDemo>(ctx, settings);
  });
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return runMain(argc, argv);
  } catch (...) {
    return texstream::app::failedMain("texstream-wave");
  }
}
