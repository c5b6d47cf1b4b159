#pragma once
// A Dear ImGui combo over an enum's name table (stream/EnumNames.h): the panel shows the
// table's labels, and the choice maps back to the enum through the table, never by casting
// a combo index.
#include <texstream/stream/EnumNames.h>

#include <imgui.h>

#include <span>

namespace texstream::app {

/// True when the user picked another value (then written to `value`).
template <class E>
bool namedCombo(const char* label, E& value, std::span<const stream::EnumName<E>> table) {
  bool changed = false;
  const int current = stream::indexOf(table, value);
  if (ImGui::BeginCombo(label, current >= 0 ? table[std::size_t(current)].label : "")) {
    for (std::size_t i = 0; i < table.size(); ++i) {
      const bool selected = int(i) == current;
      if (ImGui::Selectable(table[i].label, selected) && !selected) {
        value = table[i].value;
        changed = true;
      }
      if (selected) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
  }
  return changed;
}

}  // namespace texstream::app
