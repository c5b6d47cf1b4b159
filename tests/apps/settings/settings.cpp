// The demos' settings tables (apps/common/Settings.h and each demo's describe function):
// one name per field for the command line, presets and the panel; values checked the same
// way from text and JSON; a preset round-trips; bad keys and values are reported by name
// while the rest loads. CPU only: no context.
#include "Fluid3DSettings.h"
#include "FluidSettings.h"
#include "ParamSettings.h"
#include "Preset.h"
#include "Settings.h"
#include "SmoothSettings.h"
#include "WaveSettings.h"

#include <CLI/CLI.hpp>
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace texstream;
using namespace texstream::app;

namespace {

bool anyContains(const std::vector<std::string>& lines, const std::string& part) {
  return std::any_of(lines.begin(), lines.end(), [&](const std::string& l) { return l.find(part) != std::string::npos; });
}

template <class S, class Describe>
nlohmann::ordered_json settingsJson(S& s, Describe describe) {
  SettingTable t;
  describe(t, s);
  return t.toJson();
}

}  // namespace

TEST_CASE("a setting parses text, refuses bad values naming itself, and writes JSON", "[settings]") {
  struct S {
    int n = 3;
    double x = 0.5;
    float f = 0.8f;
    bool on = false;
    fluid::Scene scene = fluid::Scene::Smoke;
    int w = 16, h = 16;
    float rgb[3] = {1, 0, 0};
  } s;
  SettingTable t;
  t.integer("count", s.n, 1, 10, "a count");
  t.real("x", s.x, 0.0, 1.0, false, "a fraction");
  t.real("f", s.f, 0.0, 2.0, false, "a float");
  t.flag("on", s.on, "a switch");
  t.named("scene", s.scene, fluid::sceneNames(), "a scene");
  t.gridSize("size", s.w, s.h, 8, 64, "a grid");
  t.color("color", s.rgb, "a colour");

  t.find("count")->set("--count", "7");
  CHECK(s.n == 7);
  CHECK_THROWS_WITH(t.find("count")->set("--count", "11"), Catch::Contains("--count: invalid value \"11\": must be in [1, 10]"));
  CHECK_THROWS_WITH(t.find("x")->set("--x", "0"), Catch::Contains("--x: invalid value \"0\""));
  CHECK_THROWS_WITH(t.find("on")->set("on", "maybe"), Catch::Contains("on: invalid value \"maybe\": expected true or false"));
  t.find("scene")->set("--scene", "CAVITY");
  CHECK(s.scene == fluid::Scene::Cavity);
  CHECK_THROWS_WITH(t.find("scene")->set("--scene", "lake"),
                    Catch::Contains("expected one of smoke|channel|cavity|obstacles"));
  t.find("size")->setJson("size", nlohmann::json::array({40, 24}));
  CHECK(s.w == 40);
  CHECK(s.h == 24);
  CHECK_THROWS_WITH(t.find("size")->setJson("size", nlohmann::json::array({40})), Catch::Contains("size: invalid value"));
  t.find("color")->set("--color", "#336699");
  CHECK(s.rgb[0] == Approx(0.2f));
  CHECK(s.rgb[2] == Approx(0.6f));
  t.find("color")->set("--color", "0.5,0.25,1");
  CHECK(s.rgb[1] == Approx(0.25f));
  CHECK_THROWS_WITH(t.find("color")->set("--color", "#33669"), Catch::Contains("expected #RRGGBB"));
  CHECK_THROWS_WITH(t.find("color")->set("--color", "1,2,3"), Catch::Contains("each of R,G,B must be a number in [0, 1]"));

  // A float setting writes its shortest decimal, not the double nearest the float.
  const nlohmann::ordered_json j = t.toJson();
  CHECK(j["f"].dump() == "0.8");
  CHECK(j["scene"] == "cavity");
  CHECK(j["size"] == nlohmann::json::array({40, 24}));
  CHECK(j["color"] == "#8040ff");
}

