#include "DemoRunner.h"

#include "Preset.h"
#include "Screenshot.h"
#ifndef __EMSCRIPTEN__
#include "Recorder.h"
#endif

#include <texstream/gl/Error.h>
#ifndef __EMSCRIPTEN__
#include <texstream/gl/HeadlessContext.h>
#endif
#include <texstream/stream/Profiler.h>
#include <texstream/stream/Runtime.h>

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <vector>

#ifdef __EMSCRIPTEN__
#include "BrowserPage.h"
#include "Download.h"

#include <emscripten/emscripten.h>
#endif

namespace texstream::app {

namespace {

using Clock = std::chrono::steady_clock;

// Whether the command line left the backend to auto (the panel says what auto chose).
bool g_backendChosenByAuto = false;

/// The context asked for with --gl / TEXSTREAM_GL could not be created.
class ContextRequestError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

#ifndef __EMSCRIPTEN__
bool haveDisplay() {
  const char* x = std::getenv("DISPLAY");
  const char* w = std::getenv("WAYLAND_DISPLAY");
  return (x && *x) || (w && *w);
}

#endif

std::string contextFailure(const AppOptions& options, const std::string& why) {
  return "no OpenGL context for " + (options.gl ? options.gl->name() : std::string("the highest OpenGL core")) +
         (options.gl ? " (--gl / TEXSTREAM_GL)" : "") + ": " + why +
         "\n  (try another --gl value: " + gl::GlRequest::accepted() + ")";
}

/// Backend and size checks that need the context; throws UsageError, or
/// ContextRequestError when the context cannot run texstream, or this demo, at all.
RunContext prepareContext(const AppInfo& info, const AppOptions& options, bool headless) {
  stream::Runtime* runtime = nullptr;
  try {
    runtime = &stream::Runtime::current();
  } catch (const gl::Error& e) {
    throw ContextRequestError(std::string("this OpenGL context cannot run texstream: ") + e.what());
  }
  stream::Runtime& rt = *runtime;
  const gl::Capabilities& caps = rt.caps();
  if (!caps.floatRenderTargets && !info.runsOnHalfFloatTargets)
    throw ContextRequestError("this OpenGL context cannot run texstream-" + info.name + ": " + caps.floatTargetsMissing() +
                              ", and its solvers need 32-bit floats" +
                              (info.needsFloatTargets.empty() ? "" : ": " + info.needsFloatTargets) +
                              " (only the fluid demo runs there, on half floats: " +
                              gl::Capabilities::kHalfFloatTargetsExtension + ")");
  if (options.profile && !stream::Profiler::available())
    std::cerr << "texstream-" << info.name << ": --profile: " << stream::Profiler::unavailableReason() << "\n";
  if (options.backend == stream::Backend::Compute && !caps.compute)
    throw UsageError(std::string("--backend: invalid value \"compute\": this context (") + caps.apiName() + ", " +
                     caps.summary() + ") has no compute shaders (OpenGL 4.3 or OpenGL ES 3.1 needed); use --backend auto or fragment");
  rt.setDefaultBackend(stream::resolveBackend(options.backend, caps));
  g_backendChosenByAuto = !options.backend;
  const int maxSide = caps.maxTextureSize;
  if (options.size.width > maxSide || options.size.height > maxSide)
    throw UsageError("--size: invalid value \"" + std::to_string(options.size.width) + "x" +
                     std::to_string(options.size.height) + "\": each side must be in [2, " + std::to_string(maxSide) +
                     "] (the maximum texture size of " + caps.renderer + ")");
  return RunContext{options, headless, caps.summary(), maxSide};
}

nlohmann::json commonReport(const AppInfo& info, const AppOptions& options, const RunContext& ctx, long long steps,
                            double stepMs) {
  const gl::Capabilities& caps = stream::Runtime::current().caps();
  nlohmann::json j;
  j["app"] = info.name;
  j["backend"] = stream::backendName(stream::Runtime::current().defaultBackend());
  j["size"] = {options.size.width, options.size.height};
  j["steps"] = steps;
  j["renderer"] = caps.renderer;
  j["gl_version"] = caps.version;
  j["gl_api"] = caps.apiName();
  j["headless"] = ctx.headless;
  j["ms_per_step"] = steps > 0 ? stepMs / double(steps) : 0.0;
  stream::Profiler& profiler = stream::Runtime::current().profiler();
  if (profiler.enabled()) {
    glFinish();
    profiler.newFrame();  // collects every finished query
    nlohmann::json passes = nlohmann::json::object();
    for (const auto& [label, s] : profiler.stats())
      passes[label] = {{"passes", s.passes}, {"total_ms", s.totalMs}, {"mean_ms", s.passes ? s.totalMs / double(s.passes) : 0.0}};
    j["gpu_passes"] = passes;
  }
  return j;
}

/// step() plus its GPU work, in milliseconds.
double timedStep(Demo& demo) {
  const auto t0 = Clock::now();
  demo.step();
  glFinish();
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

/// Writes the JSON report; returns the exit code of the run (1 after a blow-up).
int finish(const AppInfo& info, const AppOptions& options, const RunContext& ctx, const Demo& demo, long long steps,
           double stepMs, const std::optional<BlowUp>& blowUp) {
  if (blowUp) std::cerr << "texstream-" << info.name << ": error: " << describe(*blowUp) << "\n";
  if (!options.json.empty()) {
    nlohmann::json j = commonReport(info, options, ctx, steps, stepMs);
    demo.report(j);
    if (blowUp) j["blew_up"] = {{"step", blowUp->step}, {"reason", blowUp->reason}};
    writeJsonFile(options.json, j);
    std::cerr << "texstream-" << info.name << ": wrote " << options.json << "\n";
  }
  return blowUp ? 1 : 0;
}

/// The panel a windowed run shows after a blow-up: the step, the reason and reset.
void blowUpPanel(Demo& demo, HealthWatch& watch, ShellControls& controls) {
  if (!controls.blowUp) return;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f), ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(420, 0), ImGuiCond_Always);
  ImGui::Begin("The simulation blew up", nullptr, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_AlwaysAutoResize);
  ImGui::TextColored(ImVec4(1.0f, 0.35f, 0.3f, 1.0f), "Step %lld", controls.blowUp->step);
  ImGui::TextWrapped("%s", controls.blowUp->reason.c_str());
  ImGui::TextWrapped("The simulation is paused. Reset to the initial state, then change what made it unstable "
                     "(time step, scheme, forces).");
  if (ImGui::Button("reset")) {
    demo.restart();
    watch.reset();
    controls.blowUp.reset();
    controls.paused = false;
  }
  ImGui::End();
}

/// A file handed to the demo (dropped onto the window or the page, chosen with the page's
/// picker, --drop): a preset (.json) through Demo::loadSettings where the demo has presets,
/// anything else through Demo::openFile. `problems`: the preset's keys it could not take.
FileResult openForDemo(Demo& demo, const std::string& app, const std::string& path, std::vector<std::string>& problems) {
  problems.clear();
  std::string lower = path;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  const bool json = lower.size() > 5 && lower.substr(lower.size() - 5) == ".json";
  try {
    if (json && demo.hasPresets()) {
      const Preset preset = readPreset(path, app, "preset");
      problems = preset.problems;
      for (std::string& p : demo.loadSettings(preset.values, preset.source)) problems.push_back(std::move(p));
      return {true, "loaded preset " + preset.source +
                        (problems.empty() ? "" : " (" + std::to_string(problems.size()) + " keys not taken)"),
              ""};
    }
    return demo.openFile(path);
  } catch (const std::exception& e) {
    return {false, e.what(), ""};
  }
}

void writeSettings(const std::string& program, const std::string& app, Demo& demo, const std::string& path) {
  writePreset(path, app, demo.saveSettings());
  std::cerr << program << ": wrote " << path << "\n";
}

#ifndef __EMSCRIPTEN__
int runHeadless(const AppInfo& info, const AppOptions& options, const DemoFactory& make) {
  const std::string program = "texstream-" + info.name;
  if (options.checkPanel) throw UsageError("--check-panel: a headless run draws no panel (run it in a window, e.g. under xvfb-run)");
  std::unique_ptr<gl::HeadlessContext> context;
  try {
    context = std::make_unique<gl::HeadlessContext>(gl::HeadlessOptions{-1, options.gl, false});
  } catch (const gl::Error& e) {
    throw ContextRequestError(contextFailure(options, e.what()));
  }
  RunContext ctx = prepareContext(info, options, true);
  std::cerr << program << ": headless, " << ctx.renderer << " (" << context->description()
            << "), " << stream::backendName(stream::Runtime::current().defaultBackend()) << " backend"
            << (options.backend ? "" : " (auto)") << "\n";

  std::unique_ptr<Demo> demo = make(ctx);
  for (const std::string& path : options.drops) {
    std::vector<std::string> problems;
    const FileResult r = openForDemo(*demo, info.name, path, problems);
    if (!r.ok) throw std::runtime_error("--drop: " + r.message);
    std::cerr << program << ": " << r.message << "\n";
    for (const std::string& p : problems) std::cerr << program << ": warning: " << p << "\n";
  }
  // The clip: one frame of the view per step, rendered offscreen at the clip's size.
  std::unique_ptr<OffscreenTarget> recordTarget;
  std::unique_ptr<Recorder> recorder;
  if (!options.record.path.empty()) {
    if (options.record.panel) std::cerr << program << ": --record-panel: a headless run has no panel; recording the view\n";
    const int w = options.record.width > 0 ? options.record.width : info.windowWidth;
    const int h = options.record.height > 0 ? options.record.height : info.windowHeight;
    recordTarget = std::make_unique<OffscreenTarget>(w, h);
    recorder = std::make_unique<Recorder>(options.record.path, w, h, options.record.fps);
  }
  auto recordFrame = [&] {
    recordTarget->bind();
    demo->render(recordTarget->width(), recordTarget->height());
    recorder->addFrame(readFramebuffer(recordTarget->framebuffer(), recordTarget->width(), recordTarget->height()));
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
  };

  stream::Profiler& profiler = stream::Runtime::current().profiler();
  profiler.setEnabled(options.profile);
  const long long steps = options.steps >= 0 ? options.steps : options.defaultSteps;
  double stepMs = 0;
  HealthWatch watch;
  long long done = 0;
  // The initial state, then every few steps while the run goes on, then the final state.
  if (!watch.checkNow(*demo, 0)) {
    while (done < steps) {
      stepMs += timedStep(*demo);
      ++done;
      if (profiler.enabled()) profiler.newFrame();
      if (recorder) recordFrame();
      if (watch.afterStep(*demo, done)) break;
    }
    if (!watch.blowUp()) watch.checkNow(*demo, done);
  }
  if (recorder) {
    recorder->finish();
    std::cerr << program << ": wrote " << options.record.path << " (" << recorder->frames() << " frames, "
              << recorder->width() << "x" << recorder->height() << " at " << recorder->fps() << " fps)\n";
  }

  if (!options.screenshot.empty()) {
    OffscreenTarget target(info.windowWidth, info.windowHeight);
    target.bind();
    demo->render(target.width(), target.height());
    writePng(options.screenshot, readFramebuffer(target.framebuffer(), target.width(), target.height()));
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    std::cerr << program << ": wrote " << options.screenshot << "\n";
  }
  if (!options.savePreset.empty()) writeSettings(program, info.name, *demo, options.savePreset);
  const int rc = finish(info, options, ctx, *demo, done, stepMs, watch.blowUp());
  demo.reset();  // GL objects go while the context is current
  return rc;
}

#endif

std::string nextScreenshotPath(const AppInfo& info, const AppOptions& options, int& counter) {
  if (!options.screenshot.empty() && counter == 0) {
    ++counter;
    return options.screenshot;
  }
  return "texstream-" + info.name + "-" + std::to_string(++counter) + ".png";
}

void copyText(char* buffer, std::size_t size, const std::string& text) {
  std::snprintf(buffer, size, "%s", text.c_str());
}

/// A run in a window (GLFW on the desktop, the page's canvas in the browser): the window,
/// the demo and the shell's state, one frame() per displayed frame. The native loop calls
/// frame() until it returns false; the browser calls it once per animation frame. It keeps
/// its own copies of the run's description, so that it may outlive the caller's stack.
class WindowedRun {
 public:
  WindowedRun(const AppInfo& info, const AppOptions& options, const DemoFactory& make)
      : m_info(info), m_options(options), m_program("texstream-" + info.name),
        m_panel(info.name, m_program, info.bindings, options.checkPanel) {
    try {
      m_window = std::make_unique<Window>(info.title, info.windowWidth, info.windowHeight, options.gl);
    } catch (const WindowContextError& e) {
      throw ContextRequestError(contextFailure(options, e.what()));
    }
    m_context.emplace(prepareContext(m_info, m_options, false));
    std::cerr << m_program << ": " << m_context->renderer << " (" << m_window->description() << "), "
              << stream::backendName(stream::Runtime::current().defaultBackend()) << " backend"
              << (options.backend ? "" : " (auto)") << "\n";
    m_demo = make(*m_context);
    stream::Runtime::current().profiler().setEnabled(options.profile);
    m_watch.emplace();  // GPU objects: only once the context exists
    m_controls.blowUp = m_watch->checkNow(*m_demo, 0);
    m_lastFrame = Clock::now();
    m_shipped = shippedPresetsFor(info.name);
    copyText(m_presetPath, sizeof m_presetPath, m_program + "-preset.json");
#ifndef __EMSCRIPTEN__
    m_record = options.record;
    if (m_record.path.empty()) m_record.path = m_program + "-1.mp4";
    copyText(m_recordPath, sizeof m_recordPath, m_record.path);
    if (!options.record.path.empty()) startRecording();
#else
    attachToPage(*m_window, *m_demo, [this](const std::string& path) { writeReport(path); },
                 [this](const std::string& path) { return open(path); });
#endif
  }

