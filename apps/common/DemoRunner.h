#pragma once
// The shell every demo runs in. A demo is a Demo (step, render, GUI, mouse, report); the
// runner makes the context and drives it:
//  - windowed (a GLFW window + Dear ImGui): steps once per frame until the window closes,
//    or, with --steps N, until N steps are done; then writes --screenshot and --json. The
//    panel (Panel.h) is a sidebar on the left, the simulation view the rest of the window;
//    the shell adds the shared keys (KeyBindings.h), the presets and recording sections,
//    and opens files dropped onto the window (a .json preset: Demo::loadSettings; any
//    other file: Demo::openFile);
//  - headless (--headless, or no DISPLAY): an EGL context (texstream::gl::HeadlessContext),
//    --steps steps, then one frame rendered into an offscreen framebuffer for --screenshot,
//    and the --json report.
// The JSON report always holds app, backend, size, steps, renderer, gl_version, gl_api
// ("OpenGL ES 3.0", "OpenGL 4.1 core"), headless
// and ms_per_step (wall time of step() including its GPU work), with --profile also
// gpu_passes {label: {passes, total_ms, mean_ms}}; the demo adds the rest.
// Every run is watched for blow-ups (HealthWatch.h) through the demo's health measure:
// headless, or windowed with --steps, a blow-up stops the run, is reported on stderr and
// in the JSON as "blew_up": {"step": N, "reason": "..."}, and the program exits 1;
// windowed without --steps the simulation pauses and a panel shows the step and offers
// reset.
#include "AppOptions.h"
#include "HealthWatch.h"
#include "KeyBindings.h"
#include "Panel.h"
#include "Window.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace texstream::app {

/// What the demo learns about the run when it is created (its context is current).
struct RunContext {
  const AppOptions& options;
  bool headless = false;
  std::string renderer;  ///< texstream's capability summary of the context
  int maxTextureSize = 0;
};

/// What became of a file handed to a demo (Demo::openFile, Demo::saveResult).
struct FileResult {
  bool ok = false;
  std::string message;  ///< "loaded bunny.obj: 2503 vertices" or "bunny.txt: unknown mesh format ..."
  std::string path;     ///< saveResult: the file written
};

/// Shell state a demo's GUI may show and change.
struct ShellControls {
  bool paused = false;
  bool screenshotRequested = false;  ///< set by a button; the shell writes the next frame
  std::string lastScreenshot;        ///< path of the last screenshot written ("" = none)
  long long steps = 0;               ///< steps done so far
  double msPerStep = 0;              ///< running average of step() wall time
  double msPerStepRecent = 0;        ///< the same over the last few dozen steps
  double fps = 0;
  std::optional<BlowUp> blowUp;      ///< set by the shell's watch; the simulation is paused
  ViewRect view;                     ///< the simulation view in the window (overlays go there)
};

