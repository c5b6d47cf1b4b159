#pragma once
// The panel every demo shows (Dear ImGui): a sidebar of fixed width on the left of the
// window, the simulation view to its right (the demo keeps the view's aspect as the window
// resizes). Its collapsible sections remember whether they are open, across runs (a small
// JSON file, PanelMemory); a "?" lists the keys and mouse bindings (KeyBindings.h); and a
// layout check finds text the panel clips: an item reaching past the right edge of its
// region (a label too long for the space beside its widget, an unwrapped line, a combo's
// value wider than its box). --check-panel runs the check with every section open and fails
// the run on a clipped item; the tests run it at 1280x800.
#include "KeyBindings.h"

#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace texstream::app {

/// The panel's width in pixels (font scale 1), and the room it leaves for labels beside
/// the widgets.
inline constexpr float kPanelWidth = 470.0f;
inline constexpr float kPanelLabelWidth = 185.0f;

/// The simulation view in the window: x, y from the top left, in framebuffer pixels.
struct ViewRect {
  int x = 0, y = 0, width = 0, height = 0;
};

/// Open/closed state of the collapsible sections, kept in
/// $XDG_CONFIG_HOME/texstream/panel-<app>.json (else ~/.config/texstream/...), or in the
/// folder TEXSTREAM_PANEL_DIR names.
class PanelMemory {
 public:
  explicit PanelMemory(std::string app);
  /// The file it reads and writes ("" where neither HOME nor XDG_CONFIG_HOME is set).
  const std::string& path() const { return m_path; }
  /// Remembered state of `section`, or `fallback`.
  bool open(const std::string& section, bool fallback) const;
  /// Remembers it and writes the file when it changed; a file that cannot be written is
  /// reported once on stderr (the panel still works).
  void setOpen(const std::string& section, bool open);
  bool panelHidden() const { return m_hidden; }
  void setPanelHidden(bool hidden);

 private:
  void save();
  std::string m_app, m_path;
  std::map<std::string, bool> m_sections;
  bool m_hidden = false, m_warned = false;
};

class Panel {
 public:
  /// `checkLayout`: open every section and record clipped items (--check-panel); the
  /// remembered state is then neither read nor written.
  Panel(std::string app, std::string title, std::span<const Binding> bindings, bool checkLayout);
  ~Panel();
  Panel(const Panel&) = delete;
  Panel& operator=(const Panel&) = delete;

  /// The panel being drawn (between begin() and end()), or nullptr.
  static Panel* current();

  /// The view beside the panel in a display of width x height (all of it while the panel
  /// is hidden, or where the window is too narrow to share).
  ViewRect view(int width, int height) const;
  bool hidden() const { return m_memory.panelHidden(); }
  void toggleHidden() { m_memory.setPanelHidden(!m_memory.panelHidden()); }
  void openHelp() { m_helpRequested = true; }

  /// Begins the panel's window (title, "?" and hide buttons, item width); false while the
  /// panel is hidden (then call nothing else until the next frame's begin()).
  bool begin();
  /// Ends it, finishing the frame's layout check.
  void end();

  /// A collapsing header whose state is remembered.
  bool section(const char* title, bool defaultOpen);

  // Layout check (no effect unless checking).
  bool checking() const { return m_check; }
  void checkLastItem(std::string_view what);
  void checkComboPreview(std::string_view what, const char* preview);
  /// The problems of the last frame drawn, one line each (a layout settles over a frame
  /// or two: a new table's columns start at no width).
  const std::vector<std::string>& layoutProblems() const { return m_problems; }

 private:
  void problem(const std::string& text);
  void checkSectionEnd();
  void helpPopup();

  std::string m_title;
  std::span<const Binding> m_bindings;
  bool m_check;
  PanelMemory m_memory;
  bool m_helpRequested = false;
  std::string m_section = "(top)";
  float m_reach = 0;  ///< how far right the panel's content reached before this section
  std::vector<std::string> m_problems, m_frameProblems;
};

/// Free-function forms for widgets drawn inside the current panel (Settings.h, demos):
/// a remembered collapsing header (a plain one outside a panel) and the layout checks.
bool section(const char* title, bool defaultOpen = true);
void checkLastItem(std::string_view what);
void checkComboPreview(std::string_view what, const char* preview);

/// A line of text wrapped at the panel's edge (ImGui::TextWrapped of a std::string).
void wrappedText(const std::string& text);
/// The outcome of a load, save or recording as wrapped text, in the error colour where it
/// failed; nothing where `text` is empty.
void statusText(const std::string& text, bool failed);
/// A button in a row that flows onto the next line where the panel has no room left
/// (`first`: it starts a row).
bool flowButton(const char* label, bool first = false);

}  // namespace texstream::app
