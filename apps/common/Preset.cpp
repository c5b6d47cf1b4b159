#include "Preset.h"

#include "AppOptions.h"

#include <texstream/text/Format.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace texstream::app {

namespace {

[[noreturn]] void refuse(std::string_view option, const std::string& what, const std::string& why) {
  throw UsageError(std::string(option) + ": invalid value " + text::quoted(what) + ": " + why);
}

}  // namespace

Preset parsePreset(const std::string& text, const std::string& source, const std::string& app, std::string_view option) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    // e.what() reads "[json.exception.parse_error.101] parse error at line 3, column 7: ..."
    std::string why = e.what();
    if (const std::size_t at = why.find("parse error"); at != std::string::npos) why = why.substr(at);
    refuse(option, source, "not JSON: " + why);
  }
  if (!j.is_object()) refuse(option, source, "a preset is a JSON object, this is " + std::string(j.type_name()));
  Preset p;
  p.source = source;
  if (auto it = j.find("app"); it != j.end()) {
    if (!it->is_string()) refuse(option, source, "\"app\" must be a string (the demo's name, e.g. \"" + app + "\")");
    p.app = it->get<std::string>();
    if (p.app != app)
      refuse(option, source, "this preset is for texstream-" + p.app + ", not texstream-" + app);
    j.erase(it);
  } else {
    p.app = app;
  }
  if (auto it = j.find("description"); it != j.end()) {
    if (it->is_string()) p.description = it->get<std::string>();
    j.erase(it);
  }
  p.values = std::move(j);
  return p;
}

Preset readPreset(const std::string& pathOrName, const std::string& app, std::string_view option) {
  std::error_code ec;
  if (!std::filesystem::exists(pathOrName, ec)) {
    for (const ShippedPreset& s : shippedPresets())
      if (pathOrName == s.name) return parsePreset(s.text, pathOrName, app, option);
    std::string names;
    for (const Preset& p : shippedPresetsFor(app)) names += (names.empty() ? "" : ", ") + p.source;
    refuse(option, pathOrName,
           "no such file, nor a shipped preset" + (names.empty() ? std::string() : " (shipped for " + app + ": " + names + ")"));
  }
  if (std::filesystem::is_directory(pathOrName, ec)) refuse(option, pathOrName, "it is a directory");
  std::ifstream in(pathOrName);
  if (!in) refuse(option, pathOrName, "cannot open it for reading");
  std::ostringstream text;
  text << in.rdbuf();
  return parsePreset(text.str(), pathOrName, app, option);
}

void writePreset(const std::string& path, const std::string& app, const nlohmann::ordered_json& values,
                 const std::string& description) {
  nlohmann::ordered_json out;
  out["app"] = app;
  if (!description.empty()) out["description"] = description;
  for (auto it = values.begin(); it != values.end(); ++it) out[it.key()] = *it;
  std::ofstream file(path);
  if (!file) throw std::runtime_error("writePreset(\"" + path + "\"): cannot open the file for writing");
  file << out.dump(2) << "\n";
  if (!file) throw std::runtime_error("writePreset(\"" + path + "\"): write failed");
}

std::vector<Preset> shippedPresetsFor(const std::string& app) {
  std::vector<Preset> out;
  for (const ShippedPreset& s : shippedPresets()) {
    try {
      out.push_back(parsePreset(s.text, s.name, app, "shipped preset"));
    } catch (const UsageError&) {
      // Another demo's preset.
    }
  }
  return out;
}

}  // namespace texstream::app
