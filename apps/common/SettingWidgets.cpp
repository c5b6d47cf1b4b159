#include "SettingWidgets.h"

#include "Panel.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace texstream::app {

template <class T>
SettingWidgets::Widget SettingWidgets::integerOf(T& field, T min, T max) {
  return [&field, min, max](const Setting& self) {
    const std::string id = self.labelText() + "##" + self.name();
    int v = int(std::clamp<T>(field, T(std::numeric_limits<int>::min()), T(std::numeric_limits<int>::max())));
    bool changed = false;
    if (self.m_hasSlider) {
      changed = ImGui::SliderInt(id.c_str(), &v, int(self.m_sliderMin), int(self.m_sliderMax), "%d",
                                 self.m_logarithmic ? ImGuiSliderFlags_Logarithmic : 0);
    } else {
      changed = ImGui::InputInt(id.c_str(), &v);
    }
    const T clamped = std::clamp<T>(T(v), min, max);
    if (!changed || clamped == field) return false;
    field = clamped;
    return true;
  };
}

template <class T>
SettingWidgets::Widget SettingWidgets::realOf(T& field, double min, double max, bool minInclusive) {
  return [&field, min, max, minInclusive](const Setting& self) {
    const std::string id = self.labelText() + "##" + self.name();
    float v = float(field);
    bool changed = false;
    const char* format = self.m_format ? self.m_format : "%.4g";
    if (self.m_hasSlider) {
      changed = ImGui::SliderFloat(id.c_str(), &v, float(self.m_sliderMin), float(self.m_sliderMax), format,
                                   self.m_logarithmic ? ImGuiSliderFlags_Logarithmic : 0);
    } else {
      changed = ImGui::InputFloat(id.c_str(), &v, 0.0f, 0.0f, format);
    }
    // Typed values (ctrl-click on a slider) are held to the accepted range.
    if (!changed || !std::isfinite(v)) return false;
    const double d = std::clamp(double(v), min, max);
    if ((!minInclusive && d <= min) || T(d) == field) return false;
    field = T(d);
    return true;
  };
}

SettingWidgets::Widget SettingWidgets::integer(int& field, int min, int max) { return integerOf(field, min, max); }
SettingWidgets::Widget SettingWidgets::integer(long long& field, long long min, long long max) {
  return integerOf(field, min, max);
}
SettingWidgets::Widget SettingWidgets::integer(std::optional<int>& field, int min, int max) {
  return [&field, min, max](const Setting& self) {
    if (!field) return false;
    return integerOf(*field, min, max)(self);
  };
}
SettingWidgets::Widget SettingWidgets::real(double& field, double min, double max, bool minInclusive) {
  return realOf(field, min, max, minInclusive);
}
SettingWidgets::Widget SettingWidgets::real(float& field, double min, double max, bool minInclusive) {
  return realOf(field, min, max, minInclusive);
}

SettingWidgets::Widget SettingWidgets::flag(std::function<bool()> get, std::function<void(bool)> set) {
  return [get, set](const Setting& self) {
    bool v = get();
    const std::string id = self.labelText() + "##" + self.name();
    if (!ImGui::Checkbox(id.c_str(), &v)) return false;
    set(v);
    return true;
  };
}

SettingWidgets::Widget SettingWidgets::gridSize(int& width, int& height, int minSide, int maxSide) {
  return [&width, &height, minSide, maxSide](const Setting& self) {
    if (!self.m_pendingValid) {
      self.m_pending[0] = width;
      self.m_pending[1] = height;
      self.m_pendingValid = true;
    }
    const std::string id = self.labelText() + "##" + self.name();
    ImGui::InputInt2(id.c_str(), self.m_pending);
    for (int& v : self.m_pending) v = std::clamp(v, minSide, maxSide);
    if (self.m_pending[0] == width && self.m_pending[1] == height) return false;
    const std::string apply = "apply " + std::to_string(self.m_pending[0]) + "x" + std::to_string(self.m_pending[1]) +
                              "##apply-" + self.name();
    if (!ImGui::Button(apply.c_str())) return false;
    width = self.m_pending[0];
    height = self.m_pending[1];
    return true;
  };
}

SettingWidgets::Widget SettingWidgets::gridSize3(int& nx, int& ny, int& nz, int minSide, int maxSide) {
  return [&nx, &ny, &nz, minSide, maxSide](const Setting& self) {
    int* pending = self.m_pending;
    if (!self.m_pendingValid) {
      pending[0] = nx, pending[1] = ny, pending[2] = nz;
      self.m_pendingValid = true;
    }
    const std::string id = self.labelText() + "##" + self.name();
    ImGui::InputInt3(id.c_str(), pending);
    for (int k = 0; k < 3; ++k) pending[k] = std::clamp(pending[k], minSide, maxSide);
    if (pending[0] == nx && pending[1] == ny && pending[2] == nz) return false;
    const std::string apply = "apply " + std::to_string(pending[0]) + "x" + std::to_string(pending[1]) + "x" +
                              std::to_string(pending[2]) + "##apply-" + self.name();
    if (!ImGui::Button(apply.c_str())) return false;
    nx = pending[0], ny = pending[1], nz = pending[2];
    return true;
  };
}

SettingWidgets::Widget SettingWidgets::color(float (&rgb)[3]) {
  return [&rgb](const Setting& self) {
    const std::string id = self.labelText() + "##" + self.name();
    return ImGui::ColorEdit3(id.c_str(), rgb, ImGuiColorEditFlags_NoInputs);
  };
}

SettingWidgets::Widget SettingWidgets::choice(std::string& field, std::vector<std::string> choices) {
  return [&field, choices](const Setting& self) {
    std::vector<const char*> names;
    for (const std::string& c : choices) names.push_back(c.c_str());
    int index = int(std::find(choices.begin(), choices.end(), field) - choices.begin());
    if (!SettingTable::comboWidget(self, index, names, names)) return false;
    field = choices[std::size_t(index)];
    return true;
  };
}

void Setting::tooltip() const {
  if (!ImGui::IsItemHovered()) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.0f);
  ImGui::TextUnformatted(m_help.c_str());
  ImGui::TextDisabled("--%s (preset key \"%s\")", m_name.c_str(), m_name.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

bool Setting::widget() const {
  if (!m_widget) throw std::logic_error("Setting \"" + m_name + "\" has no generic widget");
  const bool changed = m_widget(*this);
  checkLastItem(m_label);
  tooltip();
  return changed;
}

bool SettingTable::comboWidget(const Setting& self, int& index, const std::vector<const char*>& labels,
                               const std::vector<const char*>& names) {
  const std::string id = self.m_label + "##" + self.m_name;
  const bool chosen = index >= 0 && index < int(labels.size());
  const char* preview = chosen ? labels[std::size_t(index)] : "";
  const float room = ImGui::CalcItemWidth() - ImGui::GetFrameHeight() - 2.0f * ImGui::GetStyle().FramePadding.x;
  if (chosen && ImGui::CalcTextSize(preview).x > room) preview = names[std::size_t(index)];
  checkComboPreview(self.m_label, preview);
  bool changed = false;
  if (ImGui::BeginCombo(id.c_str(), preview)) {
    for (std::size_t i = 0; i < labels.size(); ++i) {
      const bool selected = int(i) == index;
      if (ImGui::Selectable(labels[i], selected) && !selected) {
        index = int(i);
        changed = true;
      }
      if (selected) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
  }
  return changed;
}

}  // namespace texstream::app
