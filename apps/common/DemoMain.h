#pragma once
// The main of every demo program (texstream-fluid, -fluid3d, -smooth, -wave, -param): the
// command line (DemoCommandLine: the shared options, the program's own and its settings
// table), the run in a window or headless (runDemo), what the program writes after a run
// that succeeded, and the one handler of MainGuard.h around all of it. A SettingsDemo
// (SettingsDemo.h) names its settings table and its constructor through demoMain<D>:
//   int main(int argc, char** argv) {
//     return app::demoMain<app::WaveDemo>(argc, argv, [](app::WaveSettings& settings) -> app::DemoProgram {
//       return {.info = {"wave", "texstream-wave: 2D wave equation", 1280, 800, app::kWaveBindings},
//               .description = "texstream-wave: the 2D wave equation on the GPU",
//               .validate = [&settings] { app::finishWaveSettings(settings); }};
//     });
//   }
#include "AppOptions.h"
#include "DemoRunner.h"

#include <functional>
#include <memory>
#include <string>

namespace texstream::app {

class SettingTable;

struct DemoProgram {
  /// The program is "texstream-" + info.name.
  AppInfo info{};
  /// --help's first lines.
  std::string description{};
  /// The demo reads a mesh, which sets its sizes: --help's description says that --size is
  /// not used.
  bool meshSetsSizes = false;
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

/// The main of a SettingsDemo D (SettingsDemo.h): the settings are D's, which the command
/// line fills through D's table and the demo is made from; `programOf` returns the rest
/// of the program over them (its validate and afterRun may read them).
template <class D>
int demoMain(int argc, char** argv, const std::function<DemoProgram(typename D::Settings&)>& programOf) {
  typename D::Settings settings;
  DemoProgram program = programOf(settings);
  program.describeSettings = [&settings](SettingTable& table) { D::describeSettings(table, settings); };
  program.make = [&settings](const RunContext& ctx) { return std::make_unique<D>(ctx, settings); };
  return demoMain(argc, argv, program);
}

}  // namespace texstream::app
