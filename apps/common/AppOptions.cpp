#include "AppOptions.h"

#include "MainGuard.h"
#include "OutputPath.h"

#include <texstream/text/FloatChars.h>
#include <texstream/text/Format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <sstream>

namespace texstream::app {

namespace {

[[noreturn]] void fail(std::string_view option, std::string_view text, const std::string& why) {
  throw UsageError(std::string(option) + ": invalid value " + text::quotedToken(text) + ": " + why);
}

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return out;
}

}  // namespace

long long parseInteger(std::string_view option, std::string_view text, long long min, long long max) {
  long long value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec == std::errc::result_out_of_range)
    fail(option, text, "expected a whole number in [" + std::to_string(min) + ", " + std::to_string(max) + "]");
  if (ec != std::errc() || ptr != end) fail(option, text, "not a whole number");
  if (value < min || value > max)
    fail(option, text, "must be in [" + std::to_string(min) + ", " + std::to_string(max) + "]");
  return value;
}

double parseReal(std::string_view option, std::string_view text, double min, double max, bool minInclusive) {
  double value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = text::fromChars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) fail(option, text, "not a number");
  std::ostringstream range;
  range << (minInclusive ? "[" : "(") << min << ", " << max << "]";
  if (!std::isfinite(value)) fail(option, text, "must be finite, in " + range.str());
  if (value < min || (!minInclusive && value == min) || value > max) fail(option, text, "must be in " + range.str());
  return value;
}

GridSize parseGridSize(std::string_view option, std::string_view text, int minSide, int maxSide) {
  const std::string expected = "expected N or WxH (e.g. 256 or 320x200)";
  const auto x = text.find_first_of("xX");
  std::string_view ws = x == std::string_view::npos ? text : text.substr(0, x);
  std::string_view hs = x == std::string_view::npos ? text : text.substr(x + 1);
  auto side = [&](std::string_view s, const char* which) {
    int v = 0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec == std::errc::invalid_argument || ptr != s.data() + s.size()) fail(option, text, expected);
    if (ec == std::errc::result_out_of_range || v < minSide || v > maxSide)
      fail(option, text, std::string(which) + " must be in [" + std::to_string(minSide) + ", " + std::to_string(maxSide) + "]");
    return v;
  };
  GridSize g;
  g.width = side(ws, x == std::string_view::npos ? "size" : "width");
  g.height = side(hs, x == std::string_view::npos ? "size" : "height");
  return g;
}

std::string parseChoice(std::string_view option, std::string_view text, std::initializer_list<const char*> choices) {
  const std::string l = lower(text);
  std::string list;
  for (const char* c : choices) {
    if (l == c) return l;
    list += (list.empty() ? "" : "|") + std::string(c);
  }
  fail(option, text, "expected one of " + list);
}

CommandLine::CommandLine(std::string program, std::string description, AppOptions defaults)
    : m_program(std::move(program)), m_options(std::move(defaults)), m_cli(std::move(description), m_program) {
  m_backendText = m_options.backend ? stream::backendName(*m_options.backend) : "auto";
  if (const char* env = std::getenv("TEXSTREAM_BACKEND"); env && *env) m_backendText = m_backendFromEnvironment = env;
  if (const char* env = std::getenv("TEXSTREAM_GL"); env && *env) m_glText = m_glFromEnvironment = env;
  m_sizeText = std::to_string(m_options.size.width) + "x" + std::to_string(m_options.size.height);
  m_cli.add_flag("--headless", m_options.headless,
                 "Run without a window (EGL): simulate --steps, then write --screenshot / --json. "
                 "Automatic when there is no DISPLAY.");
  m_cli.add_option("--backend", m_backendText,
                   "Kernel backend: auto (compute where the context has compute shaders, else fragment), "
                   "fragment (render to texture) or compute (TEXSTREAM_BACKEND)")
      ->type_name("auto|fragment|compute")
      ->capture_default_str();
  m_cli.add_option("--gl", m_glText,
                   std::string("OpenGL context to ask for: ") + gl::GlRequest::accepted() +
                       " (desktop core at a version, or OpenGL ES; default: the highest desktop core; TEXSTREAM_GL)")
      ->type_name("VERSION");
  m_cli.add_option("--size", m_sizeText, "Grid size: N (N x N) or WxH")->type_name("N|WxH")->capture_default_str();
  m_cli.add_option("--steps", m_stepsText,
                   "Simulation steps; then write --screenshot / --json and exit (headless default: " +
                       std::to_string(m_options.defaultSteps) + ")")
      ->type_name("N");
  m_cli.add_flag("--profile", m_options.profile,
                 "Time every pass on the GPU (GL_TIME_ELAPSED); per-pass times go to the GUI and --json");
  m_cli.add_flag("--gl-debug", m_options.glDebug,
                 "Print OpenGL debug messages (KHR_debug) with object names; same as TEXSTREAM_GL_DEBUG=1");
  m_cli.add_option("--screenshot", m_options.screenshot, "Write a PNG of the final frame to this path")->type_name("PATH.png");
  m_cli.add_option("--json", m_options.json, "Write a JSON report of the run to this path")->type_name("PATH");
}

std::optional<int> CommandLine::parse(int argc, char** argv, const std::function<void()>& validateExtra) {
  ReadingInput reading("", "the command line");
  try {
    m_cli.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << m_cli.help();
    return 0;
  } catch (const CLI::CallForAllHelp&) {
    std::cout << m_cli.help("", CLI::AppFormatMode::All);
    return 0;
  } catch (const CLI::ParseError& e) {
    std::cerr << m_program << ": " << e.what() << "\nRun " << m_program << " --help for the options.\n";
    return kUsageExitCode;
  }
  try {
    // A value that came from the environment is reported under its variable's name too.
    const bool backendFromEnvironment = !m_backendFromEnvironment.empty() && m_backendText == m_backendFromEnvironment;
    const bool glFromEnvironment = !m_glFromEnvironment.empty() && m_glText == m_glFromEnvironment;
    const std::string backend = parseChoice(backendFromEnvironment ? "--backend (TEXSTREAM_BACKEND)" : "--backend",
                                            m_backendText, {"auto", "fragment", "compute"});
    m_options.backend = backend == "auto" ? std::nullopt : std::optional<stream::Backend>(stream::parseBackend(backend));
    if (!m_glText.empty()) {
      try {
        m_options.gl = gl::GlRequest::parse(m_glText);
      } catch (const std::exception&) {
        fail(glFromEnvironment ? "--gl (TEXSTREAM_GL)" : "--gl", m_glText,
             std::string("expected one of ") + gl::GlRequest::accepted());
      }
    }
    m_options.size = parseGridSize("--size", m_sizeText, 2, m_options.maxSide);
    if (!m_stepsText.empty()) m_options.steps = int(parseInteger("--steps", m_stepsText, 0, 100000000));
    if (!m_options.screenshot.empty()) {
      const std::string l = lower(m_options.screenshot);
      if (l.size() < 5 || l.substr(l.size() - 4) != ".png")
        throw UsageError("--screenshot: invalid value " + text::quoted(m_options.screenshot) + ": the path must end in .png");
    }
    requireWritablePath("--screenshot", m_options.screenshot);
    requireWritablePath("--json", m_options.json);
    if (validateExtra) validateExtra();
    // Read by the context creation (debug context) and the runtime (debug callback).
    if (m_options.glDebug) setenv("TEXSTREAM_GL_DEBUG", "1", 1);
  } catch (const UsageError& e) {
    std::cerr << m_program << ": " << e.what() << "\n";
    return kUsageExitCode;
  }
  return std::nullopt;
}

}  // namespace texstream::app
