// Checks what a demo wrote after a scripted run:
//   check_app_output [--json FILE] [--app NAME] [--steps N] [--array KEY=LEN]...
//                    [--string KEY]... [--equals KEY=VALUE]... [--blew-up] [--png FILE]
// JSON: parses; "app" equals NAME; "steps" equals N; "size" is [w, h] (a 3D grid's [nx, ny, nz])
// of positive ints;
// "ms_per_step" is a non-negative number; "renderer" and "backend" are non-empty strings;
// each --array KEY holds LEN finite numbers; each --string KEY (a key or a path) is a non-empty string; each
// --equals KEY=VALUE: the value at KEY (a key, or a path such as settings/re) equals VALUE:
// a string equal to VALUE, or another value equal to VALUE read as JSON.
// "blew_up" is absent, or with --blew-up it is {"step": S, "reason": "..."} with
// 0 <= S <= "steps" and a non-empty reason.
// PNG: loads; is not blank (many pixels differ from the corner colour, with spread in
// brightness). Prints what failed and exits 1; exits 0 when everything holds.
#include <nlohmann/json.hpp>

#define STB_IMAGE_IMPLEMENTATION
#if __has_include(<stb/stb_image.h>)
#include <stb/stb_image.h>
#else
#include <stb_image.h>
#endif

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <set>
#include <string>
#include <vector>

namespace {

int g_failures = 0;

void fail(const std::string& what) {
  std::cerr << "check_app_output: FAIL: " << what << "\n";
  ++g_failures;
}

void checkJson(const std::string& path, const std::string& app, long long steps,
               const std::vector<std::pair<std::string, long long>>& arrays, const std::vector<std::string>& strings,
               const std::vector<std::pair<std::string, std::string>>& equals, bool blewUp) {
  std::ifstream in(path);
  if (!in) return fail("cannot open JSON " + path);
  nlohmann::json j;
  try {
    in >> j;
  } catch (const std::exception& e) {
    return fail("JSON " + path + " does not parse: " + e.what());
  }
  auto str = [&](const std::string& key) {
    const nlohmann::json::json_pointer at("/" + key);
    return j.contains(at) && j.at(at).is_string() && !j.at(at).get<std::string>().empty();
  };
  if (!app.empty() && (!str("app") || j["app"] != app)) fail("\"app\" is not \"" + app + "\"");
  if (!str("renderer")) fail("\"renderer\" missing or empty");
  if (!str("backend")) fail("\"backend\" missing or empty");
  for (const std::string& key : strings)
    if (!str(key)) fail("\"" + key + "\" missing or empty");
  for (const auto& [key, value] : equals) {
    const nlohmann::json::json_pointer at("/" + key);
    if (!j.contains(at)) {
      fail("\"" + key + "\" is missing");
      continue;
    }
    const nlohmann::json& actual = j.at(at);
    nlohmann::json expected = value;
    if (!actual.is_string()) {
      expected = nlohmann::json::parse(value, nullptr, false);
      if (expected.is_discarded()) expected = value;
    }
    if (actual != expected) fail("\"" + key + "\" is " + actual.dump() + ", not " + expected.dump());
  }
  if (steps >= 0 && (!j.contains("steps") || !j["steps"].is_number_integer() || j["steps"].get<long long>() != steps))
    fail("\"steps\" is not " + std::to_string(steps));
  bool sizeOk = j.contains("size") && j["size"].is_array() && (j["size"].size() == 2 || j["size"].size() == 3);
  if (sizeOk)
    for (const auto& side : j["size"]) sizeOk = sizeOk && side.is_number_integer() && side.get<int>() > 0;
  if (!sizeOk) fail("\"size\" is not [w, h] or [nx, ny, nz] with positive sides");
  if (!j.contains("ms_per_step") || !j["ms_per_step"].is_number() || !(j["ms_per_step"].get<double>() >= 0))
    fail("\"ms_per_step\" missing or negative");
  if (!blewUp && j.contains("blew_up")) fail("the run blew up: " + j["blew_up"].dump());
  if (blewUp) {
    const nlohmann::json b = j.value("blew_up", nlohmann::json());
    if (!b.is_object() || !b.contains("step") || !b["step"].is_number_integer() || !b.contains("reason") ||
        !b["reason"].is_string() || b["reason"].get<std::string>().empty()) {
      fail("\"blew_up\" is not {\"step\": N, \"reason\": \"...\"}: " + b.dump());
    } else if (b["step"].get<long long>() < 0 || !j["steps"].is_number_integer() ||
               b["step"].get<long long>() > j["steps"].get<long long>()) {
      fail("\"blew_up\" step " + b["step"].dump() + " is not within the run's " + j["steps"].dump() + " steps");
    }
  }
  for (const auto& [key, length] : arrays) {
    if (!j.contains(key) || !j[key].is_array()) {
      fail("\"" + key + "\" missing or not an array");
      continue;
    }
    if (length >= 0 && (long long)j[key].size() != length)
      fail("\"" + key + "\" has " + std::to_string(j[key].size()) + " entries, expected " + std::to_string(length));
    for (const auto& v : j[key])
      if (!v.is_number() || !std::isfinite(v.get<double>())) {
        fail("\"" + key + "\" holds a non-finite or non-numeric entry");
        break;
      }
  }
}

void checkPng(const std::string& path) {
  int w = 0, h = 0, channels = 0;
  unsigned char* pixels = stbi_load(path.c_str(), &w, &h, &channels, 3);
  if (!pixels) return fail("cannot load PNG " + path + ": " + stbi_failure_reason());
  const std::size_t n = std::size_t(w) * std::size_t(h);
  std::size_t differing = 0;
  std::set<int> colours;
  double sum = 0, sum2 = 0;
  const unsigned char* corner = pixels;
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned char* p = pixels + 3 * i;
    if (std::abs(p[0] - corner[0]) + std::abs(p[1] - corner[1]) + std::abs(p[2] - corner[2]) > 12) ++differing;
    colours.insert((p[0] << 16) | (p[1] << 8) | p[2]);
    const double lum = 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2];
    sum += lum;
    sum2 += lum * lum;
  }
  stbi_image_free(pixels);
  const double mean = sum / double(n), stddev = std::sqrt(std::max(0.0, sum2 / double(n) - mean * mean));
  std::cerr << "check_app_output: " << path << ": " << w << "x" << h << ", " << colours.size() << " colours, "
            << 100.0 * double(differing) / double(n) << "% differ from the corner, brightness sd " << stddev << "\n";
  if (w < 16 || h < 16) fail("PNG " + path + " is tiny");
  if (double(differing) < 0.05 * double(n)) fail("PNG " + path + " is blank (under 5% of pixels differ from the corner)");
  if (colours.size() < 64) fail("PNG " + path + " has under 64 colours");
  if (stddev < 4.0) fail("PNG " + path + " has almost no contrast");
}

}  // namespace

