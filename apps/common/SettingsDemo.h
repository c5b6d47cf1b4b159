#pragma once
// texstream::app::SettingsDemo: a Demo whose settings are one struct S that `Describe`
// (Settings.h) lays out as a SettingTable, the table the panel, the presets and the
// command line share. It owns the struct and the table over it, and implements the Demo's
// presets once:
//  - saveSettings: the live state synced into the struct (syncSettings), then the table's
//    values;
//  - loadSettings: a fresh struct (presetBase: the defaults, and what only the command line
//    sets), the preset's values read into it through a table of its own (a bad value or key
//    is a problem line, the rest applies), checkPreset, then the demo rebuilt from it
//    (applySettings). Where the rebuild throws, the previous settings come back
//    (restoreSettings) and the error names the preset.
//   class WaveDemo : public SettingsDemo<WaveSettings, describeWaveSettings> { ... };
#include "DemoRunner.h"
#include "Settings.h"

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace texstream::app {

template <class S, void (*Describe)(SettingTable&, S&)>
class SettingsDemo : public Demo {
 public:
  using Settings = S;
  /// Lays out `settings` as the table of this demo (the command line's, demoMain<D>).
  static void describeSettings(SettingTable& table, S& settings) { Describe(table, settings); }

  bool hasPresets() const final { return true; }
  nlohmann::ordered_json saveSettings() final {
    syncSettings();
    return m_table.toJson();
  }
  std::vector<std::string> loadSettings(const nlohmann::json& values, const std::string& source) final {
    S next = presetBase();
    std::vector<std::string> problems;
    {
      SettingTable table;
      Describe(table, next);
      problems = table.setJson(values, source);
    }
    checkPreset(next, source);
    S previous = std::exchange(m_settings, std::move(next));
    try {
      applySettings();
    } catch (const std::exception& e) {
      m_settings = std::move(previous);
      restoreSettings();
      throw std::runtime_error(source + ": " + e.what());
    }
    presetLoaded(source);
    return problems;
  }

 protected:
  explicit SettingsDemo(S settings) : m_settings(std::move(settings)) { Describe(m_table, m_settings); }

  /// Copies the state the demo changes outside the table (the solver's parameters after a
  /// panel edit) into m_settings, before a save.
  virtual void syncSettings() {}
  /// The settings a preset is read over: the defaults, and what only the command line sets
  /// (output paths) carried over from m_settings.
  virtual S presetBase() const { return S{}; }
  /// Completes and checks a preset's settings before they apply; throws (naming `source`)
  /// what cannot run, the demo unchanged.
  virtual void checkPreset(S& /*next*/, const std::string& /*source*/) const {}
  /// Builds the simulation from m_settings; throws when they cannot run.
  virtual void applySettings() = 0;
  /// After applySettings threw, with m_settings back at the previous values: brings the
  /// demo back to them (by default, by applying them again).
  virtual void restoreSettings() { applySettings(); }
  /// After a preset applied (a status line in the panel).
  virtual void presetLoaded(const std::string& /*source*/) {}

  S m_settings;
  SettingTable m_table;  ///< over m_settings
};

}  // namespace texstream::app
