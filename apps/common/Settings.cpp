#include "Settings.h"

#include "SettingWidgets.h"

#include <texstream/text/FloatChars.h>
#include <texstream/text/Format.h>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

namespace texstream::app {

namespace {

/// A JSON number as shortest text (an integer stays an integer: 3, not 3.0).
std::string numberText(const nlohmann::json& v) {
  // is_number_integer() holds for unsigned values too: beyond LLONG_MAX they would wrap.
  if (v.is_number_unsigned()) return std::to_string(v.get<unsigned long long>());
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  return text::shortestText(v.get<double>());
}

[[noreturn]] void invalid(std::string_view source, std::string_view text, const std::string& why) {
  throw UsageError(std::string(source) + ": invalid value " + text::quotedToken(text) + ": " + why);
}

/// A JSON value as text for a message (invalid UTF-8 replaced, not thrown about).
std::string jsonText(const nlohmann::json& v) { return v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

/// A preset reports at most this many problems, then how many more.
constexpr std::size_t kMaxProblems = 20;
/// Keys longer than this get no "did you mean" (a typo of a setting's name is short).
constexpr std::size_t kMaxSuggestedKey = 64;

int hexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// Edits (insertions, deletions, substitutions, swaps of neighbours) from a to b: the
/// optimal string alignment distance.
std::size_t editDistance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

std::string joined(const std::vector<std::string>& items, const char* separator) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : separator) + item;
  return out;
}

/// A comma-separated list's items; an empty item (",," or a trailing comma) is refused.
std::vector<std::string> splitList(std::string_view source, std::string_view text) {
  std::vector<std::string> items;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = text.find(',', start);
    const std::string_view item = text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    if (item.empty()) invalid(source, text, "expected a comma-separated list (ITEM[,ITEM...]) without empty items");
    items.emplace_back(item);
    if (comma == std::string_view::npos) return items;
    start = comma + 1;
  }
}

/// A whole number in [min, max] of the unsigned 64-bit range (seeds); messages as parseInteger's.
std::uint64_t parseUnsigned(std::string_view source, std::string_view text, std::uint64_t min, std::uint64_t max) {
  const std::string range = "[" + std::to_string(min) + ", " + std::to_string(max) + "]";
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec == std::errc::result_out_of_range) invalid(source, text, "expected a whole number in " + range);
  if (ec != std::errc() || ptr != end) invalid(source, text, "not a whole number");
  if (value < min || value > max) invalid(source, text, "must be in " + range);
  return value;
}

}  // namespace

std::optional<std::string> closestName(std::string_view word, const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  std::size_t bestDistance = 0;
  for (const std::string& c : candidates) {
    const std::size_t d = editDistance(word, c);
    if (!best || d < bestDistance) best = c, bestDistance = d;
  }
  // A typo: at most a third of the word changed.
  if (best && bestDistance > 0 && bestDistance * 3 <= std::max<std::size_t>(word.size(), 3)) return best;
  return std::nullopt;
}

// ---- Setting ----------------------------------------------------------------------------

Setting& Setting::label(std::string text) {
  m_label = std::move(text);
  return *this;
}

Setting& Setting::slider(double min, double max, bool logarithmic, const char* format) {
  m_hasSlider = true;
  m_sliderMin = min;
  m_sliderMax = max;
  m_logarithmic = logarithmic;
  m_format = format;
  return *this;
}

Setting& Setting::unsetWhen(std::function<bool()> unset) {
  m_unset = std::move(unset);
  return *this;
}

Setting& Setting::typeName(std::string text) {
  m_typeName = std::move(text);
  return *this;
}

void Setting::set(std::string_view source, std::string_view text) const { m_parse(source, text); }

void Setting::setJson(std::string_view source, const nlohmann::json& value) const {
  if (m_jsonText) {
    if (std::optional<std::string> t = m_jsonText(value)) {
      m_parse(source, *t);
      return;
    }
  }
  if (value.is_string()) {
    m_parse(source, value.get<std::string>());
  } else if (value.is_boolean()) {
    m_parse(source, value.get<bool>() ? "true" : "false");
  } else if (value.is_number()) {
    m_parse(source, numberText(value));
  } else {
    invalid(source, jsonText(value), "expected " + std::string(m_kind == Kind::Flag ? "true or false" : "a single value"));
  }
}

nlohmann::json Setting::json() const { return m_get(); }