int main(int argc, char** argv) {
  std::string json, png, app;
  long long steps = -1;
  std::vector<std::pair<std::string, long long>> arrays;
  std::vector<std::string> strings;
  std::vector<std::pair<std::string, std::string>> equals;
  bool blewUp = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << "check_app_output: " << a << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--json") json = next();
    else if (a == "--png") png = next();
    else if (a == "--app") app = next();
    else if (a == "--steps") steps = std::stoll(next());
    else if (a == "--string") strings.push_back(next());
    else if (a == "--equals") {
      const std::string spec = next();
      const auto eq = spec.find('=');
      if (eq == std::string::npos) {
        std::cerr << "check_app_output: --equals needs KEY=VALUE\n";
        return 2;
      }
      equals.emplace_back(spec.substr(0, eq), spec.substr(eq + 1));
    }
    else if (a == "--blew-up") blewUp = true;
    else if (a == "--array") {
      const std::string spec = next();
      const auto eq = spec.find('=');
      arrays.emplace_back(spec.substr(0, eq), eq == std::string::npos ? -1 : std::stoll(spec.substr(eq + 1)));
    } else {
      std::cerr << "check_app_output: unknown argument " << a << "\n";
      return 2;
    }
  }
  if (json.empty() && png.empty()) {
    std::cerr << "check_app_output: nothing to check (give --json and/or --png)\n";
    return 2;
  }
  if (!json.empty()) checkJson(json, app, steps, arrays, strings, equals, blewUp);
  if (!png.empty()) checkPng(png);
  if (g_failures == 0) std::cerr << "check_app_output: OK\n";
  return g_failures == 0 ? 0 : 1;
}