TEST_CASE("a 3D grid size takes N, NXxNYxNZ or [nx, ny, nz] and names a bad side", "[settings]") {
  int nx = 0, ny = 0, nz = 0;
  SettingTable t;
  t.gridSize3("size", nx, ny, nz, 4, 256, "a 3D grid");
  const Setting& size = *t.find("size");
  size.set("--size", "24");
  CHECK((nx == 24 && ny == 24 && nz == 24));
  size.set("--size", "40x24X16");
  CHECK((nx == 40 && ny == 24 && nz == 16));
  CHECK(size.text() == "40x24x16");
  CHECK(t.toJson()["size"] == nlohmann::json::array({40, 24, 16}));
  size.setJson("p.json: size", nlohmann::json::array({8, 12, 20}));
  CHECK((nx == 8 && ny == 12 && nz == 20));
  CHECK_THROWS_WITH(size.set("--size", "32x32"), Catch::Contains("--size: invalid value \"32x32\": expected N or NXxNYxNZ"));
  CHECK_THROWS_WITH(size.set("--size", "32x2x32"), Catch::Contains("--size: invalid value \"32x2x32\": NY must be in [4, 256]"));
  CHECK_THROWS_WITH(size.set("--size", "512"), Catch::Contains("--size: invalid value \"512\": size must be in [4, 256]"));
  CHECK_THROWS_WITH(size.set("--size", "8xx8"), Catch::Contains("expected N or NXxNYxNZ"));
  CHECK_THROWS_WITH(size.setJson("p.json: size", nlohmann::json::array({8, 8})), Catch::Contains("p.json: size: invalid value \"[8,8]\""));
  CHECK((nx == 8 && ny == 12 && nz == 20));  // a refused value changes nothing
}

TEST_CASE("a preset's unknown keys and bad values are named, and the rest loads", "[settings][preset]") {
  FluidSettings s;
  SettingTable t;
  describeFluidSettings(t, s);
  const nlohmann::json values = {{"scene", "cavity"}, {"re", 1000}, {"omega", 2.5},  {"omgea", 1},
                                 {"cycles", 0},       {"size", "40x3"}, {"arrows", true}, {"shading", "yes"}};
  const std::vector<std::string> problems = t.setJson(values, "bad.json");
  CHECK(problems.size() == 5);
  CHECK(anyContains(problems, "bad.json: omega: invalid value \"2.5\": must be in (0, 1.999]"));
  CHECK(anyContains(problems, "bad.json: cycles: invalid value \"0\": must be in [1, 1000]"));
  CHECK(anyContains(problems, "bad.json: size: invalid value \"40x3\": height must be in [8, 8192]"));
  CHECK(anyContains(problems, "bad.json: shading: invalid value \"yes\": expected true or false"));
  CHECK(anyContains(problems, "bad.json: unknown key \"omgea\" (did you mean \"omega\"?)"));
  CHECK(s.params.scene == fluid::Scene::Cavity);
  CHECK(s.params.reynolds == 1000);
  CHECK(s.arrows);
  CHECK(s.params.multigrid.omega == 0.8f);  // the default stays where the value was refused
  CHECK(s.params.cycles == 2);

  CHECK(t.setJson(nlohmann::json::array({1, 2}), "list.json").front() ==
        "list.json: expected a JSON object of settings, got array");
}