  ~WindowedRun() {
#ifndef __EMSCRIPTEN__
    m_recorder.reset();  // finishes the clip
    m_recordTarget.reset();
#else
    detachFromPage();
#endif
    m_demo.reset();  // GL objects go while the context is current
  }

  Window& window() { return *m_window; }

  /// Draws one frame (a step unless paused or done); false when the run is over: the
  /// window was closed, or a scripted run (--steps) has done its steps or blew up.
  bool frame() {
    Window& window = *m_window;
    if (window.shouldClose()) return false;
    stream::Profiler& profiler = stream::Runtime::current().profiler();
    window.beginFrame();
    if (profiler.enabled()) profiler.newFrame();
    if (m_frames == 0 && !m_options.drops.empty()) window.simulateDrop(m_options.drops);
    for (const std::string& path : window.takeDroppedPaths()) open(path, m_frames == 0);
    keys();

    const int w = window.framebufferWidth(), h = window.framebufferHeight();
    const ViewRect view = m_panel.view(w, h);
    m_controls.view = view;
    if (!window.guiWantsMouse()) {
      MouseInput m = window.mouse();
      m.x -= float(view.x);
      m.y -= float(view.y);
      m.width = view.width;
      m.height = view.height;
      m_demo->mouse(m);
    }

    // A scripted run (--steps) ends at a blow-up; an interactive one pauses on it until
    // the panel's reset.
    const long long target = m_options.steps;  // -1: until closed
    const bool done = target >= 0 && m_controls.steps >= target;
    [[maybe_unused]] bool stepped = false;  // a recording takes the frames of steps
    if ((!m_controls.paused || m_stepOnce) && !done && !m_controls.blowUp) {
      const double ms = timedStep(*m_demo);
      m_stepMs += ms;
      ++m_controls.steps;
      stepped = true;
      m_controls.msPerStep = m_stepMs / double(m_controls.steps);
      m_controls.msPerStepRecent = m_controls.steps == 1 ? ms : 0.95 * m_controls.msPerStepRecent + 0.05 * ms;
      m_controls.blowUp = m_watch->afterStep(*m_demo, m_controls.steps);
      if (m_controls.blowUp) {
        m_controls.paused = true;
        std::cerr << m_program << ": " << describe(*m_controls.blowUp) << "\n";
      }
    }
    m_stepOnce = false;

    // The panel's part of the window in the panel's colour, the view beside it.
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, w, h);
    glDisable(GL_SCISSOR_TEST);
    glClearColor(0.06f, 0.06f, 0.07f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    if (view.width > 0 && view.height > 0) {
      const int y = h - view.y - view.height;
      glViewport(view.x, y, view.width, view.height);
      glScissor(view.x, y, view.width, view.height);
      glEnable(GL_SCISSOR_TEST);
      m_demo->render(view.width, view.height);
      glDisable(GL_SCISSOR_TEST);
      glViewport(0, 0, w, h);
    }
#ifndef __EMSCRIPTEN__
    if (stepped && m_recorder && !m_record.panel) recordView();
#endif
    m_demo->overlay(m_controls);
    if (m_panel.begin()) {
      m_demo->gui(m_controls);
      presetSection();
#ifndef __EMSCRIPTEN__
      recordingSection();
#endif
      m_panel.end();
    }
    blowUpPanel(*m_demo, *m_watch, m_controls);
    window.renderGui();
#ifndef __EMSCRIPTEN__
    if (stepped && m_recorder && m_record.panel) recordWindow(w, h);
#endif
    ++m_frames;

    // A scripted run (--steps) ends once its steps are done and Dear ImGui has laid out
    // its windows (a few frames), with the last frame as the screenshot.
    const bool finished = target >= 0 && (m_controls.steps >= target || m_controls.blowUp) && m_frames >= 3;
    if (m_controls.screenshotRequested || (finished && !m_options.screenshot.empty())) {
      const std::string path = finished && !m_options.screenshot.empty()
                                   ? m_options.screenshot
                                   : nextScreenshotPath(m_info, m_options, m_screenshots);
      writePng(path, readFramebuffer(0, w, h));
#ifdef __EMSCRIPTEN__
      offerDownload(path);
#endif
      m_controls.lastScreenshot = path;
      m_controls.screenshotRequested = false;
      std::cerr << m_program << ": wrote " << path << "\n";
    }
    window.swapBuffers();
#ifdef __EMSCRIPTEN__
    pageFrameDrawn();
#endif
    const auto now = Clock::now();
    const double dt = std::chrono::duration<double>(now - m_lastFrame).count();
    m_lastFrame = now;
    if (dt > 0) m_controls.fps = m_controls.fps == 0 ? 1.0 / dt : 0.9 * m_controls.fps + 0.1 / dt;
    return !finished;
  }

