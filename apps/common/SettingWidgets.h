#pragma once
// The panel widgets of SettingTable's settings (Dear ImGui), one factory per kind of field.
// Settings.cpp binds them as it declares each setting. SettingWidgets.cpp defines them for
// the demos; SettingsWithoutPanel.cpp defines them as "no widget" for the command-line
// tools, which then link no Dear ImGui.
#include "Settings.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace texstream::app {

struct SettingWidgets {
  using Widget = std::function<bool(const Setting&)>;
  static Widget integer(int& field, int min, int max);
  static Widget integer(long long& field, long long min, long long max);
  /// The integer's widget while the field is set; none while it is unset.
  static Widget integer(std::optional<int>& field, int min, int max);
  static Widget real(double& field, double min, double max, bool minInclusive);
  static Widget real(float& field, double min, double max, bool minInclusive);
  static Widget flag(std::function<bool()> get, std::function<void(bool)> set);
  static Widget gridSize(int& width, int& height, int minSide, int maxSide);
  static Widget gridSize3(int& nx, int& ny, int& nz, int minSide, int maxSide);
  static Widget color(float (&rgb)[3]);
  static Widget choice(std::string& field, std::vector<std::string> choices);

 private:
  template <class T>
  static Widget integerOf(T& field, T min, T max);
  template <class T>
  static Widget realOf(T& field, double min, double max, bool minInclusive);
};

}  // namespace texstream::app
