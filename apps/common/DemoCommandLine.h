#pragma once
// The command line of the demos (texstream-fluid, -wave, -smooth): the shared options of
// AppOptions.h and
//   --window WxH  --preset PATH.json|NAME  --save-preset PATH.json  --drop PATH  --check-panel
//   --record PATH.mp4|.webm|.gif  --record-fps N  --record-size WxH  --record-panel
// and the demo's settings table (Settings.h): each setting is an option --NAME and the key
// NAME of the demo's presets. --preset loads a preset into the settings before the options
// given beside it apply; a key it cannot take is a warning naming the key, and the rest
// loads. --help ends with the keys and mouse bindings, the shipped presets and the exit codes.
#include "AppOptions.h"
#include "KeyBindings.h"

#include <span>
#include <string>

namespace texstream::app {

class SettingTable;

class DemoCommandLine : public CommandLine {
 public:
  DemoCommandLine(std::string program, std::string description, AppOptions defaults);

  /// The app's name: the program's without "texstream-" ("fluid"), as presets name it.
  std::string app() const;
  /// Adds the app's settings as options; `table` must outlive parse().
  void settings(SettingTable& table);
  /// The --help footer: `bindings` with the shared keys, the shipped presets, the exit codes.
  void footer(std::span<const Binding> bindings);

  /// CommandLine::parse, then the demo options, --preset, the settings given, and
  /// `validateExtra`.
  std::optional<int> parse(int argc, char** argv, const std::function<void()>& validateExtra = {});

 private:
  void validateDemoOptions();

  std::string m_windowText, m_recordFpsText = "30", m_recordSizeText;
  SettingTable* m_table = nullptr;
};

}  // namespace texstream::app