  /// Checks the final state of a scripted run, finishes a recording, writes --save-preset and
  /// the JSON report; returns the run's exit code.
  int finish() {
    int rc = 0;
#ifndef __EMSCRIPTEN__
    if (m_recorder) {
      stopRecording();
      if (m_recordFailed && m_recordFromCommandLine) rc = 1;
    }
#endif
    // A scripted run that ended unwatched since its last check gets the final state checked.
    if (m_options.steps >= 0 && !m_controls.blowUp) m_controls.blowUp = m_watch->checkNow(*m_demo, m_controls.steps);
    if (!m_options.savePreset.empty()) writeSettings(m_program, m_info.name, *m_demo, m_options.savePreset);
    const int reportRc = ::texstream::app::finish(m_info, m_options, *m_context, *m_demo, m_controls.steps, m_stepMs,
                                                  m_controls.blowUp);
    if (m_options.checkPanel && !m_panel.layoutProblems().empty()) {
      for (const std::string& p : m_panel.layoutProblems())
        std::cerr << "panel layout: " << m_program << ": " << p << "\n";
      std::cerr << m_program << ": error: --check-panel: " << m_panel.layoutProblems().size()
                << " clipped item(s) in the panel at " << m_window->framebufferWidth() << "x"
                << m_window->framebufferHeight() << " (listed above)\n";
      rc = 1;
    }
    if (m_dropFailed) {
      std::cerr << m_program << ": error: --drop: a file could not be opened (see above)\n";
      rc = 1;
    }
    return std::max(rc, reportRc);
  }

