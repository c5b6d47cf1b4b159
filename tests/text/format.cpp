// Tests src/text/Format.* and src/text/FloatChars.h's string forms: quoted names, tokens cut
// at kTokenChars, three-digit numbers, generated names, and shortest round-trip text.
#include <catch2/catch.hpp>

#include <texstream/text/FloatChars.h>
#include <texstream/text/Format.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>

using namespace texstream;

TEST_CASE("text::quoted and quotedToken put text in quotes, tokens cut at kTokenChars", "[text]") {
  CHECK(text::quoted("A") == "\"A\"");
  CHECK(text::quoted("") == "\"\"");
  CHECK(text::quoted("with \"inner\" quotes") == "\"with \"inner\" quotes\"");
  const std::string exact(text::kTokenChars, 'x');
  CHECK(text::quotedToken(exact) == "\"" + exact + "\"");
  const std::string longer = exact + "yz";
  CHECK(text::quotedToken(longer) == "\"" + exact + "...\"");
  CHECK(text::quotedToken("1.5e") == "\"1.5e\"");
}

TEST_CASE("text::formatNumber writes three significant digits", "[text]") {
  CHECK(text::formatNumber(0.5) == "0.5");
  CHECK(text::formatNumber(1.23456e-5) == "1.23e-05");
  CHECK(text::formatNumber(1234567.0) == "1.23e+06");
  CHECK(text::formatNumber(-2.0) == "-2");
  CHECK(text::formatNumber(std::numeric_limits<double>::quiet_NaN()) == "nan");
}

TEST_CASE("text::numbered joins prefix, number and suffix", "[text]") {
  CHECK(text::numbered("r", 12) == "r12");
  CHECK(text::numbered("u_block", -3, ".x") == "u_block-3.x");
}

TEST_CASE("text::shortestText reads back to the same value", "[text]") {
  CHECK(text::shortestText(0.1) == "0.1");
  CHECK(text::shortestText(1e-05f) == "1e-05");
  CHECK(text::shortestText(-0.0) == "-0");
  std::string appended = "v ";
  text::appendShortestText(appended, 2.5f);
  text::appendShortestText(appended, 0.25);
  CHECK(appended == "v 2.50.25");
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> exponent(-300.0, 300.0);
  for (int k = 0; k < 1000; ++k) {
    const double d = std::pow(10.0, exponent(rng)) * (k % 2 ? -1.0 : 1.0) * (1.0 + double(k) / 997.0);
    const float f = float(std::pow(10.0, exponent(rng) / 10.0)) * (k % 3 ? 1.0f : -1.0f);
    INFO("double " << d << ", float " << f);
    CHECK(std::strtod(text::shortestText(d).c_str(), nullptr) == d);
    CHECK(std::strtof(text::shortestText(f).c_str(), nullptr) == f);
  }
  // The longest doubles still fit.
  CHECK(std::strtod(text::shortestText(-2.2250738585072014e-308).c_str(), nullptr) == -2.2250738585072014e-308);
  CHECK(std::strtod(text::shortestText(std::numeric_limits<double>::lowest()).c_str(), nullptr) ==
        std::numeric_limits<double>::lowest());
}
