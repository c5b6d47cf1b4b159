#pragma once
// texstream::app::SettingTable: a demo's settings as one table of named fields. The table is
// the one mapping from names to fields that the command line (--NAME VALUE), presets (JSON
// "NAME": value, Preset.h) and the panel (a widget per setting) share, so they cannot drift:
//   SettingTable t;
//   t.integer("cycles", p.cycles, 1, 1000, "Multigrid cycles per step").label("cycles per step").slider(1, 10);
//   t.named("scene", p.scene, fluid::sceneNames(), "Scene");
// A value is checked the same way wherever it comes from, and a bad one is reported under
// the setting's name: `--omega: invalid value "2.5": must be in (0, 1.999]` on the command
// line, `cavity.json: omega: invalid value "2.5": must be in (0, 1.999]` in a preset.
// Each setting refers to a field by reference: the table lives no longer than the struct
// it describes. The command-line tools (texstream-solve, -bench, -linexpr) declare theirs
// the same way and link SettingsWithoutPanel.cpp instead of SettingWidgets.cpp: their
// settings have no widget, and they link no Dear ImGui.
#include "AppOptions.h"

#include <texstream/stream/EnumNames.h>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace texstream::app {

class Setting {
 public:
  enum class Kind { Integer, Real, Flag, Choice, GridSize, Color, Text, List };

  /// The panel's label (default: the name).
  Setting& label(std::string text);
  /// The panel's slider range (within the accepted range; default: an input box), optionally
  /// logarithmic, with a printf format for reals.
  Setting& slider(double min, double max, bool logarithmic = false, const char* format = nullptr);
  /// `unset()` true means the field holds "the default chosen elsewhere" (a scene's time step):
  /// then the setting is left out of saved presets and --help shows no default.
  Setting& unsetWhen(std::function<bool()> unset);
  /// The --help type name ("N", "X", "NAME").
  Setting& typeName(std::string text);
  /// A name the setting had before: still read from the command line (--NAME, left out of
  /// --help) and from presets, never written. Not for flags.
  Setting& formerly(std::string name);
  /// An operand of the command line (NAME, no dashes, in order) rather than an option;
  /// messages name it as NAME. For the command-line tools' input files.
  Setting& positional();
  /// The command line must give it (CLI11's "NAME is required").
  Setting& required();
  /// Whether the command line (SettingTable::addTo's) gave it, by any of its names: for a
  /// check that only a given value needs ("--glsl-form needs --glsl").
  bool given() const;
  /// True for the setting's name and its former ones.
  bool answersTo(std::string_view name) const;

  const std::string& name() const { return m_name; }
  const std::string& labelText() const { return m_label; }
  const std::string& help() const { return m_help; }
  const std::string& typeNameText() const { return m_typeName; }
  Kind kind() const { return m_kind; }
  bool isSet() const { return !m_unset || !m_unset(); }

  /// Parses `text` into the field; throws UsageError("<source>: invalid value "text": why").
  void set(std::string_view source, std::string_view text) const;
  /// A JSON value (number, string, bool; [w, h] for a grid size) into the field, checked as
  /// set() checks text; throws UsageError naming `source`.
  void setJson(std::string_view source, const nlohmann::json& value) const;
  nlohmann::json json() const;
  /// The value as the command line writes it.
  std::string text() const;
  /// Draws the panel widget (Dear ImGui, inside a window) with the help as its tooltip;
  /// true when the user changed the value. A grid size changes only on its "apply" button.
  bool widget() const;

 private:
  friend class SettingTable;
  friend struct SettingWidgets;
  Setting(Kind kind, std::string name, std::string help) : m_kind(kind), m_name(std::move(name)), m_help(std::move(help)) {
    m_label = m_name;
  }
  void tooltip() const;

