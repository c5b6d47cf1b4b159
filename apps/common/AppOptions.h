#pragma once
// The command line every texstream demo shares (CLI11):
//   --headless  --gl VERSION  --backend auto|fragment|compute  --size N|WxH  --steps N
//   --screenshot PATH.png  --json PATH  --profile  --help
// --gl and --backend default to TEXSTREAM_GL and TEXSTREAM_BACKEND when those are set; the
// demos add more (DemoCommandLine.h). Apps add their own options to cli() before parse().
// Every bad value is reported as
//   texstream-wave: --size: invalid value "0x3": width must be in [2, 16384]
// and the program exits with kUsageExitCode (2).
#include <texstream/gl/GlRequest.h>
#include <texstream/stream/Backend.h>
#include <texstream/stream/EnumNames.h>
#include <texstream/text/Format.h>

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace texstream::app {

/// Exit code of a program given a bad command line (or a value the machine cannot run).
inline constexpr int kUsageExitCode = 2;

/// A bad command-line value. The message names the option and the value.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct GridSize {
  int width = 0, height = 0;
  bool operator==(const GridSize&) const = default;
};

/// "256" -> 256 x 256, "320x200" -> 320 x 200; each side in [minSide, maxSide].
/// Throws UsageError naming `option` and `text`.
GridSize parseGridSize(std::string_view option, std::string_view text, int minSide, int maxSide);
/// A whole number in [min, max]; throws UsageError naming `option` and `text`.
long long parseInteger(std::string_view option, std::string_view text, long long min, long long max);
/// A finite number in (min, max] (or [min, max] when minInclusive); throws UsageError.
double parseReal(std::string_view option, std::string_view text, double min, double max, bool minInclusive);
/// One of `choices` (case-insensitive), returned in lower case; throws UsageError listing them.
std::string parseChoice(std::string_view option, std::string_view text, std::initializer_list<const char*> choices);

/// One of an enum's names (stream/EnumNames.h, case-insensitive); throws UsageError listing
/// them: "--scene: invalid value "lake": expected one of smoke|channel|cavity|obstacles".
template <class E>
E parseNamed(std::string_view option, std::string_view text, std::span<const stream::EnumName<E>> table) {
  if (auto value = stream::findByName(table, text)) return *value;
  throw UsageError(std::string(option) + ": invalid value " + text::quotedToken(text) + ": expected one of " +
                   stream::nameList(table, "|"));
}

/// "mg (multigrid), CG (Jacobi-preconditioned), Jacobi": an enum's names with their panel
/// labels, for --help.
template <class E>
std::string namedHelp(std::span<const stream::EnumName<E>> table) {
  std::string out;
  for (const stream::EnumName<E>& e : table) {
    // A label that begins with the name already shows it: "channel (Bolz fig. 5)".
    const std::string name = e.name, label = e.label;
    const bool labelShowsName = label.size() >= name.size() &&
                                std::equal(name.begin(), name.end(), label.begin(), [](char a, char b) {
                                  return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
                                });
    out += (out.empty() ? "" : ", ") + (labelShowsName ? label : name + " (" + label + ")");
  }
  return out;
}

/// What a recording writes and how (Recorder.h): --record PATH, --record-fps, --record-size,
/// --record-panel.
struct RecordOptions {
  std::string path;           ///< .mp4, .webm or .gif ("" = no recording)
  int fps = 30;               ///< frames per second of the clip (one frame per simulation step)
  int width = 0, height = 0;  ///< clip size (0: the window's, or the headless frame's)
  bool panel = false;         ///< the whole window with the panel, instead of the simulation view
};

/// The shared options, after validation.
struct AppOptions {
  bool headless = false;
  bool profile = false;     ///< per-pass GPU timers from the start (GUI table, JSON "gpu_passes")
  bool glDebug = false;     ///< KHR_debug output with object labels (as TEXSTREAM_GL_DEBUG=1)
  /// The backend asked for; nullopt is auto (compute where the context has it, else fragment).
  std::optional<stream::Backend> backend{};
  /// The context asked for (--gl, TEXSTREAM_GL); nullopt: the highest desktop core.
  std::optional<gl::GlRequest> gl{};
  GridSize size{256, 256};
  int steps = -1;           ///< -1: not given (windowed: run until closed; headless: defaultSteps)
  std::string screenshot{}; ///< PNG to write after the run ("" = none)
  std::string json{};       ///< JSON report to write after the run ("" = none)
  int defaultSteps = 100;   ///< headless runs without --steps
  int maxSide = 16384;      ///< upper bound of --size before a context exists (then the GL limit)
  // The demos' options (DemoCommandLine.h).
  GridSize window{0, 0};    ///< --window: window (and headless frame) size; 0: the app's
  std::string preset{};     ///< --preset as given ("" = none; already applied to the settings)
  std::string savePreset{}; ///< --save-preset: the final settings as a preset ("" = none)
  RecordOptions record{};   ///< --record ...
  std::vector<std::string> drops{};  ///< --drop: files opened as if dropped onto the window
  bool checkPanel = false;  ///< --check-panel: fail the run on panel text that is clipped
};



/// Wraps a CLI::App holding the shared options; apps add theirs through cli().
class CommandLine {
 public:
  CommandLine(std::string program, std::string description, AppOptions defaults);

  CLI::App& cli() { return m_cli; }
  const std::string& program() const { return m_program; }

  /// Parses and validates. Returns an exit code when the program should stop now (0 after
  /// --help, kUsageExitCode after a bad value, with the message on stderr), else nullopt.
  /// `validateExtra` validates the app's own options and throws UsageError.
  std::optional<int> parse(int argc, char** argv, const std::function<void()>& validateExtra = {});

  const AppOptions& options() const { return m_options; }

 private:
  std::string m_program;
  AppOptions m_options;
  CLI::App m_cli;
  std::string m_backendText = "auto", m_glText, m_sizeText, m_stepsText;
  std::string m_backendFromEnvironment, m_glFromEnvironment;  ///< TEXSTREAM_BACKEND / TEXSTREAM_GL

 protected:
  AppOptions& mutableOptions() { return m_options; }
};

}  // namespace texstream::app
