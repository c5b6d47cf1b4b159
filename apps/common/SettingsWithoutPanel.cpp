// SettingTable in a program without a panel (texstream-solve, -bench, -linexpr): settings
// parse and print as in the demos, and none has a widget, so no Dear ImGui is linked.
#include "SettingWidgets.h"

#include <stdexcept>

namespace texstream::app {

SettingWidgets::Widget SettingWidgets::integer(int&, int, int) { return {}; }
SettingWidgets::Widget SettingWidgets::integer(long long&, long long, long long) { return {}; }
SettingWidgets::Widget SettingWidgets::integer(std::optional<int>&, int, int) { return {}; }
SettingWidgets::Widget SettingWidgets::real(double&, double, double, bool) { return {}; }
SettingWidgets::Widget SettingWidgets::real(float&, double, double, bool) { return {}; }
SettingWidgets::Widget SettingWidgets::flag(std::function<bool()>, std::function<void(bool)>) { return {}; }
SettingWidgets::Widget SettingWidgets::gridSize(int&, int&, int, int) { return {}; }
SettingWidgets::Widget SettingWidgets::gridSize3(int&, int&, int&, int, int) { return {}; }
SettingWidgets::Widget SettingWidgets::color(float (&)[3]) { return {}; }
SettingWidgets::Widget SettingWidgets::choice(std::string&, std::vector<std::string>) { return {}; }

bool Setting::widget() const { throw std::logic_error("Setting \"" + m_name + "\": this program has no panel"); }

void Setting::tooltip() const {}

bool SettingTable::comboWidget(const Setting& self, int&, const std::vector<const char*>&, const std::vector<const char*>&) {
  return self.widget();
}

}  // namespace texstream::app
