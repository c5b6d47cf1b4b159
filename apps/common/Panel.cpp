#include "Panel.h"

#include <imgui.h>
#include <imgui_internal.h>  // the window's work rectangle and cursor reach, for the layout check

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace texstream::app {

namespace {

Panel* g_current = nullptr;

std::string memoryFolder() {
  if (const char* dir = std::getenv("TEXSTREAM_PANEL_DIR"); dir && *dir) return dir;
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) return std::string(xdg) + "/texstream";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.config/texstream";
  return "";
}

}  // namespace

// ---- PanelMemory ------------------------------------------------------------------------

PanelMemory::PanelMemory(std::string app) : m_app(std::move(app)) {
  const std::string folder = m_app.empty() ? std::string() : memoryFolder();
  if (folder.empty()) return;  // nothing read or written
  m_path = folder + "/panel-" + m_app + ".json";
  std::ifstream in(m_path);
  if (!in) return;
  try {
    const nlohmann::json j = nlohmann::json::parse(in);
    if (j.contains("sections") && j["sections"].is_object())
      for (auto it = j["sections"].begin(); it != j["sections"].end(); ++it)
        if (it->is_boolean()) m_sections[it.key()] = it->get<bool>();
    if (j.contains("panel_hidden") && j["panel_hidden"].is_boolean()) m_hidden = j["panel_hidden"].get<bool>();
  } catch (const std::exception& e) {
    // A damaged file is replaced at the next change; the defaults hold meanwhile.
    std::cerr << "texstream-" << m_app << ": ignoring the panel state in " << m_path << ": " << e.what() << "\n";
  }
}

bool PanelMemory::open(const std::string& section, bool fallback) const {
  auto it = m_sections.find(section);
  return it == m_sections.end() ? fallback : it->second;
}

void PanelMemory::setOpen(const std::string& section, bool open) {
  auto it = m_sections.find(section);
  if (it != m_sections.end() && it->second == open) return;
  m_sections[section] = open;
  save();
}

void PanelMemory::setPanelHidden(bool hidden) {
  if (hidden == m_hidden) return;
  m_hidden = hidden;
  save();
}

void PanelMemory::save() {
  if (m_path.empty()) return;
  nlohmann::json j;
  j["sections"] = m_sections;
  j["panel_hidden"] = m_hidden;
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(m_path).parent_path(), ec);
  std::ofstream out(m_path);
  if (out) out << j.dump(2) << "\n";
  if ((!out || ec) && !m_warned) {
    std::cerr << "texstream-" << m_app << ": cannot write the panel state to " << m_path
              << " (sections will open as by default next time)\n";
    m_warned = true;
  }
}

// ---- Panel ------------------------------------------------------------------------------

Panel::Panel(std::string app, std::string title, std::span<const Binding> bindings, bool checkLayout)
    : m_title(std::move(title)), m_bindings(bindings), m_check(checkLayout), m_memory(checkLayout ? std::string() : app) {}

Panel::~Panel() {
  if (g_current == this) g_current = nullptr;
}

Panel* Panel::current() { return g_current; }

ViewRect Panel::view(int width, int height) const {
  const float scale = ImGui::GetCurrentContext() ? ImGui::GetIO().DisplayFramebufferScale.x : 1.0f;
  const int panel = int(std::ceil(kPanelWidth * (scale > 0 ? scale : 1.0f)));
  // The panel covers the view where sharing would leave it too little room.
  if (hidden() || width - panel < panel / 2) return ViewRect{0, 0, width, height};
  return ViewRect{panel, 0, width - panel, height};
}

bool Panel::begin() {
  const ImGuiIO& io = ImGui::GetIO();
  if (hidden() && !m_check) {
    ImGui::SetNextWindowPos(ImVec2(6, 6), ImGuiCond_Always);
    ImGui::Begin("##show panel", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoSavedSettings |
                     ImGuiWindowFlags_NoBackground);
    if (ImGui::SmallButton("panel (H)")) toggleHidden();
    ImGui::End();
    helpPopup();
    return false;
  }
  ImGui::SetNextWindowPos(ImVec2(0, 0), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(std::min(kPanelWidth, io.DisplaySize.x), io.DisplaySize.y), ImGuiCond_Always);
  ImGui::Begin(m_title.c_str(), nullptr,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                   ImGuiWindowFlags_NoSavedSettings);
  g_current = this;
  m_frameProblems.clear();
  m_section = "(top)";
  m_reach = ImGui::GetCurrentWindow()->WorkRect.Max.x;
  if (ImGui::SmallButton("? keys and mouse")) m_helpRequested = true;
  ImGui::SameLine();
  if (ImGui::SmallButton("hide panel (H)")) toggleHidden();
  // Widgets end kPanelLabelWidth before the right edge; their labels take that room.
  ImGui::PushItemWidth(-kPanelLabelWidth);
  return true;
}

