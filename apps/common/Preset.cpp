#include "Preset.h"

#include "AppOptions.h"
#include "MainGuard.h"

#include <texstream/text/Format.h>

#include <clocale>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace texstream::app {

namespace {

[[noreturn]] void refuse(std::string_view option, const std::string& what, const std::string& why) {
  throw UsageError(std::string(option) + ": invalid value " + text::quoted(what) + ": " + why);
}

// nlohmann's parser refuses a number beyond double's range outright (out_of_range.406),
// which would end the whole preset. Before it parses, such a number becomes a string
// holding this marker and the number's text; afterwards its key is dropped and named.
constexpr std::string_view kBeyondDouble = "\x01" "beyond-double:";
constexpr std::string_view kBeyondDoubleEscaped = "\\u0001beyond-double:";

/// The length of the JSON number (RFC 8259's grammar) at the start of `s`, or 0.
std::size_t jsonNumberLength(std::string_view s) {
  std::size_t i = 0;
  auto digits = [&] {
    const std::size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i > start;
  };
  if (i < s.size() && s[i] == '-') ++i;
  if (i < s.size() && s[i] == '0') ++i;
  else if (!digits()) return 0;
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (!digits()) return 0;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (!digits()) return 0;
  }
  return i;
}

/// Whether the JSON number `token` is beyond double's range, read as nlohmann reads it
/// (strtod with the locale's decimal point).
bool beyondDouble(std::string_view token) {
  std::string text(token);
  const char point = std::localeconv()->decimal_point[0];
  for (char& c : text)
    if (c == '.') c = point;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && std::isinf(value);
}

/// Screens the text before the parser sees it: refuses nesting deeper than
/// kPresetMaxDepth (the parser's DOM and every recursive walk of it stay shallow), and
/// turns numbers beyond double into kBeyondDouble strings. Columns of later parse errors
/// on a line with such a number shift; lines do not.
std::string screenPresetText(const std::string& text, const std::string& source, std::string_view option) {
  std::string out;
  out.reserve(text.size());
  int depth = 0;
  long long line = 1;
  bool inString = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') ++line;
    if (inString) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) out += text[++i];  // an escaped character, '"' included
      else if (c == '"') inString = false;
      continue;
    }
    if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kPresetMaxDepth)
        refuse(option, source, "nested deeper than " + std::to_string(kPresetMaxDepth) + " levels at line " +
                                   std::to_string(line) + " (a preset is an object of single values and [w, h] pairs)");
    } else if (c == ']' || c == '}') {
      if (depth > 0) --depth;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      const std::size_t length = jsonNumberLength(std::string_view(text).substr(i));
      if (length > 0) {
        const std::string_view token = std::string_view(text).substr(i, length);
        if (beyondDouble(token)) {
          out += '"';
          out += kBeyondDoubleEscaped;
          out += token;
          out += '"';
        } else {
          out += token;
        }
        i += length - 1;
        continue;
      }
    }
    out += c;
  }
  return out;
}

/// `text`, cut to text::kTokenChars characters with "..." (a stranger's key may be long).
std::string shortened(const std::string& text) {
  return text.size() <= text::kTokenChars ? text : text.substr(0, text::kTokenChars) + "...";
}

/// The first number beyond double that `v` holds (kBeyondDouble strings), or "". The
/// depth is bounded by the screening.
std::string beyondDoubleIn(const nlohmann::json& v) {
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    return s.rfind(kBeyondDouble, 0) == 0 ? s.substr(kBeyondDouble.size()) : std::string();
  }
  if (v.is_structured()) {
    for (const nlohmann::json& e : v) {
      std::string found = beyondDoubleIn(e);
      if (!found.empty()) return found;
    }
  }
  return {};
}

}  // namespace

Preset parsePreset(const std::string& text, const std::string& source, const std::string& app, std::string_view option) {
  if (text.size() > kPresetMaxBytes)
    refuse(option, source, "the text is " + std::to_string(text.size()) + " bytes; a preset is at most " +
                               std::to_string(kPresetMaxBytes) + " bytes");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(screenPresetText(text, source, option));
  } catch (const nlohmann::json::exception& e) {
    // e.what() reads "[json.exception.parse_error.101] parse error at line 3, column 7: ...";
    // out_of_range.406 (a number beyond double the screening read otherwise) reads the same way.
    std::string why = e.what();
    if (const std::size_t at = why.find("] "); at != std::string::npos) why = why.substr(at + 2);
    // The message quotes the last token read, which may be the rest of the file.
    if (why.size() > 160) why = why.substr(0, 160) + "...";
    refuse(option, source, "not JSON: " + why);
  }
  Preset p;
  p.source = source;
  if (std::string number = beyondDoubleIn(j); !number.empty() && j.is_string())
    refuse(option, source, "a preset is a JSON object, this is a number beyond double's range (" + number + ")");
  if (!j.is_object()) refuse(option, source, "a preset is a JSON object, this is " + std::string(j.type_name()));
  for (auto it = j.begin(); it != j.end();) {
    const std::string number = beyondDoubleIn(*it);
    if (number.empty()) {
      ++it;
      continue;
    }
    p.problems.push_back(source + ": " + shortened(it.key()) + ": " + shortened(number) +
                         " is not a finite number (beyond double's range)");
    it = j.erase(it);
  }
  if (auto it = j.find("app"); it != j.end()) {
    if (!it->is_string()) refuse(option, source, "\"app\" must be a string (the demo's name, e.g. \"" + app + "\")");
    p.app = it->get<std::string>();
    if (p.app != app)
      refuse(option, source, "this preset is for texstream-" + shortened(p.app) + ", not texstream-" + app);
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
  ReadingInput reading(std::string(option), pathOrName);
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
  // A device or a pipe (/dev/zero) would be read without end.
  if (!std::filesystem::is_regular_file(pathOrName, ec)) refuse(option, pathOrName, "not a regular file");
  std::ifstream in(pathOrName, std::ios::binary);
  if (!in) refuse(option, pathOrName, "cannot open it for reading");
  // One byte beyond the limit is enough to refuse the file (parsePreset names its size).
  std::string text(kPresetMaxBytes + 1, '\0');
  in.read(text.data(), std::streamsize(text.size()));
  if (in.bad()) refuse(option, pathOrName, "cannot read it");
  text.resize(std::size_t(in.gcount()));
  if (text.size() > kPresetMaxBytes)
    refuse(option, pathOrName, "the file is " + std::to_string(std::filesystem::file_size(pathOrName, ec)) +
                                   " bytes; a preset is at most " + std::to_string(kPresetMaxBytes) + " bytes");
  return parsePreset(text, pathOrName, app, option);
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
