// SettingTable in the command-line tools (texstream-solve, -bench, -linexpr), linked as they
// link it (texstream_app_cli: no panel, no Dear ImGui): optional values, choices, lists,
// operands, former names and "given", each bad value named by its option. CPU only.
#include "Settings.h"

#include <CLI/CLI.hpp>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

using namespace texstream::app;

namespace {

/// Parses `args` (in command-line order) into `t` through a fresh CLI::App.
void parse(SettingTable& t, CLI::App& cli, std::vector<std::string> args) {
  std::reverse(args.begin(), args.end());  // CLI11 takes a vector last first
  cli.parse(args);
  t.applyCommandLine();
}

}  // namespace

TEST_CASE("an optional setting stays unset until given, shows no default, and names a bad value", "[settings]") {
  std::optional<int> restarts;
  std::optional<long long> iterations;
  std::optional<std::uint64_t> seed;
  std::optional<double> t0;
  std::optional<std::string> json;
  SettingTable t;
  t.integer("restarts", restarts, 1, 100, "Runs");
  t.integer("iterations", iterations, 0, 10'000'000'000LL, "Proposals");
  t.integer("seed", seed, 0, UINT64_MAX, "Seed");
  t.real("t0", t0, 0.0, 1e9, false, "Initial temperature");
  t.text("json", json, nullptr, "Report");
  CHECK(t.toJson().empty());
  for (const Setting& s : t.settings()) CHECK_FALSE(s.isSet());

  CLI::App cli("test");
  t.addTo(cli, "Options");
  CHECK_THAT(cli.help(), !Catch::Contains("=") && Catch::Contains("--restarts"));  // no "=DEFAULT"
  parse(t, cli, {"--restarts", "3", "--iterations", "5000000000", "--seed", "18446744073709551615", "--t0", "2.5"});
  CHECK(restarts == 3);
  CHECK(iterations == 5'000'000'000LL);
  CHECK(seed == UINT64_MAX);
  CHECK(t0 == 2.5);
  CHECK_FALSE(json);
  CHECK(t.find("restarts")->given());
  CHECK_FALSE(t.find("json")->given());
  CHECK(t.toJson()["seed"] == UINT64_MAX);

  CLI::App again("test");
  SettingTable u;
  u.integer("restarts", restarts, 1, 100, "Runs");
  u.integer("seed", seed, 0, UINT64_MAX, "Seed");
  u.real("t0", t0, 0.0, 1e9, false, "Initial temperature");
  u.addTo(again, "Options");
  CHECK_THROWS_WITH(parse(u, again, {"--restarts", "0"}), "--restarts: invalid value \"0\": must be in [1, 100]");
  CHECK_THROWS_WITH(parse(u, again, {"--seed", "-1"}), Catch::StartsWith("--seed: invalid value \"-1\""));
  CHECK_THROWS_WITH(parse(u, again, {"--seed", "18446744073709551616"}),
                    "--seed: invalid value \"18446744073709551616\": expected a whole number in [0, 18446744073709551615]");
  CHECK_THROWS_WITH(parse(u, again, {"--t0", "0"}), Catch::StartsWith("--t0: invalid value \"0\": must be in (0, "));
}

TEST_CASE("a choice takes one of its names in any case and lists them when refused", "[settings]") {
  std::string format = "auto";
  SettingTable t;
  t.choice("format", format, {"segment", "bcrs2", "auto"}, "Storage");
  CLI::App cli("test");
  t.addTo(cli, "Options");
  CHECK_THAT(cli.help(), Catch::Contains("segment|bcrs2|auto") && Catch::Contains("=auto"));
  parse(t, cli, {"--format", "BCRS2"});
  CHECK(format == "bcrs2");
  CHECK_THROWS_WITH(parse(t, cli, {"--format", "csr5"}),
                    "--format: invalid value \"csr5\": expected one of segment|bcrs2|auto");
  CHECK(t.setJson(nlohmann::json{{"format", "segment"}}, "p.json").empty());
  CHECK(format == "segment");
  CHECK_THROWS_AS(t.widget("format"), std::logic_error);  // no panel in this program
}

TEST_CASE("a list takes comma-separated items, also over repeats, and names a bad item", "[settings]") {
  std::vector<int> sizes;
  std::vector<std::string> domains;
  SettingTable t;
  t.list("sizes", sizes, 4, 1024, "Grids");
  t.list("domains", domains,
         [](std::string_view source, const std::string& item) {
           if (item != "smoke" && item != "pool")
             throw UsageError(std::string(source) + ": invalid value \"" + item + "\": expected one of smoke|pool");
         },
         "Domains");
  CHECK(t.toJson().empty());  // empty: the default chosen elsewhere
  CLI::App cli("test");
  t.addTo(cli, "Options");
  parse(t, cli, {"--sizes", "16,32", "--sizes", "64", "--domains", "pool"});
  CHECK(sizes == std::vector<int>{16, 32, 64});
  CHECK(domains == std::vector<std::string>{"pool"});
  CHECK(t.find("sizes")->text() == "16,32,64");
  CHECK(t.toJson()["sizes"] == nlohmann::json::array({16, 32, 64}));

  CLI::App again("test");
  SettingTable u;
  u.list("sizes", sizes, 4, 1024, "Grids");
  u.list("domains", domains,
         [](std::string_view source, const std::string& item) {
           if (item != "smoke" && item != "pool")
             throw UsageError(std::string(source) + ": invalid value \"" + item + "\": expected one of smoke|pool");
         },
         "Domains");
  u.addTo(again, "Options");
  CHECK_THROWS_WITH(parse(u, again, {"--sizes", "16,2"}),
                    "--sizes: invalid value \"16,2\": each item must be a whole number in [4, 1024]");
  CHECK_THROWS_WITH(parse(u, again, {"--domains", "lake"}), "--domains: invalid value \"lake\": expected one of smoke|pool");
  CHECK_THROWS_WITH(parse(u, again, {"--domains", "smoke,lake"}),
                    "--domains: invalid value \"smoke,lake\": item \"lake\": expected one of smoke|pool");
  CHECK(u.setJson(nlohmann::json{{"sizes", {8, 9}}}, "p.json").empty());
  CHECK(sizes == std::vector<int>{8, 9});
  const std::vector<std::string> problems = u.setJson(nlohmann::json{{"sizes", {8, 2}}}, "p.json");
  REQUIRE(problems.size() == 1);
  CHECK_THAT(problems[0], Catch::StartsWith("p.json: sizes: invalid value \"8,2\""));
}

TEST_CASE("operands are named without dashes, a required one is asked for", "[settings]") {
  std::string matrix, rhs;
  SettingTable t;
  t.text("A", matrix, nullptr, "The matrix").positional().required();
  t.text("b", rhs, nullptr, "The right-hand side").positional();
  CLI::App cli("test");
  t.addTo(cli, "Options");
  parse(t, cli, {"a.mtx", "b.mtx"});
  CHECK(matrix == "a.mtx");
  CHECK(rhs == "b.mtx");
  CHECK_THROWS_AS(cli.parse(std::vector<std::string>{}), CLI::RequiredError);
}

TEST_CASE("a tool's shared knob keeps its former spelling, hidden, and refuses both", "[settings]") {
  std::optional<int> cap;
  float tolerance = 1e-6f;
  SettingTable t;
  t.real("tolerance", tolerance, 0.0, 1.0, false, "Tolerance").formerly("tol");
  t.integer("max-iterations", cap, 1, 1000, "Cap").formerly("max-iter");
  CLI::App cli("test");
  t.addTo(cli, "Options");
  CHECK_THAT(cli.help(), Catch::Contains("--tolerance") && !Catch::Contains("--tol ") && !Catch::Contains("--max-iter "));
  parse(t, cli, {"--tol", "1e-3", "--max-iter", "7"});
  CHECK(tolerance == 1e-3f);
  CHECK(cap == 7);
  CHECK(t.find("max-iterations")->given());
  CHECK_THROWS_WITH(parse(t, cli, {"--max-iter", "7", "--max-iterations", "8"}),
                    "--max-iterations: given twice, also as --max-iter (its former name)");
  CHECK_THROWS_WITH(parse(t, cli, {"--max-iter", "0"}), "--max-iter: invalid value \"0\": must be in [1, 1000]");
}
