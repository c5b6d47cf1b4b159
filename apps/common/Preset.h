#pragma once
// Presets: a demo's settings (Settings.h) as a JSON file, saved and loaded by the panel,
// --preset and --save-preset, and by dropping the file onto the window:
//   {"app": "fluid", "description": "Ghia et al. 1982's cavity at Re 1000",
//    "scene": "cavity", "re": 1000, "size": [129, 129]}
// "app" names the demo the preset is for and "description" says what it shows; every other
// key is a setting's name (the command line's option without "--"). Keys a preset lacks take
// their defaults. Shipped presets (assets/presets/*.json) are built into the programs and
// are named by their file name without ".json" ("fluid-cavity-re1000").
#include <nlohmann/json.hpp>

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace texstream::app {

struct Preset {
  std::string app;          ///< the demo it is for ("fluid")
  std::string description;  ///< "" where it has none
  nlohmann::json values;    ///< the settings: an object
  std::string source;       ///< where it came from, for messages: a path or a shipped preset's name
};

/// A preset built into the programs.
struct ShippedPreset {
  const char* name;  ///< "fluid-cavity-re1000"
  const char* text;  ///< the JSON file
};
/// Every shipped preset (assets/presets/), in name order.
std::span<const ShippedPreset> shippedPresets();
/// The shipped presets for `app`, parsed.
std::vector<Preset> shippedPresetsFor(const std::string& app);

/// Reads the preset file `pathOrName`, or the shipped preset of that name where no such file
/// exists. Throws UsageError("<option>: invalid value "<pathOrName>": why") for a file that
/// cannot be read, JSON that does not parse (with the line), a top level that is not an
/// object, or an "app" other than `app`.
Preset readPreset(const std::string& pathOrName, const std::string& app, std::string_view option);
/// Parses preset JSON text (as readPreset; `source` names it in messages).
Preset parsePreset(const std::string& text, const std::string& source, const std::string& app, std::string_view option);
/// Writes {"app", "description" (if any), values...} to `path`; throws std::runtime_error
/// naming the path.
void writePreset(const std::string& path, const std::string& app, const nlohmann::ordered_json& values,
                 const std::string& description = "");

}  // namespace texstream::app