  Kind m_kind;
  std::string m_name, m_help, m_label, m_typeName;
  std::vector<std::string> m_formerNames;
  std::function<bool()> m_unset;
  std::function<void(std::string_view source, std::string_view text)> m_parse;
  std::function<nlohmann::json()> m_get;
  /// The JSON forms other than the text one (a grid size's [w, h]); nullopt: use the text.
  std::function<std::optional<std::string>(const nlohmann::json&)> m_jsonText;
  std::function<bool(const Setting&)> m_widget;
  // Panel slider range.
  bool m_hasSlider = false, m_logarithmic = false;
  double m_sliderMin = 0, m_sliderMax = 0;
  const char* m_format = nullptr;
  // Command-line state: the text given, or whether a flag was given and its value.
  mutable std::string m_cliText;
  mutable bool m_cliFlag = false;
  mutable std::vector<std::string> m_cliItems;  // a list's items, however many times it is given
  bool m_positional = false, m_required = false;
  CLI::Option* m_option = nullptr;
  std::vector<CLI::Option*> m_formerOptions;
  // A grid size's value being edited before "apply".
  mutable int m_pending[3] = {0, 0, 0};
  mutable bool m_pendingValid = false;
};

/// The value names of an enum for a setting (stream/EnumNames.h tables).
template <class E>
using NameTable = std::span<const stream::EnumName<E>>;

class SettingTable {
 public:
  SettingTable() = default;
  SettingTable(const SettingTable&) = delete;
  SettingTable& operator=(const SettingTable&) = delete;

  /// A whole number in [min, max].
  Setting& integer(std::string name, int& field, int min, int max, std::string help);
  Setting& integer(std::string name, long long& field, long long min, long long max, std::string help);
  /// A finite number in [min, max] ((min, max] unless minInclusive).
  Setting& real(std::string name, double& field, double min, double max, bool minInclusive, std::string help);
  Setting& real(std::string name, float& field, double min, double max, bool minInclusive, std::string help);
  /// The same, where nullopt means "the default chosen elsewhere" (an example's, a preset's):
  /// left out of --help's defaults and of presets until set. An optional int has the
  /// integer's widget while it is set; the others have none.
  Setting& integer(std::string name, std::optional<int>& field, int min, int max, std::string help);
  Setting& integer(std::string name, std::optional<long long>& field, long long min, long long max, std::string help);
  Setting& integer(std::string name, std::optional<std::uint64_t>& field, std::uint64_t min, std::uint64_t max,
                   std::string help);
  Setting& real(std::string name, std::optional<double>& field, double min, double max, bool minInclusive,
                std::string help);
  /// One of `choices` (case-insensitive; the field holds it in lower case), for a choice
  /// that has no enum: `--format segment|bcrs2|bcrs4|auto`.
  Setting& choice(std::string name, std::string& field, std::vector<std::string> choices, std::string help);
  /// On/off: the command line's --NAME (on) and --no-NAME (off); JSON true/false.
  Setting& flag(std::string name, bool& field, std::string help);
  Setting& flag(std::string name, std::function<bool()> get, std::function<void(bool)> set, std::string help);
  /// One of an enum's names (case-insensitive), the panel showing the table's labels.
  template <class E>
  Setting& named(std::string name, E& field, NameTable<E> table, std::string help) {
    Setting& s = add(Setting::Kind::Choice, std::move(name), help + ": " + namedHelp(table));
    s.m_typeName = stream::nameList(table, "|");
    s.m_parse = [&field, table](std::string_view source, std::string_view text) {
      field = parseNamed(source, text, table);
    };
    s.m_get = [&field, table] { return nlohmann::json(stream::nameOf(table, field)); };
    s.m_widget = [&field, table](const Setting& self) { return namedWidget(self, field, table); };
    return s;
  }
  /// Width x height, each in [minSide, maxSide]: "N", "WxH" or JSON [w, h].
  Setting& gridSize(std::string name, int& width, int& height, int minSide, int maxSide, std::string help);
  /// A 3D grid, each side in [minSide, maxSide]: "N" (N x N x N), "NXxNYxNZ" or JSON [nx, ny, nz].
  Setting& gridSize3(std::string name, int& nx, int& ny, int& nz, int minSide, int maxSide, std::string help);
  /// An RGB colour, each channel in [0, 1]: "#rrggbb" (JSON too) or "r,g,b".
  Setting& color(std::string name, float (&rgb)[3], std::string help);
  /// Free text checked by `check` (which throws UsageError naming the source); no generic
  /// widget (the demo draws its own).
  Setting& text(std::string name, std::string& field, std::function<void(std::string_view source, const std::string&)> check,
                std::string help);
  /// The same, nullopt until given (an output that is written only when asked for).
  Setting& text(std::string name, std::optional<std::string>& field,
                std::function<void(std::string_view source, const std::string&)> check, std::string help);
  /// A comma-separated list ("a,b,c"; on the command line also given again: --NAME a --NAME b;
  /// JSON ["a", "b"]), each item checked by `check`; empty (the default) means "the default
  /// chosen elsewhere" (all cases, the preset's sizes). No generic widget.
  Setting& list(std::string name, std::vector<std::string>& field,
                std::function<void(std::string_view source, const std::string& item)> check, std::string help);
  /// A list of whole numbers, each in [min, max].
  Setting& list(std::string name, std::vector<int>& field, int min, int max, std::string help);

