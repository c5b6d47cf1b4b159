#include "DemoCommandLine.h"

#include "DemoRunner.h"
#include "OutputPath.h"
#include "Preset.h"
#include "Settings.h"
#ifndef __EMSCRIPTEN__
#include "Recorder.h"
#endif

#include <texstream/text/Format.h>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <iostream>

namespace texstream::app {

namespace {

bool endsWith(std::string text, const std::string& suffix) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return text.size() > suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

DemoCommandLine::DemoCommandLine(std::string program, std::string description, AppOptions defaults)
    : CommandLine(std::move(program), std::move(description), std::move(defaults)) {
  AppOptions& o = mutableOptions();
  CLI::App& c = cli();
  c.add_option("--window", m_windowText,
               "Window size (also the frame size of headless screenshots and recordings; default 1280x800)")
      ->type_name("WxH");

  const std::string presets = "Presets and files";
  c.add_option("--preset", o.preset,
               "Load a preset (a JSON file of the settings below, or a shipped preset's name) before the other "
               "options apply; keys it cannot take are reported by name and the rest loads")
      ->type_name("PATH.json|NAME")
      ->group(presets);
  c.add_option("--save-preset", o.savePreset, "Write the final settings as a preset after the run")
      ->type_name("PATH.json")
      ->group(presets);
  c.add_option("--drop", o.drops,
               "Open a file as if dropped onto the window at the start (a preset .json; texstream-smooth: a mesh)")
      ->type_name("PATH")
      ->group(presets);
  c.add_flag("--check-panel", o.checkPanel,
             "Open every panel section and fail the run (exit 1) on text the panel clips (windowed runs)")
      ->group(presets);

  const std::string recording = "Recording (ffmpeg)";
  c.add_option("--record", o.record.path,
               "Record the simulation view, one frame per step, through ffmpeg (the format by the extension)")
      ->type_name("PATH.mp4|PATH.webm|PATH.gif")
      ->group(recording);
  c.add_option("--record-fps", m_recordFpsText, "Frame rate of the clip")
      ->type_name("N")
      ->capture_default_str()
      ->group(recording);
  c.add_option("--record-size", m_recordSizeText, "Frame size of the clip (default: the view's)")
      ->type_name("WxH")
      ->group(recording);
  c.add_flag("--record-panel", o.record.panel, "Record the whole window with the panel (windowed runs)")->group(recording);
}

std::string DemoCommandLine::app() const {
  const std::string prefix = "texstream-";
  return program().rfind(prefix, 0) == 0 ? program().substr(prefix.size()) : program();
}

void DemoCommandLine::settings(SettingTable& table) {
  m_table = &table;
  table.addTo(cli(), "Settings (each also a preset key of the same name, without --)");
}

void DemoCommandLine::footer(std::span<const Binding> bindings) {
  std::string text = bindingsHelp(bindings);
  std::string shipped;
  for (const Preset& p : shippedPresetsFor(app()))
    shipped += "  " + p.source + (p.description.empty() ? "" : ": " + p.description) + "\n";
  if (!shipped.empty()) text += "\nShipped presets (--preset NAME):\n" + shipped;
  cli().footer(text + "\n" + kDemoExitStatus);
}

std::optional<int> DemoCommandLine::parse(int argc, char** argv, const std::function<void()>& validateExtra) {
  return CommandLine::parse(argc, argv, [&] {
    validateDemoOptions();
    if (validateExtra) validateExtra();
  });
}

void DemoCommandLine::validateDemoOptions() {
  AppOptions& o = mutableOptions();
  if (!m_windowText.empty()) o.window = parseGridSize("--window", m_windowText, 64, 16384);

  RecordOptions& r = o.record;
  r.fps = int(parseInteger("--record-fps", m_recordFpsText, 1, 240));
  if (!m_recordSizeText.empty()) {
    const GridSize g = parseGridSize("--record-size", m_recordSizeText, 16, 8192);
    r.width = g.width;
    r.height = g.height;
  }
  if (!r.path.empty()) {
#ifdef __EMSCRIPTEN__
    throw UsageError("--record: invalid value " + text::quoted(r.path) +
                     ": recording pipes frames to ffmpeg, which a page cannot start (native builds only)");
#else
    requireVideoPath("--record", r.path);
    requireWritablePath("--record", r.path);
    if (findFfmpeg().empty()) throw UsageError("--record: invalid value " + text::quoted(r.path) + ": " + ffmpegMissingMessage());
#endif
  }

  if (!o.savePreset.empty()) {
    if (!endsWith(o.savePreset, ".json"))
      throw UsageError("--save-preset: invalid value " + text::quoted(o.savePreset) + ": the path must end in .json");
    if (!m_table) throw UsageError("--save-preset: " + program() + " has no presets");
    requireWritablePath("--save-preset", o.savePreset);
  }
  for (const std::string& path : o.drops) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) throw UsageError("--drop: invalid value " + text::quoted(path) + ": no such file");
  }
  if (!o.preset.empty()) {
    if (!m_table) throw UsageError("--preset: " + program() + " has no presets");
    const Preset preset = readPreset(o.preset, app(), "--preset");
    std::vector<std::string> problems = preset.problems;
    for (std::string& problem : m_table->setJson(preset.values, preset.source)) problems.push_back(std::move(problem));
    for (const std::string& problem : problems)
      std::cerr << program() << ": warning: " << problem << " (the rest of the preset loads)\n";
  }
  if (m_table) m_table->applyCommandLine();
}

}  // namespace texstream::app