  /// The JSON report of the run so far, written to `path` while it goes on.
  void writeReport(const std::string& path) {
    nlohmann::json j = commonReport(m_info, m_options, *m_context, m_controls.steps, m_stepMs);
    m_demo->report(j);
    if (m_controls.blowUp) j["blew_up"] = {{"step", m_controls.blowUp->step}, {"reason", m_controls.blowUp->reason}};
    writeJsonFile(path, j);
  }

 private:
  void restartDemo() {
    m_demo->restart();
    m_watch->reset();
    if (m_controls.blowUp) m_controls.paused = false;
    m_controls.blowUp.reset();
  }

  /// The shared keys (KeyBindings.h), unless a text field has the keyboard.
  void keys() {
    if (ImGui::GetIO().WantCaptureKeyboard) return;
    if (ImGui::IsKeyPressed(GLFW_KEY_SPACE, false)) m_controls.paused = !m_controls.paused;
    if (ImGui::IsKeyPressed(GLFW_KEY_N, true) && m_controls.paused) m_stepOnce = true;
    if (ImGui::IsKeyPressed(GLFW_KEY_R, false)) restartDemo();
    if (ImGui::IsKeyPressed(GLFW_KEY_S, false)) m_controls.screenshotRequested = true;
    if (ImGui::IsKeyPressed(GLFW_KEY_H, false)) m_panel.toggleHidden();
    if (ImGui::IsKeyPressed(GLFW_KEY_F1, false)) m_panel.openHelp();
#ifndef __EMSCRIPTEN__
    if (ImGui::IsKeyPressed(GLFW_KEY_V, false)) {
      if (m_recorder) stopRecording();
      else startRecording();
    }
#endif
  }