std::string Setting::text() const {
  const nlohmann::json v = m_get();
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (m_kind == Kind::List && v.is_array()) {
    std::string t;
    for (const nlohmann::json& item : v) t += (t.empty() ? "" : ",") + (item.is_string() ? item.get<std::string>() : numberText(item));
    return t;
  }
  if (v.is_array() && (v.size() == 2 || v.size() == 3)) {
    std::string t = std::to_string(v[0].get<int>());
    for (std::size_t k = 1; k < v.size(); ++k) t += "x" + std::to_string(v[k].get<int>());
    return t;
  }
  if (v.is_number()) return numberText(v);
  return v.dump();
}

// ---- SettingTable -------------------------------------------------------------------------

Setting& SettingTable::add(Setting::Kind kind, std::string name, std::string help) {
  if (find(name)) throw std::logic_error("SettingTable: two settings named \"" + name + "\"");
  m_settings.push_back(Setting(kind, std::move(name), std::move(help)));
  return m_settings.back();
}

const Setting* SettingTable::find(std::string_view name) const {
  for (const Setting& s : m_settings)
    if (s.m_name == name) return &s;
  for (const Setting& s : m_settings)
    if (s.answersTo(name)) return &s;
  return nullptr;
}

Setting& Setting::formerly(std::string name) {
  if (m_kind == Kind::Flag) throw std::logic_error("Setting \"" + m_name + "\": formerly() is not for flags");
  m_formerNames.push_back(std::move(name));
  return *this;
}

Setting& Setting::positional() {
  m_positional = true;
  return *this;
}

Setting& Setting::required() {
  m_required = true;
  return *this;
}

bool Setting::given() const {
  if (m_option && m_option->count() > 0) return true;
  return std::any_of(m_formerOptions.begin(), m_formerOptions.end(), [](const CLI::Option* o) { return o->count() > 0; });
}

bool Setting::answersTo(std::string_view name) const {
  if (name == m_name) return true;
  for (const std::string& former : m_formerNames)
    if (former == name) return true;
  return false;
}

template <class T, class Parse>
void SettingTable::bindOptional(Setting& s, std::optional<T>& field, Parse parse) {
  s.m_parse = [&field, parse](std::string_view source, std::string_view text) { field = T(parse(source, text)); };
  s.m_get = [&field] { return field ? nlohmann::json(*field) : nlohmann::json(); };
  s.m_unset = [&field] { return !field; };
}

Setting& SettingTable::integer(std::string name, std::optional<int>& field, int min, int max, std::string help) {
  Setting& s = add(Setting::Kind::Integer, std::move(name), std::move(help));
  s.m_typeName = "N";
  bindOptional(s, field, [min, max](std::string_view source, std::string_view text) {
    return parseInteger(source, text, min, max);
  });
  s.m_widget = SettingWidgets::integer(field, min, max);
  return s;
}

Setting& SettingTable::integer(std::string name, std::optional<long long>& field, long long min, long long max,
                               std::string help) {
  Setting& s = add(Setting::Kind::Integer, std::move(name), std::move(help));
  s.m_typeName = "N";
  bindOptional(s, field, [min, max](std::string_view source, std::string_view text) {
    return parseInteger(source, text, min, max);
  });
  return s;
}

Setting& SettingTable::integer(std::string name, std::optional<std::uint64_t>& field, std::uint64_t min,
                               std::uint64_t max, std::string help) {
  Setting& s = add(Setting::Kind::Integer, std::move(name), std::move(help));
  s.m_typeName = "N";
  bindOptional(s, field, [min, max](std::string_view source, std::string_view text) {
    return parseUnsigned(source, text, min, max);
  });
  return s;
}

Setting& SettingTable::real(std::string name, std::optional<double>& field, double min, double max, bool minInclusive,
                            std::string help) {
  Setting& s = add(Setting::Kind::Real, std::move(name), std::move(help));
  s.m_typeName = "X";
  bindOptional(s, field, [min, max, minInclusive](std::string_view source, std::string_view text) {
    return parseReal(source, text, min, max, minInclusive);
  });
  return s;
}