  const std::deque<Setting>& settings() const { return m_settings; }
  /// The setting called `name` (now or formerly), or nullptr.
  const Setting* find(std::string_view name) const;
  /// The named setting's widget (Setting::widget); a name the table lacks is a programming
  /// error (std::logic_error).
  bool widget(std::string_view name) const;

  /// Every set setting's value, in table order (a preset's settings).
  nlohmann::ordered_json toJson() const;
  /// Sets the settings `values` (an object) names, in table order; every bad value and
  /// every unknown key is one line of the result (`source: omega: invalid value ...`,
  /// `source: unknown key "omgea" (did you mean "omega"?)`), and the rest is still set.
  std::vector<std::string> setJson(const nlohmann::json& values, std::string_view source) const;

  /// Adds --NAME for every setting to `cli`, in the option group `group`; a name the
  /// command line has already (the shared --size) is read from that option instead.
  void addTo(CLI::App& cli, const std::string& group);
  /// After parsing: sets every setting given on the command line, in table order; throws
  /// the first UsageError ("--cycles: invalid value ...").
  void applyCommandLine() const;

 private:
  Setting& add(Setting::Kind kind, std::string name, std::string help);
  template <class T>
  static void bindInteger(Setting& s, T& field, T min, T max);
  template <class T>
  static void bindReal(Setting& s, T& field, double min, double max, bool minInclusive);
  /// An optional field: `parse` reads a value (naming the source), null in JSON and unset
  /// until one is given.
  template <class T, class Parse>
  static void bindOptional(Setting& s, std::optional<T>& field, Parse parse);
  template <class E>
  static bool namedWidget(const Setting& self, E& field, NameTable<E> table);
  /// A combo of `labels`; its box shows the chosen label, or its short name where the label
  /// does not fit (the list shows the labels).
  friend struct SettingWidgets;
  static bool comboWidget(const Setting& self, int& index, const std::vector<const char*>& labels,
                          const std::vector<const char*>& names);

  std::deque<Setting> m_settings;  // a deque: references stay valid as settings are added
};

template <class E>
bool SettingTable::namedWidget(const Setting& self, E& field, NameTable<E> table) {
  std::vector<const char*> labels, names;
  for (const auto& e : table) labels.push_back(e.label), names.push_back(e.name);
  int index = stream::indexOf(table, field);
  if (!comboWidget(self, index, labels, names)) return false;
  field = table[std::size_t(index)].value;
  return true;
}

/// The tolerance of the solve a demo makes each step, 0 asking for a fixed count instead
/// (`fixedCount`: "CG iterations"): --tolerance TOL, a relative residual in [0, 1], the
/// panel's "tolerance (0: fixed)".
Setting& stepTolerance(SettingTable& table, float& field, const std::string& fixedCount);

/// The closest of `candidates` to `word` by edit distance, when close enough to be a typo.
std::optional<std::string> closestName(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace texstream::app
