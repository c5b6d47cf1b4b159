#pragma once
// Presets: a demo's settings (Settings.h) as a JSON file, saved and loaded by the panel,
// --preset and --save-preset, and by dropping the file onto the window:
//   {"app": "fluid", "description": "Ghia et al. 1982's cavity at Re 1000",
//    "scene": "cavity", "re": 1000, "size": [129, 129]}
// "app" names the demo the preset is for and "description" says what it shows; every other
// key is a setting's name (the command line's option without "--"). Keys a preset lacks take
// their defaults. Shipped presets (assets/presets/*.json) are built into the programs and
// are named by their file name without ".json" ("fluid-cavity-re1000").
// Presets come from strangers (a dropped file, a page's file picker): the text is at most
// kPresetMaxBytes, nested at most kPresetMaxDepth deep, and a number beyond double's range
// drops its key alone (`dt: 1e309 is not a finite number`), as a bad value does.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace texstream::app {

/// The largest preset text read (a preset is a few hundred bytes).
inline constexpr std::size_t kPresetMaxBytes = 1 << 20;
/// The deepest nesting of arrays and objects read (a preset's {"size": [w, h]} is 2).
inline constexpr int kPresetMaxDepth = 32;

struct Preset {
  std::string app;          ///< the demo it is for ("fluid")
  std::string description;  ///< "" where it has none
  nlohmann::json values;    ///< the settings: an object
  std::string source;       ///< where it came from, for messages: a path or a shipped preset's name
  /// Keys dropped while reading, one line each naming the key
  /// (`p.json: dt: 1e309 is not a finite number`); the rest loads.
  std::vector<std::string> problems;
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
/// cannot be read or is not a regular file, text beyond kPresetMaxBytes, JSON that does
/// not parse (with the line) or nests deeper than kPresetMaxDepth (with the line), a top
/// level that is not an object, or an "app" other than `app`.
Preset readPreset(const std::string& pathOrName, const std::string& app, std::string_view option);
/// Parses preset JSON text (as readPreset; `source` names it in messages).
Preset parsePreset(const std::string& text, const std::string& source, const std::string& app, std::string_view option);
/// Writes {"app", "description" (if any), values...} to `path`; throws std::runtime_error
/// naming the path.
void writePreset(const std::string& path, const std::string& app, const nlohmann::ordered_json& values,
                 const std::string& description = "");

}  // namespace texstream::app
