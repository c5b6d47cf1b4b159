#pragma once
// The main of every demo program (texstream-fluid, -fluid3d, -smooth, -wave, -param): the
// command line (DemoCommandLine: the shared options, the program's own and its settings
// table), the run in a window or headless (runDemo), what the program writes after a run
// that succeeded, and the one handler of MainGuard.h around all of it:
//   int main(int argc, char** argv) {
//     app::WaveSettings settings;
//     return app::demoMain(argc, argv,
//         {.info = {"wave", "texstream-wave: 2D wave equation", 1280, 800, app::kWaveBindings},
//          .description = "texstream-wave: the 2D wave equation on the GPU",
//          .describeSettings = [&](app::SettingTable& t) { app::describeWaveSettings(t, settings); },
//          .make = [&](const app::RunContext& ctx) { return std::make_unique<app::WaveDemo>(ctx, settings); }});
//   }
#include "AppOptions.h"
#include "DemoRunner.h"

#include <functional>
#include <string>

namespace texstream::app {

class SettingTable;

struct DemoProgram {
  /// The program is "texstream-" + info.name.
  AppInfo info{};
  /// --help's first lines.
  std::string description{};
  /// The shared options' defaults (--size, --steps).
  AppOptions defaults{};
  /// Adds the program's own options, before the settings (and removes shared ones it
  /// replaces: a setting of the same name is read from the shared option).
  std::function<void(CLI::App&)> addOptions{};
  /// Describes the settings (Settings.h) into the table the command line and presets share.
  std::function<void(SettingTable&)> describeSettings{};
  /// After parsing: checks the program's own options and completes the settings; throws
  /// UsageError naming the option.
  std::function<void()> validate{};
  /// Makes the demo once the context exists.
  DemoFactory make{};
  /// After a run that exited 0: writes what the program keeps (--out) and says so on
  /// stderr; what it throws is "<program>: error: <what>" on stderr and exit code 1.
  std::function<void()> afterRun{};
};

/// Parses the command line, runs the demo and returns the exit code (kDemoExitStatus).
int demoMain(int argc, char** argv, const DemoProgram& program);

}  // namespace texstream::app
