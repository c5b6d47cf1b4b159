// libFuzzer target: a preset's JSON text through Preset (parsePreset) and each demo's
// settings table (fluid, fluid3d, wave, smooth, param) into its settings, as --preset, a dropped file and
// the page's file picker read it. parsePreset may only return or throw UsageError;
// SettingTable::setJson names its problems and throws nothing; the settings a preset left
// save as a preset that loads again without a problem.
#include "FuzzTarget.h"

#include "Fluid3DSettings.h"
#include "FluidSettings.h"
#include "Preset.h"
#include "Settings.h"
#include "ParamSettings.h"
#include "SmoothSettings.h"
#include "WaveSettings.h"

#include <optional>
#include <string>

namespace {

using namespace texstream;

template <class S, class Describe, class Finish>
void load(const std::string& text, const char* app, Describe describe, Finish finish) {
  std::optional<app::Preset> preset;
  fuzz::expectOnly<app::UsageError>([&] { preset = app::parsePreset(text, "fuzz.json", app, "--preset"); });
  if (!preset) return;
  S settings;
  app::SettingTable table;
  describe(table, settings);
  fuzz::expectOnly<fuzz::NoException>([&] {
    table.setJson(preset->values, preset->source);
    finish(settings);
  });
  S again;
  app::SettingTable reloaded;
  describe(reloaded, again);
  fuzz::expectOnly<fuzz::NoException>([&] {
    fuzz::require(reloaded.setJson(table.toJson(), "saved").empty(),
                  "the settings a preset left save as a preset that loads without a problem");
  });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(fuzz::bytes(data, size));
  load<app::FluidSettings>(text, "fluid", app::describeFluidSettings, app::finishFluidSettings);
  load<app::Fluid3DSettings>(text, "fluid3d", app::describeFluid3DSettings, [](app::Fluid3DSettings&) {});
  load<app::WaveSettings>(text, "wave", app::describeWaveSettings, app::finishWaveSettings);
  load<app::SmoothSettings>(text, "smooth", app::describeSmoothSettings, [](app::SmoothSettings&) {});
  // CGLS with multigrid is refused by name (a usage error), not loaded.
  load<app::ParamSettings>(text, "param", app::describeParamSettings, [](app::ParamSettings& s) {
    try {
      app::checkParamSettings(s);
    } catch (const app::UsageError&) {
    }
  });
  return 0;
}