TEST_CASE("every demo's settings round-trip through JSON", "[settings][preset]") {
  SECTION("fluid3d") {
    Fluid3DSettings a;
    SettingTable ta;
    describeFluid3DSettings(ta, a);
    REQUIRE(ta.setJson({{"scene", "drop"}, {"size", {40, 24, 32}}, {"dt", 0.01}, {"precond", "mic0"},
                        {"tolerance", 0}, {"iterations", 30}, {"volume-correction", false}, {"liquid-color", "#2080c0"},
                        {"ray-step", 0.4}, {"box", false}},
                       "a")
                .empty());
    const nlohmann::ordered_json saved = ta.toJson();
    Fluid3DSettings b;
    SettingTable tb;
    describeFluid3DSettings(tb, b);
    REQUIRE(tb.setJson(nlohmann::json::parse(saved.dump()), "b").empty());
    CHECK(tb.toJson() == saved);
    CHECK(b.params.scene == fluid::Scene3D::Drop);
    CHECK((b.params.nx == 40 && b.params.ny == 24 && b.params.nz == 32));
    CHECK(b.params.preconditioner == solvers::PressurePreconditioner::Mic0);
    CHECK(!b.params.volumeCorrection);
    CHECK(!b.box);
    // Settings left to the scene stay out of the preset.
    Fluid3DSettings defaults;
    const nlohmann::ordered_json d = settingsJson(defaults, describeFluid3DSettings);
    for (const char* unset : {"size", "dt", "vorticity", "buoyancy", "density-weight", "dissipation"})
      CHECK(!d.contains(unset));
  }
  SECTION("fluid") {
    FluidSettings a;
    SettingTable ta;
    describeFluidSettings(ta, a);
    REQUIRE(ta.setJson({{"scene", "obstacles"}, {"size", {97, 33}}, {"dt", 0.003}, {"vorticity", 0.25},
                        {"solver", "cg"}, {"omega", 0.7}, {"cycle", "W"}, {"coarse", "jacobi"}, {"border", "copy"},
                        {"tolerance", 1e-4}, {"dye-colors", "single"}, {"dye-color", "#10ff80"}, {"statistics", false},
                        {"splats", 3}, {"brush-force", 2.5}},
                       "a")
                .empty());
    const nlohmann::ordered_json saved = ta.toJson();
    FluidSettings b;
    SettingTable tb;
    describeFluidSettings(tb, b);
    REQUIRE(tb.setJson(nlohmann::json::parse(saved.dump()), "b").empty());
    CHECK(tb.toJson() == saved);
    CHECK(b.params.multigrid.cycle == solvers::CycleType::W);
    CHECK(b.params.multigrid.border == solvers::BorderUpdate::CopyPasses);
    CHECK(b.params.nx == 97);
    CHECK(!b.params.statistics);
    // Settings left to the scene stay out of the preset.
    FluidSettings defaults;
    const nlohmann::ordered_json d = settingsJson(defaults, describeFluidSettings);
    CHECK(!d.contains("dt"));
    CHECK(!d.contains("size"));
    CHECK(!d.contains("viscosity"));
  }
  SECTION("wave") {
    WaveSettings a;
    SettingTable ta;
    describeWaveSettings(ta, a);
    REQUIRE(ta.setJson({{"size", {48, 64}}, {"scheme", "explicit"}, {"dt", 0.002}, {"damping", 0.01}}, "a").empty());
    finishWaveSettings(a);
    CHECK(!a.autoDt);
    const nlohmann::ordered_json saved = ta.toJson();
    WaveSettings b;
    SettingTable tb;
    describeWaveSettings(tb, b);
    REQUIRE(tb.setJson(nlohmann::json::parse(saved.dump()), "b").empty());
    finishWaveSettings(b);
    CHECK(tb.toJson() == saved);
    CHECK(b.params.scheme == wave::Scheme::Explicit);
  }
  SECTION("smooth") {
    SmoothSettings a;
    SettingTable ta;
    describeSmoothSettings(ta, a);
    REQUIRE(ta.setJson({{"mesh", "builtin:torus:2000"}, {"noise", 0.1}, {"seed", 9}, {"precond", "jacobi"},
                        {"free-boundary", true}, {"rescale", "area"}, {"wireframe", true}},
                       "a")
                .empty());
    CHECK(!a.fixBoundary);
    const nlohmann::ordered_json saved = ta.toJson();
    SmoothSettings b;
    SettingTable tb;
    describeSmoothSettings(tb, b);
    REQUIRE(tb.setJson(nlohmann::json::parse(saved.dump()), "b").empty());
    CHECK(tb.toJson() == saved);
    CHECK(b.jacobi);
    CHECK(b.rescale == geometry::Rescale::Area);
    CHECK(anyContains(tb.setJson({{"mesh", "builtin:bunny"}}, "c"), "c: mesh: invalid value \"builtin:bunny\": unknown built-in mesh"));
  }
}

TEST_CASE("every shipped preset loads into its demo without a problem", "[preset]") {
  int count = 0;
  for (const ShippedPreset& shipped : shippedPresets()) {
    INFO(shipped.name);
    const nlohmann::json j = nlohmann::json::parse(shipped.text);
    REQUIRE(j.contains("app"));
    const std::string app = j["app"];
    const Preset p = parsePreset(shipped.text, shipped.name, app, "shipped");
    CHECK(!p.description.empty());
    std::vector<std::string> problems;
    if (app == "fluid") {
      FluidSettings s;
      SettingTable t;
      describeFluidSettings(t, s);
      problems = t.setJson(p.values, p.source);
    } else if (app == "fluid3d") {
      Fluid3DSettings s;
      SettingTable t;
      describeFluid3DSettings(t, s);
      problems = t.setJson(p.values, p.source);
    } else if (app == "wave") {
      WaveSettings s;
      SettingTable t;
      describeWaveSettings(t, s);
      problems = t.setJson(p.values, p.source);
    } else if (app == "smooth") {
      SmoothSettings s;
      SettingTable t;
      describeSmoothSettings(t, s);
      problems = t.setJson(p.values, p.source);
    } else if (app == "param") {
      ParamSettings s;
      SettingTable t;
      describeParamSettings(t, s);
      problems = t.setJson(p.values, p.source);
      checkParamSettings(s);
    } else {
      FAIL("a shipped preset for an unknown demo: " << app);
    }
    CHECK(problems.empty());
    for (const std::string& line : problems) UNSCOPED_INFO(line);
    ++count;
  }
  // Bolz's channel, the cavity at Re 100 and 1000, the colourful smoke, and one each for
  // the other demos.
  CHECK(count >= 6);
  CHECK(shippedPresetsFor("fluid").size() >= 4);
}

