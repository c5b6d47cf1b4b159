// libFuzzer target: the URL parameters of the browser pages. The page shell
// (web/texstream-page.js, argumentsFromUrl) turns ?scene=channel&particles into the
// program's command line (--scene channel --particles); this target does the same with
// the input as the query string (URLSearchParams's splitting and decoding) and hands it to
// each demo's DemoCommandLine (fluid, fluid3d, wave, smooth) with its settings table, as their main
// does. parse may only return an exit code or nullopt: a bad value is a message and exit
// code 2, never an exception.
#include "FuzzTarget.h"

#include "DemoCommandLine.h"
#include "Fluid3DSettings.h"
#include "FluidSettings.h"
#include "Settings.h"
#include "SmoothSettings.h"
#include "WaveSettings.h"

#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace texstream;

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// application/x-www-form-urlencoded decoding: '+' is a space, %XY a byte, a '%' without
/// two hex digits stays.
std::string decode(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out += ' ';
    } else if (s[i] == '%' && i + 2 < s.size() && hexValue(s[i + 1]) >= 0 && hexValue(s[i + 2]) >= 0) {
      out += char(hexValue(s[i + 1]) * 16 + hexValue(s[i + 2]));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

/// The command line argumentsFromUrl makes of `query` (the page's own parameters left out).
std::vector<std::string> argumentsFromUrl(std::string_view query) {
  if (!query.empty() && query.front() == '?') query.remove_prefix(1);
  std::vector<std::string> args;
  while (!query.empty()) {
    const std::size_t amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
    if (pair.empty()) continue;
    const std::size_t eq = pair.find('=');
    const std::string key = decode(pair.substr(0, eq));
    const std::string value = eq == std::string_view::npos ? std::string() : decode(pair.substr(eq + 1));
    if (key == "hide-webgl-extensions" || key == "disable-features" || key == "max-texture-size") continue;
    args.push_back("--" + key);
    if (!value.empty()) args.push_back(value);
  }
  return args;
}

template <class S, class Describe>
void parse(const std::vector<std::string>& args, const char* program, Describe describe) {
  std::vector<std::string> owned{program};
  owned.insert(owned.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : owned) argv.push_back(a.data());
  argv.push_back(nullptr);
  S settings;
  app::SettingTable table;
  describe(table, settings);
  app::DemoCommandLine cmd(program, program, app::AppOptions{});
  cmd.settings(table);
  fuzz::expectOnly<fuzz::NoException>([&] { cmd.parse(int(owned.size()), argv.data()); });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::string> args = argumentsFromUrl(fuzz::bytes(data, size));
  parse<app::FluidSettings>(args, "texstream-fluid", app::describeFluidSettings);
  parse<app::Fluid3DSettings>(args, "texstream-fluid3d", app::describeFluid3DSettings);
  parse<app::WaveSettings>(args, "texstream-wave", app::describeWaveSettings);
  parse<app::SmoothSettings>(args, "texstream-smooth", app::describeSmoothSettings);
  return 0;
}