class Demo {
 public:
  virtual ~Demo() = default;
  /// Advances the simulation by one step.
  virtual void step() = 0;
  /// Draws the scene into the bound framebuffer's viewport, which is width x height (its
  /// origin need not be (0, 0): glGetIntegerv(GL_VIEWPORT) has it). The scissor box may
  /// limit clears to the view.
  virtual void render(int width, int height) = 0;
  /// Dear ImGui widgets inside the shell's panel window (windowed runs, once per frame);
  /// section() (Panel.h) gives remembered collapsible parts.
  virtual void gui(ShellControls& /*controls*/) {}
  /// The demo's own keys and what it draws over the view with Dear ImGui (a legend), every
  /// windowed frame, whether or not the panel shows.
  virtual void overlay(ShellControls& /*controls*/) {}
  /// Mouse input Dear ImGui did not take (windowed runs, once per frame).
  virtual void mouse(const MouseInput& /*input*/) {}
  /// Adds the demo's fields to the JSON report (may replace the common ones, e.g. "size").
  virtual void report(nlohmann::json& /*out*/) const {}
  /// Enqueues into out.x a GPU measure of the current state for the blow-up watch, with
  /// no read-back: NaN or Inf when the state holds NaN or Inf (a stream::dot or
  /// stream::sum over the state propagates them) and growing with a runaway state.
  /// Returns what it measures and the healthy range now (limit, and floor where a state
  /// can collapse); where it returns `unavailable`, it enqueues nothing.
  virtual HealthMeasure measureHealth(stream::Scalar& out) = 0;
  /// Back to the initial state (the panel's reset after a blow-up, the R key).
  virtual void restart() = 0;
  /// Whether the demo has presets (a settings table: saveSettings, loadSettings).
  virtual bool hasPresets() const { return false; }
  /// The demo's settings (Settings.h) as a preset's values: the live state.
  virtual nlohmann::ordered_json saveSettings() { return nlohmann::ordered_json::object(); }
  /// Loads a preset's values over the defaults and applies them (rebuilding what they
  /// change); returns the problems, one line each naming the key (Settings.h), the rest
  /// applied. Throws std::runtime_error when the result cannot run (the previous settings
  /// stay).
  virtual std::vector<std::string> loadSettings(const nlohmann::json& values, const std::string& source);
  /// A file the user hands over that is not a preset (.json, which the shell loads through
  /// loadSettings): dropped onto the window (GLFW) or the page, or chosen with the page's
  /// file picker (the browser writes it into its in-memory file system first). The demo
  /// loads what it accepts and keeps what it had otherwise; the result says which, in one
  /// line naming the file and what is wrong.
  virtual FileResult openFile(const std::string& path);
  /// Writes the demo's result as a file into `folder` (the smoothed mesh as OBJ) and
  /// returns its path, or a message saying why there is none.
  virtual FileResult saveResult(const std::string& folder);
};

/// The exit codes of the demos, for their --help.
inline constexpr const char* kDemoExitStatus =
    "Exit status: 0 done; 1 the run failed (message on stderr) or blew up (NaN/Inf or a runaway state: stderr "
    "names the step, the JSON holds \"blew_up\": {\"step\", \"reason\"}); 2 bad command line (the option and the "
    "value), or a value this GPU cannot run (--size beyond its texture limit, --backend compute without compute "
    "shaders); 3 the OpenGL context asked for (--gl) cannot be had, or cannot run texstream (no RGBA32F render "
    "targets).";

struct AppInfo {
  std::string name{};   ///< "wave": the JSON "app" field and screenshot file names
  std::string title{};  ///< window title
  int windowWidth = 1280, windowHeight = 800;  ///< also the offscreen size of headless runs
  std::span<const Binding> bindings{};  ///< the demo's own keys and mouse (the panel's "?")
  /// The demo runs on contexts with half-float render targets only (the fluid's RGBA16F
  /// mode); the others refuse them, naming the missing extension (exit kContextExitCode).
  bool runsOnHalfFloatTargets = false;
  /// What of the demo needs RGBA32F render targets, named in its refusal of a half-float-only
  /// context ("" says only that its solvers need 32-bit floats).
  std::string needsFloatTargets = "";
};

using DemoFactory = std::function<std::unique_ptr<Demo>(const RunContext&)>;

/// Exit code when the driver cannot give the context --gl asked for, or the context cannot
/// run texstream.
inline constexpr int kContextExitCode = 3;

/// Runs the demo; returns the process exit code (kDemoExitStatus): 0, kUsageExitCode for a
/// bad value found only once the context exists (a size beyond its texture limit,
/// --backend compute on a context without compute shaders), kContextExitCode when the
/// context asked for cannot be had or cannot run texstream, 1 for a blow-up or any other
/// failure (message on stderr).
int runDemo(const AppInfo& info, const AppOptions& options, const DemoFactory& make);

/// Writes `report` to `path` (pretty-printed); throws std::runtime_error naming the path.
void writeJsonFile(const std::string& path, const nlohmann::json& report);

/// A table of per-pass GPU times from texstream's profiler, with an on/off checkbox, or the
/// reason there are no GPU timers on this context (Dear ImGui; call inside a window).
void profilerPanel();

/// The context ("OpenGL ES 3.0") and the backend in effect, which auto chose when the
/// command line did not name one, with a combo to switch where compute exists.
void backendPanel();

}  // namespace texstream::app