TEST_CASE("a preset file that cannot be used says why", "[preset]") {
  CHECK_THROWS_WITH(parsePreset("{\"scene\": \"cavity\",\n \"re\": }", "p.json", "fluid", "--preset"),
                    Catch::Contains("--preset: invalid value \"p.json\": not JSON: parse error at line 2"));
  CHECK_THROWS_WITH(parsePreset("[1, 2]", "p.json", "fluid", "--preset"),
                    Catch::Contains("a preset is a JSON object, this is array"));
  CHECK_THROWS_WITH(parsePreset("{\"app\": \"wave\"}", "p.json", "fluid", "--preset"),
                    Catch::Contains("this preset is for texstream-wave, not texstream-fluid"));
  CHECK_THROWS_WITH(readPreset("/nonexistent/p.json", "fluid", "--preset"),
                    Catch::Contains("no such file, nor a shipped preset (shipped for fluid: fluid-"));
  const Preset p = parsePreset("{\"app\": \"fluid\", \"description\": \"d\", \"re\": 5}", "p.json", "fluid", "--preset");
  CHECK(p.description == "d");
  CHECK(p.values.size() == 1);  // "app" and "description" are not settings
}

TEST_CASE("a stranger's preset: bounded depth and size, numbers beyond double named by key", "[preset]") {
  // The SIGSEGV of issue 35: 100,000 nested arrays (a stack overflow in a recursive walk).
  std::string deep = "{\"app\": \"fluid\", \"cycles\": ";
  deep += std::string(100000, '[') + std::string(100000, ']') + "}";
  CHECK_THROWS_WITH(parsePreset(deep, "deep.json", "fluid", "--preset"),
                    Catch::Contains("--preset: invalid value \"deep.json\": nested deeper than 32 levels at line 1"));
  // Nesting inside a string is text, not nesting.
  CHECK_NOTHROW(parsePreset("{\"description\": \"" + std::string(100, '[') + "\"}", "s.json", "fluid", "--preset"));
  // 32 levels are read (and refused by the setting, by name); 33 are not.
  const Preset at32 = parsePreset("{\"cycles\": " + std::string(31, '[') + std::string(31, ']') + "}", "p.json", "fluid", "-");
  FluidSettings s;
  SettingTable t;
  describeFluidSettings(t, s);
  CHECK(anyContains(t.setJson(at32.values, at32.source), "p.json: cycles: invalid value \"[[[[[[["));
  CHECK_THROWS_WITH(parsePreset("{\"cycles\": " + std::string(32, '[') + std::string(32, ']') + "}", "p.json", "fluid", "-"),
                    Catch::Contains("nested deeper than 32 levels"));

  // The SIGABRT of issue 35: a number beyond double drops its key alone.
  const Preset big = parsePreset("{\"app\": \"fluid\", \"dt\": 1e309,\n \"re\": 400, \"size\": [-2E+400, 3],"
                                 " \"description\": \"1e309\"}",
                                 "big.json", "fluid", "--preset");
  REQUIRE(big.problems.size() == 2);
  CHECK(big.problems[0] == "big.json: dt: 1e309 is not a finite number (beyond double's range)");
  CHECK(big.problems[1] == "big.json: size: -2E+400 is not a finite number (beyond double's range)");
  CHECK(big.description == "1e309");  // a string stays a string
  CHECK(big.values == nlohmann::json{{"re", 400}});
  CHECK(t.setJson(big.values, big.source).empty());
  CHECK(s.params.reynolds == 400);
  // Tiny numbers round to zero, as the parser reads them; the setting then judges them.
  CHECK(parsePreset("{\"re\": 1e-400}", "p.json", "fluid", "-").problems.empty());
  CHECK_THROWS_WITH(parsePreset("1e309", "n.json", "fluid", "--preset"),
                    Catch::Contains("a preset is a JSON object, this is a number beyond double's range (1e309)"));
  // Malformed numbers stay parse errors.
  CHECK_THROWS_WITH(parsePreset("{\"re\": 1e309e}", "p.json", "fluid", "-"), Catch::Contains("not JSON: parse error"));
  CHECK_THROWS_WITH(parsePreset("{\"re\": 01}", "p.json", "fluid", "-"), Catch::Contains("not JSON: parse error"));

  // Integers beyond long long do not wrap into range.
  const Preset huge = parsePreset("{\"cycles\": 18446744073709551615, \"splats\": -9223372036854775809}", "h.json",
                                  "fluid", "-");
  const std::vector<std::string> hugeProblems = t.setJson(huge.values, huge.source);
  CHECK(anyContains(hugeProblems, "h.json: cycles: invalid value \"18446744073709551615\""));
  for (const std::string& line : hugeProblems) UNSCOPED_INFO(line);
  CHECK(anyContains(hugeProblems, "h.json: splats: invalid value \"-9223372036854775808\": must be in [0, 1000]"));
  CHECK(s.params.cycles == 2);

  // Size: the text, and a file beyond the limit before it is read whole.
  CHECK_THROWS_WITH(parsePreset("{\"re\": 1" + std::string(kPresetMaxBytes, ' ') + "}", "b.json", "fluid", "-"),
                    Catch::Contains("a preset is at most 1048576 bytes"));
  const std::string path = "test-app-settings-big-preset.json";
  {
    std::ofstream out(path);
    out << "{\"re\": 1" << std::string(kPresetMaxBytes + 10, ' ') << "}";
  }
  CHECK_THROWS_WITH(readPreset(path, "fluid", "--preset"),
                    Catch::Contains("the file is 1048595 bytes; a preset is at most 1048576 bytes"));
  std::filesystem::remove(path);
  CHECK_THROWS_WITH(readPreset("/dev/zero", "fluid", "--preset"), Catch::Contains("/dev/zero\": not a regular file"));

  // Long keys and values are cut in messages; many unknown keys are counted, not listed.
  std::string many = "{";
  for (int k = 0; k < 100; ++k) many += (k ? ", \"" : "\"") + std::string(200, 'k') + std::to_string(k) + "\": 1";
  const std::vector<std::string> manyProblems = t.setJson(parsePreset(many + "}", "m.json", "fluid", "-").values, "m.json");
  REQUIRE(manyProblems.size() == 21);
  CHECK(manyProblems[0].size() < 100);
  CHECK(manyProblems.back() == "m.json: and 80 more unknown keys");
}

