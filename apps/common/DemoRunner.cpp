#include "DemoRunner.h"

#include "Screenshot.h"

#include <texstream/gl/Error.h>
#ifndef __EMSCRIPTEN__
#include <texstream/gl/HeadlessContext.h>
#endif
#include <texstream/stream/Profiler.h>
#include <texstream/stream/Runtime.h>

#include <glad/gl.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
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
                              ", and its solvers need 32-bit floats (only the fluid demo runs there, on half floats: " +
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

#ifndef __EMSCRIPTEN__
int runHeadless(const AppInfo& info, const AppOptions& options, const DemoFactory& make) {
  std::unique_ptr<gl::HeadlessContext> context;
  try {
    context = std::make_unique<gl::HeadlessContext>(gl::HeadlessOptions{-1, options.gl, false});
  } catch (const gl::Error& e) {
    throw ContextRequestError(contextFailure(options, e.what()));
  }
  RunContext ctx = prepareContext(info, options, true);
  std::cerr << "texstream-" << info.name << ": headless, " << ctx.renderer << " (" << context->description()
            << "), " << stream::backendName(stream::Runtime::current().defaultBackend()) << " backend"
            << (options.backend ? "" : " (auto)") << "\n";

  std::unique_ptr<Demo> demo = make(ctx);
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
      if (watch.afterStep(*demo, done)) break;
    }
    if (!watch.blowUp()) watch.checkNow(*demo, done);
  }

  if (!options.screenshot.empty()) {
    OffscreenTarget target(info.windowWidth, info.windowHeight);
    target.bind();
    demo->render(target.width(), target.height());
    writePng(options.screenshot, readFramebuffer(target.framebuffer(), target.width(), target.height()));
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    std::cerr << "texstream-" << info.name << ": wrote " << options.screenshot << "\n";
  }
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

/// A run in a window (GLFW on the desktop, the page's canvas in the browser): the window,
/// the demo and the shell's state, one frame() per displayed frame. The native loop calls
/// frame() until it returns false; the browser calls it once per animation frame. It keeps
/// its own copies of the run's description, so that it may outlive the caller's stack.
class WindowedRun {
 public:
  WindowedRun(const AppInfo& info, const AppOptions& options, const DemoFactory& make)
      : m_info(info), m_options(options) {
    try {
      m_window = std::make_unique<Window>(info.title, info.windowWidth, info.windowHeight, options.gl);
    } catch (const WindowContextError& e) {
      throw ContextRequestError(contextFailure(options, e.what()));
    }
    m_context.emplace(prepareContext(m_info, m_options, false));
    std::cerr << "texstream-" << info.name << ": " << m_context->renderer << " (" << m_window->description() << "), "
              << stream::backendName(stream::Runtime::current().defaultBackend()) << " backend"
              << (options.backend ? "" : " (auto)") << "\n";
    m_demo = make(*m_context);
    stream::Runtime::current().profiler().setEnabled(options.profile);
    m_watch.emplace();  // GPU objects: only once the context exists
    m_controls.blowUp = m_watch->checkNow(*m_demo, 0);
    m_lastFrame = Clock::now();
#ifdef __EMSCRIPTEN__
    attachToPage(*m_window, *m_demo, [this](const std::string& path) { writeReport(path); });
#endif
  }

  ~WindowedRun() {
#ifdef __EMSCRIPTEN__
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
    if (!window.guiWantsMouse()) m_demo->mouse(window.mouse());

    // A scripted run (--steps) ends at a blow-up; an interactive one pauses on it until
    // the panel's reset.
    const long long target = m_options.steps;  // -1: until closed
    const bool done = target >= 0 && m_controls.steps >= target;
    if (!m_controls.paused && !done && !m_controls.blowUp) {
      const double ms = timedStep(*m_demo);
      m_stepMs += ms;
      ++m_controls.steps;
      m_controls.msPerStep = m_stepMs / double(m_controls.steps);
      m_controls.msPerStepRecent = m_controls.steps == 1 ? ms : 0.95 * m_controls.msPerStepRecent + 0.05 * ms;
      m_controls.blowUp = m_watch->afterStep(*m_demo, m_controls.steps);
      if (m_controls.blowUp) {
        m_controls.paused = true;
        std::cerr << "texstream-" << m_info.name << ": " << describe(*m_controls.blowUp) << "\n";
      }
    }

    const int w = window.framebufferWidth(), h = window.framebufferHeight();
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, w, h);
    if (w > 0 && h > 0) m_demo->render(w, h);
    m_demo->gui(m_controls);
    blowUpPanel(*m_demo, *m_watch, m_controls);
    window.renderGui();
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
      std::cerr << "texstream-" << m_info.name << ": wrote " << path << "\n";
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

  /// Checks the final state of a scripted run and writes the JSON report; returns the
  /// run's exit code.
  int finish() {
    // A scripted run that ended unwatched since its last check gets the final state checked.
    if (m_options.steps >= 0 && !m_controls.blowUp) m_controls.blowUp = m_watch->checkNow(*m_demo, m_controls.steps);
    return ::texstream::app::finish(m_info, m_options, *m_context, *m_demo, m_controls.steps, m_stepMs,
                                    m_controls.blowUp);
  }

  /// The JSON report of the run so far, written to `path` while it goes on.
  void writeReport(const std::string& path) {
    nlohmann::json j = commonReport(m_info, m_options, *m_context, m_controls.steps, m_stepMs);
    m_demo->report(j);
    if (m_controls.blowUp) j["blew_up"] = {{"step", m_controls.blowUp->step}, {"reason", m_controls.blowUp->reason}};
    writeJsonFile(path, j);
  }

 private:
  AppInfo m_info;
  AppOptions m_options;
  std::unique_ptr<Window> m_window;
  std::optional<RunContext> m_context;
  std::unique_ptr<Demo> m_demo;
  ShellControls m_controls;
  std::optional<HealthWatch> m_watch;
  double m_stepMs = 0;
  int m_screenshots = 0;
  long long m_frames = 0;
  Clock::time_point m_lastFrame;
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

FileResult Demo::openFile(const std::string& path) {
  return {false, path + ": this demo opens no files", ""};
}

FileResult Demo::saveResult(const std::string& /*folder*/) { return {false, "this demo has no result to save", ""}; }

int runDemo(const AppInfo& info, const AppOptions& options, const DemoFactory& make) {
  const std::string program = "texstream-" + info.name;
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
    ImGui::TableSetupColumn("pass", ImGuiTableColumnFlags_WidthStretch, 3.0f);
    ImGui::TableSetupColumn("frame ms", ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableSetupColumn("mean ms", ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableSetupColumn("passes", ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableHeadersRow();
    // Most expensive first.
    std::vector<std::pair<std::string, stream::Profiler::Stat>> rows(profiler.stats().begin(), profiler.stats().end());
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second.totalMs > b.second.totalMs; });
    for (const auto& [label, s] : rows) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(label.c_str());
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