Setting& SettingTable::choice(std::string name, std::string& field, std::vector<std::string> choices, std::string help) {
  Setting& s = add(Setting::Kind::Choice, std::move(name), std::move(help));
  s.m_typeName = joined(choices, "|");
  s.m_parse = [&field, choices](std::string_view source, std::string_view text) {
    std::string l(text);
    std::transform(l.begin(), l.end(), l.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (std::find(choices.begin(), choices.end(), l) == choices.end())
      invalid(source, text, "expected one of " + joined(choices, "|"));
    field = l;
  };
  s.m_get = [&field] { return nlohmann::json(field); };
  s.m_widget = SettingWidgets::choice(field, std::move(choices));
  return s;
}

Setting& SettingTable::text(std::string name, std::optional<std::string>& field,
                            std::function<void(std::string_view source, const std::string&)> check, std::string help) {
  Setting& s = add(Setting::Kind::Text, std::move(name), std::move(help));
  s.m_typeName = "TEXT";
  bindOptional(s, field, [check](std::string_view source, std::string_view text) {
    std::string value(text);
    if (check) check(source, value);
    return value;
  });
  return s;
}

Setting& SettingTable::list(std::string name, std::vector<std::string>& field,
                            std::function<void(std::string_view source, const std::string& item)> check, std::string help) {
  Setting& s = add(Setting::Kind::List, std::move(name), std::move(help));
  s.m_typeName = "ITEM[,ITEM...]";
  s.m_parse = [&field, check](std::string_view source, std::string_view text) {
    std::vector<std::string> items = splitList(source, text);
    if (check) {
      for (const std::string& item : items) {
        try {
          check(source, item);
        } catch (const UsageError& e) {
          // The item's own message, for the whole list when it has more than one.
          if (items.size() == 1) throw;
          const std::string why = e.what(), marker = ": invalid value ";
          const std::size_t at = why.find(marker);
          invalid(source, text, at == std::string::npos ? why : "item " + why.substr(at + marker.size()));
        }
      }
    }
    field = std::move(items);
  };
  s.m_get = [&field] { return nlohmann::json(field); };
  s.m_jsonText = [](const nlohmann::json& v) -> std::optional<std::string> {
    if (!v.is_array()) return std::nullopt;
    std::vector<std::string> items;
    for (const nlohmann::json& item : v) items.push_back(item.is_string() ? item.get<std::string>() : jsonText(item));
    return joined(items, ",");
  };
  s.m_unset = [&field] { return field.empty(); };
  return s;
}

Setting& SettingTable::list(std::string name, std::vector<int>& field, int min, int max, std::string help) {
  Setting& s = add(Setting::Kind::List, std::move(name), std::move(help));
  s.m_typeName = "N[,N...]";
  s.m_parse = [&field, min, max](std::string_view source, std::string_view text) {
    std::vector<int> values;
    for (const std::string& item : splitList(source, text)) {
      try {
        values.push_back(int(parseInteger(source, item, min, max)));
      } catch (const UsageError&) {
        invalid(source, text, "each item must be a whole number in [" + std::to_string(min) + ", " + std::to_string(max) + "]");
      }
    }
    field = std::move(values);
  };
  s.m_get = [&field] { return nlohmann::json(field); };
  s.m_jsonText = [](const nlohmann::json& v) -> std::optional<std::string> {
    if (!v.is_array()) return std::nullopt;
    std::vector<std::string> items;
    for (const nlohmann::json& item : v) items.push_back(item.is_number() ? numberText(item) : jsonText(item));
    return joined(items, ",");
  };
  s.m_unset = [&field] { return field.empty(); };
  return s;
}

bool SettingTable::widget(std::string_view name) const {
  const Setting* s = find(name);
  if (!s) throw std::logic_error("SettingTable: no setting named \"" + std::string(name) + "\"");
  return s->widget();
}

template <class T>
void SettingTable::bindInteger(Setting& s, T& field, T min, T max) {
  s.m_typeName = "N";
  s.m_parse = [&field, min, max](std::string_view source, std::string_view text) {
    field = T(parseInteger(source, text, min, max));
  };
  s.m_get = [&field] { return nlohmann::json(field); };
  s.m_widget = SettingWidgets::integer(field, min, max);
}
Setting& SettingTable::integer(std::string name, int& field, int min, int max, std::string help) {
  Setting& s = add(Setting::Kind::Integer, std::move(name), std::move(help));
  bindInteger(s, field, min, max);
  return s;
}

Setting& SettingTable::integer(std::string name, long long& field, long long min, long long max, std::string help) {
  Setting& s = add(Setting::Kind::Integer, std::move(name), std::move(help));
  bindInteger(s, field, min, max);
  return s;
}

template <class T>
void SettingTable::bindReal(Setting& s, T& field, double min, double max, bool minInclusive) {
  s.m_parse = [&field, min, max, minInclusive](std::string_view source, std::string_view text) {
    field = T(parseReal(source, text, min, max, minInclusive));
  };
  s.m_get = [&field] {
    // The shortest decimal of the field's own precision (0.8f is 0.8, not 0.800000011920929).
    return nlohmann::json(std::strtod(text::shortestText(field).c_str(), nullptr));
  };
  s.m_widget = SettingWidgets::real(field, min, max, minInclusive);
}
Setting& SettingTable::real(std::string name, double& field, double min, double max, bool minInclusive, std::string help) {
  Setting& s = add(Setting::Kind::Real, std::move(name), std::move(help));
  s.m_typeName = "X";
  bindReal(s, field, min, max, minInclusive);
  return s;
}

Setting& SettingTable::real(std::string name, float& field, double min, double max, bool minInclusive, std::string help) {
  Setting& s = add(Setting::Kind::Real, std::move(name), std::move(help));
  s.m_typeName = "X";
  bindReal(s, field, min, max, minInclusive);
  return s;
}

Setting& SettingTable::flag(std::string name, bool& field, std::string help) {
  return flag(std::move(name), [&field] { return field; }, [&field](bool v) { field = v; }, std::move(help));
}

Setting& SettingTable::flag(std::string name, std::function<bool()> get, std::function<void(bool)> set, std::string help) {
  Setting& s = add(Setting::Kind::Flag, std::move(name), std::move(help));
  s.m_parse = [set](std::string_view source, std::string_view text) {
    std::string l(text);
    std::transform(l.begin(), l.end(), l.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (l == "true" || l == "on" || l == "1") set(true);
    else if (l == "false" || l == "off" || l == "0") set(false);
    else invalid(source, text, "expected true or false");
  };
  s.m_get = [get] { return nlohmann::json(get()); };
  s.m_widget = SettingWidgets::flag(get, set);
  return s;
}
Setting& SettingTable::gridSize(std::string name, int& width, int& height, int minSide, int maxSide, std::string help) {
  Setting& s = add(Setting::Kind::GridSize, std::move(name), std::move(help));
  s.m_typeName = "N|WxH";
  s.m_parse = [&width, &height, minSide, maxSide](std::string_view source, std::string_view text) {
    const GridSize g = parseGridSize(source, text, minSide, maxSide);
    width = g.width;
    height = g.height;
  };
  s.m_get = [&width, &height] { return nlohmann::json::array({width, height}); };
  s.m_jsonText = [](const nlohmann::json& v) -> std::optional<std::string> {
    if (!v.is_array()) return std::nullopt;
    if (v.size() != 2 || !v[0].is_number() || !v[1].is_number()) return jsonText(v);  // refused by the parser
    return numberText(v[0]) + "x" + numberText(v[1]);
  };
  s.m_widget = SettingWidgets::gridSize(width, height, minSide, maxSide);
  return s;
}
Setting& SettingTable::gridSize3(std::string name, int& nx, int& ny, int& nz, int minSide, int maxSide, std::string help) {
  Setting& s = add(Setting::Kind::GridSize, std::move(name), std::move(help));
  s.m_typeName = "N|NXxNYxNZ";
  s.m_parse = [&nx, &ny, &nz, minSide, maxSide](std::string_view source, std::string_view text) {
    // "N" is a cube; otherwise three sides.
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    for (std::size_t x = text.find_first_of("xX"); ; x = text.find_first_of("xX", start)) {
      parts.push_back(text.substr(start, x == std::string_view::npos ? std::string_view::npos : x - start));
      if (x == std::string_view::npos) break;
      start = x + 1;
    }
    if (parts.size() != 1 && parts.size() != 3) invalid(source, text, "expected N or NXxNYxNZ (e.g. 64 or 96x64x48)");
    int sides[3];
    for (std::size_t k = 0; k < parts.size(); ++k) {
      const std::string_view p = parts[k];
      int v = 0;
      auto [ptr, ec] = std::from_chars(p.data(), p.data() + p.size(), v);
      if (p.empty() || ec == std::errc::invalid_argument || ptr != p.data() + p.size())
        invalid(source, text, "expected N or NXxNYxNZ (e.g. 64 or 96x64x48)");
      static const char* const kSide[3] = {"NX", "NY", "NZ"};
      if (ec == std::errc::result_out_of_range || v < minSide || v > maxSide)
        invalid(source, text, std::string(parts.size() == 1 ? "size" : kSide[k]) + " must be in [" +
                                  std::to_string(minSide) + ", " + std::to_string(maxSide) + "]");
      sides[k] = v;
    }
    if (parts.size() == 1) sides[1] = sides[2] = sides[0];
    nx = sides[0], ny = sides[1], nz = sides[2];
  };
  s.m_get = [&nx, &ny, &nz] { return nlohmann::json::array({nx, ny, nz}); };
  s.m_jsonText = [](const nlohmann::json& v) -> std::optional<std::string> {
    if (!v.is_array()) return std::nullopt;
    if (v.size() != 3 || !v[0].is_number() || !v[1].is_number() || !v[2].is_number()) return v.dump();  // refused
    return numberText(v[0]) + "x" + numberText(v[1]) + "x" + numberText(v[2]);
  };
  s.m_widget = SettingWidgets::gridSize3(nx, ny, nz, minSide, maxSide);
  return s;
}
Setting& SettingTable::color(std::string name, float (&rgb)[3], std::string help) {
  Setting& s = add(Setting::Kind::Color, std::move(name), std::move(help));
  s.m_typeName = "#RRGGBB|R,G,B";
  s.m_parse = [&rgb](std::string_view source, std::string_view text) {
    float c[3] = {0, 0, 0};
    if (!text.empty() && text[0] == '#') {
      if (text.size() != 7) invalid(source, text, "expected #RRGGBB (hexadecimal) or R,G,B (each in [0, 1])");
      for (int k = 0; k < 3; ++k) {
        const int hi = hexDigit(text[std::size_t(1 + 2 * k)]), lo = hexDigit(text[std::size_t(2 + 2 * k)]);
        if (hi < 0 || lo < 0) invalid(source, text, "expected #RRGGBB (hexadecimal digits)");
        c[k] = float(hi * 16 + lo) / 255.0f;
      }
    } else {
      std::size_t start = 0;
      for (int k = 0; k < 3; ++k) {
        const std::size_t comma = text.find(',', start);
        if ((k < 2) != (comma != std::string_view::npos))
          invalid(source, text, "expected #RRGGBB (hexadecimal) or R,G,B (three numbers in [0, 1])");
        const std::string_view part = text.substr(start, k < 2 ? comma - start : std::string_view::npos);
        try {
          c[k] = float(parseReal(source, part, 0.0, 1.0, true));
        } catch (const UsageError&) {
          invalid(source, text, "each of R,G,B must be a number in [0, 1]");
        }
        start = comma + 1;
      }
    }
    std::copy(c, c + 3, rgb);
  };
  s.m_get = [&rgb] {
    char buffer[8];
    auto byte = [](float v) { return int(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f)); };
    std::snprintf(buffer, sizeof buffer, "#%02x%02x%02x", byte(rgb[0]), byte(rgb[1]), byte(rgb[2]));
    return nlohmann::json(std::string(buffer));
  };
  s.m_widget = SettingWidgets::color(rgb);
  return s;
}
Setting& SettingTable::text(std::string name, std::string& field,
                            std::function<void(std::string_view source, const std::string&)> check, std::string help) {
  Setting& s = add(Setting::Kind::Text, std::move(name), std::move(help));
  s.m_typeName = "TEXT";
  s.m_parse = [&field, check](std::string_view source, std::string_view text) {
    const std::string value(text);
    if (check) check(source, value);
    field = value;
  };
  s.m_get = [&field] { return nlohmann::json(field); };
  return s;
}

nlohmann::ordered_json SettingTable::toJson() const {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  for (const Setting& s : m_settings)
    if (s.isSet()) out[s.m_name] = s.json();
  return out;
}

std::vector<std::string> SettingTable::setJson(const nlohmann::json& values, std::string_view source) const {
  std::vector<std::string> problems;
  const std::string prefix = source.empty() ? std::string() : std::string(source) + ": ";
  if (!values.is_object()) {
    problems.push_back(prefix + "expected a JSON object of settings, got " + std::string(values.type_name()));
    return problems;
  }
  for (const Setting& s : m_settings) {
    auto it = values.find(s.m_name);
    for (std::size_t f = 0; it == values.end() && f < s.m_formerNames.size(); ++f) it = values.find(s.m_formerNames[f]);
    if (it == values.end()) continue;
    try {
      s.setJson(prefix + it.key(), *it);
    } catch (const UsageError& e) {
      problems.push_back(e.what());
    }
  }
  std::vector<std::string> names;
  for (const Setting& s : m_settings) names.push_back(s.m_name);
  std::size_t unknown = 0;
  for (auto it = values.begin(); it != values.end(); ++it) {
    if (find(it.key())) continue;
    if (problems.size() >= kMaxProblems) {
      ++unknown;
      continue;
    }
    std::string line = prefix + "unknown key " + text::quotedToken(it.key());
    if (it.key().size() <= kMaxSuggestedKey) {
      if (auto near = closestName(it.key(), names)) line += " (did you mean \"" + *near + "\"?)";
    }
    problems.push_back(line);
  }
  if (unknown > 0) problems.push_back(prefix + "and " + std::to_string(unknown) + " more unknown keys");
  return problems;
}

void SettingTable::addTo(CLI::App& cli, const std::string& group) {
  for (Setting& s : m_settings) {
    const std::string option = s.m_positional ? s.m_name : "--" + s.m_name;
    if (CLI::Option* shared = cli.get_option_no_throw(option)) {
      s.m_option = shared;
      continue;
    }
    if (s.m_kind == Setting::Kind::List) {
      // Items of every occurrence, however they are split: --NAME a,b --NAME c.
      s.m_option = cli.add_option(option, s.m_cliItems, s.m_help)->delimiter(',');
      s.m_option->type_name(s.m_typeName);
      if (s.isSet()) s.m_option->default_str(s.text());
    } else if (s.m_kind == Setting::Kind::Flag) {
      s.m_option = cli.add_flag(option + ",!--no-" + s.m_name, s.m_cliFlag, s.m_help + (s.isSet() && s.json().get<bool>() ? " (default: on)" : ""));
    } else {
      s.m_option = cli.add_option(option, s.m_cliText, s.m_help);
      s.m_option->type_name(s.m_typeName);
      if (s.isSet()) s.m_option->default_str(s.text());
      // Former names: the same text, left out of --help (an empty group hides an option).
      for (const std::string& former : s.m_formerNames)
        s.m_formerOptions.push_back(cli.add_option("--" + former, s.m_cliText, "formerly " + option)->group(""));
    }
    if (s.m_required) s.m_option->required();
    s.m_option->group(group);
  }
}

void SettingTable::applyCommandLine() const {
  for (const Setting& s : m_settings) {
    if (!s.m_option) continue;
    std::string option = s.m_positional ? s.m_name : "--" + s.m_name;
    auto former = std::find_if(s.m_formerOptions.begin(), s.m_formerOptions.end(),
                               [](const CLI::Option* o) { return o->count() > 0; });
    if (former != s.m_formerOptions.end() && s.m_option->count() > 0) {
      throw UsageError(option + ": given twice, also as --" +
                       s.m_formerNames[std::size_t(former - s.m_formerOptions.begin())] + " (its former name)");
    }
    if (s.m_option->count() == 0) {
      if (former == s.m_formerOptions.end()) continue;
      option = "--" + s.m_formerNames[std::size_t(former - s.m_formerOptions.begin())];
      s.set(option, s.m_cliText);
      continue;
    }
    if (s.m_kind == Setting::Kind::Flag) {
      s.set(option, s.m_cliFlag ? "true" : "false");
    } else if (s.m_kind == Setting::Kind::List && !s.m_cliItems.empty()) {
      std::string text;
      for (const std::string& item : s.m_cliItems) text += (text.empty() ? "" : ",") + item;
      s.set(option, text);
    } else if (!s.m_cliText.empty() || s.m_option->results().empty()) {
      s.set(option, s.m_cliText);
    } else {
      s.set(option, s.m_option->results().back());  // an option the shared command line owns
    }
  }
}

Setting& stepTolerance(SettingTable& table, float& field, const std::string& fixedCount) {
  return table
      .real("tolerance", field, 0.0, 1.0, true,
            "Solve to this relative residual each step (0: a fixed number of " + fixedCount + ")")
      .label("tolerance (0: fixed)")
      .typeName("TOL");
}

}  // namespace texstream::app