  /// A file handed over (a drop, the page's picker, or --drop: `fromCommandLine`): its
  /// outcome goes to the panel and stderr.
  FileResult open(const std::string& path, bool fromCommandLine = false) {
    const FileResult r = openForDemo(*m_demo, m_info.name, path, m_presetProblems);
    m_presetStatus = r.message;
    m_presetStatusIsError = !r.ok;
    if (r.ok) {
      m_watch->reset();
      m_controls.blowUp.reset();
      std::cerr << m_program << ": " << r.message << "\n";
      for (const std::string& p : m_presetProblems) std::cerr << m_program << ": warning: " << p << "\n";
    } else {
      std::cerr << m_program << ": error: " << r.message << "\n";
      if (fromCommandLine) m_dropFailed = true;
    }
    return r;
  }

  void loadPreset(const Preset& preset) {
    try {
      std::vector<std::string> problems = preset.problems;
      for (std::string& p : m_demo->loadSettings(preset.values, preset.source)) problems.push_back(std::move(p));
      m_presetProblems = std::move(problems);
      m_presetStatus = "loaded " + preset.source;
      m_presetStatusIsError = false;
      m_watch->reset();
      m_controls.blowUp.reset();
    } catch (const std::exception& e) {
      m_presetStatus = e.what();
      m_presetStatusIsError = true;
      m_presetProblems.clear();
    }
  }