void Panel::end() {
  checkSectionEnd();
  if (m_check) {
    // The window must lie inside the display.
    const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize(), display = ImGui::GetIO().DisplaySize;
    if (pos.x < 0 || pos.x + size.x > display.x + 0.5f)
      problem("the panel (" + std::to_string(int(size.x)) + " px wide) does not fit the display (" +
              std::to_string(int(display.x)) + " px)");
  }
  ImGui::PopItemWidth();
  ImGui::End();
  g_current = nullptr;
  m_problems = m_frameProblems;
  helpPopup();
}

void Panel::helpPopup() {
  if (m_helpRequested) {
    ImGui::OpenPopup("Keys and mouse");
    m_helpRequested = false;
  }
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  if (!ImGui::BeginPopup("Keys and mouse", ImGuiWindowFlags_AlwaysAutoResize)) return;
  ImGui::TextUnformatted("Keys and mouse (keys act while no text field has focus)");
  ImGui::Separator();
  if (ImGui::BeginTable("bindings", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
    auto rows = [](std::span<const Binding> list) {
      for (const Binding& b : list) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(b.input);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(b.action);
      }
    };
    rows(m_bindings);
    rows(sharedBindings());
    ImGui::EndTable();
  }
  if (ImGui::Button("close")) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
}

bool Panel::section(const char* title, bool defaultOpen) {
  checkSectionEnd();
  m_section = title;
  if (m_check) {
    ImGui::SetNextItemOpen(true, ImGuiCond_Always);
    return ImGui::CollapsingHeader(title);
  }
  ImGui::SetNextItemOpen(m_memory.open(title, defaultOpen), ImGuiCond_Once);
  const bool open = ImGui::CollapsingHeader(title);
  m_memory.setOpen(title, open);
  return open;
}

void Panel::checkSectionEnd() {
  if (!m_check) return;
  // The window's reach only grows: a section that pushed it past the edge holds the culprit.
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  const float reach = window->DC.CursorMaxPos.x, edge = window->WorkRect.Max.x;
  if (reach > edge + 0.5f && reach > m_reach + 0.5f)
    problem("section \"" + m_section + "\": content reaches x = " + std::to_string(int(reach)) +
            ", past the panel's right edge at " + std::to_string(int(edge)) + " (" + std::to_string(int(reach - edge)) +
            " px clipped: a label or line too long)");
  m_reach = std::max(m_reach, reach);
}

void Panel::checkLastItem(std::string_view what) {
  if (!m_check) return;
  const float right = ImGui::GetItemRectMax().x, edge = ImGui::GetContentRegionMaxAbs().x;
  if (right > edge + 0.5f)
    problem("section \"" + m_section + "\": \"" + std::string(what) + "\" ends at x = " + std::to_string(int(right)) +
            ", past the edge of its region at " + std::to_string(int(edge)) + " (" + std::to_string(int(right - edge)) +
            " px clipped)");
}

void Panel::checkComboPreview(std::string_view what, const char* preview) {
  if (!m_check) return;
  const ImGuiStyle& style = ImGui::GetStyle();
  const float room = ImGui::CalcItemWidth() - ImGui::GetFrameHeight() - 2.0f * style.FramePadding.x;
  const float needed = ImGui::CalcTextSize(preview).x;
  if (needed > room + 0.5f)
    problem("section \"" + m_section + "\": the value \"" + preview + "\" of \"" + std::string(what) + "\" needs " +
            std::to_string(int(needed)) + " px, its box has " + std::to_string(int(room)));
}

void Panel::problem(const std::string& text) {
  if (std::find(m_frameProblems.begin(), m_frameProblems.end(), text) == m_frameProblems.end())
    m_frameProblems.push_back(text);
}

// ---- Free functions -------------------------------------------------------------------------

bool section(const char* title, bool defaultOpen) {
  if (Panel* p = Panel::current()) return p->section(title, defaultOpen);
  return ImGui::CollapsingHeader(title, defaultOpen ? ImGuiTreeNodeFlags_DefaultOpen : 0);
}

void checkLastItem(std::string_view what) {
  if (Panel* p = Panel::current()) p->checkLastItem(what);
}

void checkComboPreview(std::string_view what, const char* preview) {
  if (Panel* p = Panel::current()) p->checkComboPreview(what, preview);
}

void wrappedText(const std::string& text) { ImGui::TextWrapped("%s", text.c_str()); }

void statusText(const std::string& text, bool failed) {
  if (text.empty()) return;
  if (failed) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.4f, 0.35f, 1.0f));
  wrappedText(text);
  if (failed) ImGui::PopStyleColor();
}

bool flowButton(const char* label, bool first) {
  if (!first) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float width = ImGui::CalcTextSize(label, nullptr, true).x + 2.0f * style.FramePadding.x;
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x < width) ImGui::NewLine();
  }
  return ImGui::Button(label);
}

}  // namespace texstream::app
