// The panel's memory of its open sections (apps/common/Panel.h): written on change, read
// back by the next run, kept apart per demo. CPU only.
#include "Panel.h"

#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace texstream::app;

TEST_CASE("the panel remembers its sections across runs, per demo", "[panel]") {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("texstream-panel-memory-test-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  setenv("TEXSTREAM_PANEL_DIR", dir.c_str(), 1);
  {
    PanelMemory m("fluid");
    CHECK(m.path() == (dir / "panel-fluid.json").string());
    CHECK(m.open("scene", true));
    CHECK(!m.open("recording", false));
    m.setOpen("scene", false);
    m.setOpen("recording", true);
    m.setPanelHidden(true);
  }
  {
    PanelMemory again("fluid");
    CHECK(!again.open("scene", true));
    CHECK(again.open("recording", false));
    CHECK(again.panelHidden());
    PanelMemory other("wave");
    CHECK(other.open("scene", true));
    CHECK(!other.panelHidden());
  }
  // A damaged file is ignored (the defaults hold) and replaced at the next change.
  std::ofstream(dir / "panel-fluid.json") << "{ not json";
  {
    PanelMemory damaged("fluid");
    CHECK(damaged.open("scene", true));
    damaged.setOpen("scene", false);
  }
  CHECK(!PanelMemory("fluid").open("scene", true));
  // An empty app name keeps nothing (the layout check's runs).
  CHECK(PanelMemory("").path().empty());
  std::filesystem::remove_all(dir);
  unsetenv("TEXSTREAM_PANEL_DIR");
}