  void presetSection() {
    if (!m_demo->hasPresets() || !section("presets", false)) return;
    if (!m_shipped.empty()) {
      ImGui::TextDisabled("shipped:");
      for (const Preset& p : m_shipped) {
        // "fluid-cavity-re1000" shows as "cavity-re1000"; buttons flow onto new lines.
        std::string label = p.source;
        if (label.rfind(m_info.name + "-", 0) == 0) label = label.substr(m_info.name.size() + 1);
        const float width = ImGui::CalcTextSize(label.c_str()).x + 2.0f * ImGui::GetStyle().FramePadding.x;
        ImGui::SameLine();
        if (ImGui::GetContentRegionAvail().x < width) ImGui::NewLine();
        if (ImGui::Button(label.c_str())) loadPreset(p);
        if (!p.description.empty() && ImGui::IsItemHovered()) {
          ImGui::BeginTooltip();
          ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
          ImGui::TextUnformatted(p.description.c_str());
          ImGui::PopTextWrapPos();
          ImGui::EndTooltip();
        }
      }
    }
    ImGui::InputText("preset file", m_presetPath, sizeof m_presetPath);
    checkLastItem("preset file");
    if (ImGui::Button("load")) {
      try {
        loadPreset(readPreset(m_presetPath, m_info.name, "preset"));
      } catch (const std::exception& e) {
        m_presetStatus = e.what();
        m_presetStatusIsError = true;
      }
    }
    ImGui::SameLine();
    if (ImGui::Button("save")) {
      try {
        writePreset(m_presetPath, m_info.name, m_demo->saveSettings());
        m_presetStatus = std::string("saved ") + m_presetPath;
        m_presetStatusIsError = false;
        m_presetProblems.clear();
#ifdef __EMSCRIPTEN__
        offerDownload(m_presetPath);
#endif
      } catch (const std::exception& e) {
        m_presetStatus = e.what();
        m_presetStatusIsError = true;
      }
    }
    ImGui::SameLine();
    ImGui::TextDisabled("(or drop a .json here)");
    statusText(m_presetStatus, m_presetStatusIsError);
    for (const std::string& p : m_presetProblems) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.75f, 0.3f, 1.0f));
      wrappedText(p);
      ImGui::PopStyleColor();
    }
  }

#ifndef __EMSCRIPTEN__
  void startRecording() {
    m_recordFromCommandLine = !m_options.record.path.empty() && m_frames == 0;
    m_recordFailed = false;
    try {
      requireVideoPath("file", m_record.path);
      int w = m_record.width, h = m_record.height;
      if (w <= 0 || h <= 0) {
        // The view's size, or the window's with the panel.
        const ViewRect view = m_panel.view(m_window->framebufferWidth(), m_window->framebufferHeight());
        w = m_record.panel ? m_window->framebufferWidth() : view.width;
        h = m_record.panel ? m_window->framebufferHeight() : view.height;
      }
      m_recorder = std::make_unique<Recorder>(m_record.path, w, h, m_record.fps);
      if (!m_record.panel) m_recordTarget = std::make_unique<OffscreenTarget>(w, h);
      m_recordStatus.clear();
      std::cerr << m_program << ": recording " << m_record.path << " (" << w << "x" << h << " at " << m_record.fps
                << " fps)\n";
    } catch (const std::exception& e) {
      m_recordStatus = e.what();
      m_recordFailed = true;
      std::cerr << m_program << ": error: " << e.what() << "\n";
    }
  }

  void stopRecording() {
    if (!m_recorder) return;
    try {
      m_recorder->finish();
      m_recordStatus = "wrote " + m_recorder->path() + " (" + std::to_string(m_recorder->frames()) + " frames)";
      std::cerr << m_program << ": wrote " << m_recorder->path() << " (" << m_recorder->frames() << " frames, "
                << m_recorder->width() << "x" << m_recorder->height() << " at " << m_recorder->fps() << " fps)\n";
    } catch (const std::exception& e) {
      m_recordStatus = e.what();
      m_recordFailed = true;
      std::cerr << m_program << ": error: " << e.what() << "\n";
    }
    m_recorder.reset();
    m_recordTarget.reset();
    // The next clip from the panel gets a new name.
    if (m_record.path.rfind(m_program + "-", 0) == 0) {
      m_record.path = m_program + "-" + std::to_string(++m_clips + 1) + m_record.path.substr(m_record.path.find_last_of('.'));
      copyText(m_recordPath, sizeof m_recordPath, m_record.path);
    }
  }

  void recordFailed(const std::exception& e) {
    m_recordStatus = e.what();
    m_recordFailed = true;
    std::cerr << m_program << ": error: " << e.what() << "\n";
    m_recorder.reset();
    m_recordTarget.reset();
  }

  /// The simulation view alone, rendered again at the clip's size.
  void recordView() {
    try {
      m_recordTarget->bind();
      m_demo->render(m_recordTarget->width(), m_recordTarget->height());
      const Image frame = readFramebuffer(m_recordTarget->framebuffer(), m_recordTarget->width(), m_recordTarget->height());
      glBindFramebuffer(GL_FRAMEBUFFER, 0);
      m_recorder->addFrame(frame);
    } catch (const std::exception& e) {
      glBindFramebuffer(GL_FRAMEBUFFER, 0);
      recordFailed(e);
    }
  }

  /// The window as shown, panel included.
  void recordWindow(int width, int height) {
    try {
      m_recorder->addFrame(readFramebuffer(0, width, height));
    } catch (const std::exception& e) {
      recordFailed(e);
    }
  }

  void recordingSection() {
    if (!section("recording", false)) return;
    if (findFfmpeg().empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.4f, 0.35f, 1.0f));
      wrappedText(ffmpegMissingMessage());
      ImGui::PopStyleColor();
      return;
    }
    if (m_recorder) {
      wrappedText("recording " + m_recorder->path() + ": " + std::to_string(m_recorder->frames()) + " frames (" +
                  std::to_string(m_recorder->width()) + "x" + std::to_string(m_recorder->height()) + ", one per step)");
      if (ImGui::Button("stop recording (V)")) stopRecording();
    } else {
      ImGui::InputText("file (.mp4 .webm .gif)", m_recordPath, sizeof m_recordPath);
      checkLastItem("file (.mp4 .webm .gif)");
      m_record.path = m_recordPath;
      ImGui::InputInt("frames per second", &m_record.fps);
      checkLastItem("frames per second");
      m_record.fps = std::clamp(m_record.fps, 1, 240);
      int size[2] = {m_record.width, m_record.height};
      ImGui::InputInt2("frame size (0: view)", size);
      checkLastItem("frame size (0: view)");
      m_record.width = std::clamp(size[0], 0, 8192);
      m_record.height = std::clamp(size[1], 0, 8192);
      ImGui::Checkbox("include the panel", &m_record.panel);
      if (ImGui::Button("start recording (V)")) startRecording();
      ImGui::SameLine();
      ImGui::TextDisabled("one frame per step");
    }
    statusText(m_recordStatus, m_recordFailed);
  }