TEST_CASE("a typo's closest setting name is suggested, a stranger's is not", "[settings]") {
  const std::vector<std::string> names = {"omega", "cycles", "coarse-iterations", "dye-colors"};
  CHECK(closestName("omgea", names) == std::optional<std::string>("omega"));
  CHECK(closestName("cycels", names) == std::optional<std::string>("cycles"));
  CHECK(closestName("dye-colours", names) == std::optional<std::string>("dye-colors"));
  CHECK(!closestName("temperature", names));
}

TEST_CASE("a setting's former name still works on the command line and in presets, unwritten and unlisted",
          "[settings]") {
  double tolerance = 1e-5;
  bool wireframe = false;
  SettingTable t;
  t.real("tolerance", tolerance, 0.0, 0.999999, false, "CG tolerance").formerly("cg-tol");
  CHECK_THROWS_AS(t.flag("wireframe", wireframe, "Wireframe").formerly("wire"), std::logic_error);

  CLI::App cli("test");
  t.addTo(cli, "Settings");
  std::vector<std::string> args = {"1e-3", "--cg-tol"};  // CLI11 takes them last first
  cli.parse(args);
  t.applyCommandLine();
  CHECK(tolerance == 1e-3);
  CHECK_THAT(cli.help(), Catch::Contains("--tolerance") && !Catch::Contains("cg-tol"));

  std::vector<std::string> bad = {"0", "--cg-tol"};
  cli.parse(bad);
  CHECK_THROWS_WITH(t.applyCommandLine(), Catch::Contains("--cg-tol: invalid value \"0\""));

  std::vector<std::string> both = {"1e-3", "--cg-tol", "1e-4", "--tolerance"};
  cli.parse(both);
  CHECK_THROWS_WITH(t.applyCommandLine(), Catch::Contains("--tolerance: given twice, also as --cg-tol"));

  CHECK(t.setJson(nlohmann::json{{"cg-tol", 2e-3}}, "old.json").empty());
  CHECK(tolerance == 2e-3);
  CHECK(t.toJson().contains("tolerance"));
  CHECK_FALSE(t.toJson().contains("cg-tol"));
  const std::vector<std::string> problems = t.setJson(nlohmann::json{{"cg-tol", 0}}, "old.json");
  REQUIRE(problems.size() == 1);
  CHECK_THAT(problems[0], Catch::Contains("old.json: cg-tol: invalid value"));
}
