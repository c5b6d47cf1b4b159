#pragma once
// One table of names per enum, shared by the command lines, the panels and the JSON
// reports, so an enum's spellings exist once:
//   constexpr EnumName<Scene> kSceneNames[] = {{Scene::Smoke, "smoke", "smoke"}, ...};
// `name` is what a user types and a report writes; `label` what a panel shows.
#include <texstream/text/Format.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

namespace texstream::stream {

template <class E>
struct EnumName {
  E value;
  const char* name;
  const char* label;
};

/// The table's name of `value` ("" if the table lacks it).
template <class E>
const char* nameOf(std::span<const EnumName<E>> table, E value) {
  for (const EnumName<E>& e : table) {
    if (e.value == value) return e.name;
  }
  return "";
}

/// Position of `value` in the table (a panel's combo index), or -1.
template <class E>
int indexOf(std::span<const EnumName<E>> table, E value) {
  for (std::size_t i = 0; i < table.size(); ++i) {
    if (table[i].value == value) return int(i);
  }
  return -1;
}

/// The value named `text` (case-insensitive), or nullopt.
template <class E>
std::optional<E> findByName(std::span<const EnumName<E>> table, std::string_view text) {
  auto lower = [](std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return out;
  };
  const std::string wanted = lower(text);
  for (const EnumName<E>& e : table) {
    if (lower(e.name) == wanted) return e.value;
  }
  return std::nullopt;
}

/// "smoke, channel, cavity, obstacles" (with `separator` between the names).
template <class E>
std::string nameList(std::span<const EnumName<E>> table, std::string_view separator = ", ") {
  std::string out;
  for (const EnumName<E>& e : table) out += (out.empty() ? "" : std::string(separator)) + e.name;
  return out;
}

/// The value named `typed` (case-insensitive); else std::invalid_argument
/// "where: \"lake\" is not a scene (smoke, channel, cavity, obstacles)".
template <class E>
E parseName(std::span<const EnumName<E>> table, std::string_view typed, const std::string& where, const char* what) {
  if (auto value = findByName(table, typed)) return *value;
  throw std::invalid_argument(where + ": " + text::quoted(typed) + " is not a " + what + " (" + nameList(table) + ")");
}

}  // namespace texstream::stream