#endif

  AppInfo m_info;
  AppOptions m_options;
  std::string m_program;
  Panel m_panel;
  std::unique_ptr<Window> m_window;
  std::optional<RunContext> m_context;
  std::unique_ptr<Demo> m_demo;
  ShellControls m_controls;
  std::optional<HealthWatch> m_watch;
  double m_stepMs = 0;
  int m_screenshots = 0;
  long long m_frames = 0;
  bool m_stepOnce = false;
  Clock::time_point m_lastFrame;

  // Presets and dropped files.
  std::vector<Preset> m_shipped;
  char m_presetPath[512] = {};
  std::string m_presetStatus;
  bool m_presetStatusIsError = false, m_dropFailed = false;
  std::vector<std::string> m_presetProblems;

#ifndef __EMSCRIPTEN__
  // Recording.
  RecordOptions m_record;
  char m_recordPath[512] = {};
  std::string m_recordStatus;
  bool m_recordFailed = false, m_recordFromCommandLine = false;
  int m_clips = 0;
  std::unique_ptr<Recorder> m_recorder;
  std::unique_ptr<OffscreenTarget> m_recordTarget;
#endif
};


#ifdef __EMSCRIPTEN__
/// The browser's main loop: one frame per animation frame, with the canvas sized to the
/// element the page gives it. A run ends (a scripted --steps run done, or a failure) by
/// exiting the program with its exit code, which the page shows as the verdict
/// (web/texstream-page.js); the last frame stays on the canvas.
void browserFrame(void* arg) {
  auto* run = static_cast<WindowedRun*>(arg);
  int rc = 0;
  try {
    run->window().fitToPage();
    if (run->frame()) return;
    rc = run->finish();
  } catch (const std::exception& e) {
    std::cerr << "texstream: error: " << e.what() << "\n";
    rc = 1;
  }
  emscripten_cancel_main_loop();
  emscripten_force_exit(rc);
}

int runInBrowser(const AppInfo& info, const AppOptions& options, const DemoFactory& make) {
  // The run lives as long as the page: main never returns once the loop is set (the
  // browser calls browserFrame), and the page ends with the program.
  auto* run = new WindowedRun(info, options, make);
  emscripten_set_main_loop_arg(&browserFrame, run, 0, true);
  return 0;  // not reached: the browser owns the loop from here
}
#else
int runWindowed(const AppInfo& info, const AppOptions& options, const DemoFactory& make) {
  WindowedRun run(info, options, make);
  while (run.frame()) {
  }
  return run.finish();
}
#endif

}  // namespace

std::vector<std::string> Demo::loadSettings(const nlohmann::json& /*values*/, const std::string& source) {
  throw std::runtime_error(source + ": this demo has no presets");
}

FileResult Demo::openFile(const std::string& path) {
  return {false, path + ": this demo opens no files", ""};
}

FileResult Demo::saveResult(const std::string& /*folder*/) { return {false, "this demo has no result to save", ""}; }

int runDemo(const AppInfo& appInfo, const AppOptions& options, const DemoFactory& make) {
  const std::string program = "texstream-" + appInfo.name;
  AppInfo info = appInfo;
  if (options.window.width > 0) {
    info.windowWidth = options.window.width;
    info.windowHeight = options.window.height;
  }
  try {
#ifdef __EMSCRIPTEN__
    if (options.headless) throw UsageError("--headless: a page always draws into its canvas");
    return runInBrowser(info, options, make);
#else
    bool headless = options.headless;
    if (!headless && !haveDisplay()) {
      std::cerr << program << ": no DISPLAY, running headless\n";
      headless = true;
    }
    return headless ? runHeadless(info, options, make) : runWindowed(info, options, make);
#endif
  } catch (const UsageError& e) {
    std::cerr << program << ": " << e.what() << "\n";
    return kUsageExitCode;
  } catch (const ContextRequestError& e) {
    std::cerr << program << ": " << e.what() << "\n";
    return kContextExitCode;
  } catch (const std::exception& e) {
    std::cerr << program << ": error: " << e.what() << "\n";
    return 1;
  }
}

void writeJsonFile(const std::string& path, const nlohmann::json& report) {
  std::ofstream out(path);
  if (!out) throw std::runtime_error("writeJsonFile(\"" + path + "\"): cannot open the file for writing");
  out << report.dump(2) << "\n";
  if (!out) throw std::runtime_error("writeJsonFile(\"" + path + "\"): write failed");
}

void backendPanel() {
  stream::Runtime& rt = stream::Runtime::current();
  const gl::Capabilities& caps = rt.caps();
  ImGui::TextWrapped("%s: %s", caps.apiName().c_str(), caps.renderer.c_str());
  int backend = rt.defaultBackend() == stream::Backend::Compute ? 1 : 0;
  if (caps.compute) {
    if (ImGui::Combo("backend", &backend, "fragment (render to texture)\0compute (imageStore)\0")) {
      rt.setDefaultBackend(backend == 1 ? stream::Backend::Compute : stream::Backend::Fragment);
      g_backendChosenByAuto = false;
    }
    if (g_backendChosenByAuto) ImGui::TextDisabled("auto chose compute: this context has compute shaders");
  } else {
    ImGui::Text("backend: fragment");
    ImGui::TextDisabled("no compute shaders in %s (OpenGL 4.3 or ES 3.1 needed)", caps.apiName().c_str());
  }
}

void profilerPanel() {
  stream::Profiler& profiler = stream::Runtime::current().profiler();
  if (!stream::Profiler::available()) {
    ImGui::TextDisabled("%s", stream::Profiler::unavailableReason().c_str());
    return;
  }
  bool on = profiler.enabled();
  if (ImGui::Checkbox("GPU timers", &on)) {
    profiler.setEnabled(on);
    profiler.reset();
  }
  if (!on) return;
  ImGui::SameLine();
  if (ImGui::SmallButton("reset")) profiler.reset();
  if (ImGui::BeginTable("passes", 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp)) {
    // The numbers take what they need; the pass names (the longest text) the rest.
    const float number = ImGui::CalcTextSize("0000.0000").x;
    ImGui::TableSetupColumn("pass", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("frame ms", ImGuiTableColumnFlags_WidthFixed, number);
    ImGui::TableSetupColumn("mean ms", ImGuiTableColumnFlags_WidthFixed, number);
    ImGui::TableSetupColumn("passes", ImGuiTableColumnFlags_WidthFixed, ImGui::CalcTextSize("passes").x);
    ImGui::TableHeadersRow();
    // Most expensive first.
    std::vector<std::pair<std::string, stream::Profiler::Stat>> rows(profiler.stats().begin(), profiler.stats().end());
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.totalMs > b.second.totalMs; });
    for (const auto& [label, s] : rows) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      // A label wider than its column loses its middle (the object's name; the operation at
      // its end stays), the whole of it in a tooltip.
      const float room = ImGui::GetContentRegionAvail().x;
      std::string shown = label;
      for (std::size_t keep = label.size(); keep > 0 && ImGui::CalcTextSize(shown.c_str()).x > room;) {
        --keep;
        const std::size_t head = 2 * keep / 5;
        shown = label.substr(0, head) + "..." + label.substr(label.size() - (keep - head));
      }
      ImGui::TextUnformatted(shown.c_str());
      if (shown != label && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", label.c_str());
      checkLastItem(label);
      ImGui::TableNextColumn();
      ImGui::Text("%.3f", s.lastMs);
      ImGui::TableNextColumn();
      ImGui::Text("%.4f", s.passes > 0 ? s.totalMs / double(s.passes) : 0.0);
      ImGui::TableNextColumn();
      ImGui::Text("%lld", s.passes);
    }
    ImGui::EndTable();
  }
}

}  // namespace texstream::app
