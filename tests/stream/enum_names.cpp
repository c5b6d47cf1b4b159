// Tests src/stream/EnumNames.h: one table per enum gives names, panel positions, lookups
// (case-insensitive) and the parse error that lists the choices.
#include <catch2/catch.hpp>

#include <texstream/stream/EnumNames.h>

#include <stdexcept>

using namespace texstream;

namespace {
enum class Colour { Red, Green, Blue, Unnamed };
constexpr stream::EnumName<Colour> kColours[] = {
    {Colour::Red, "red", "red (warm)"}, {Colour::Green, "green", "green"}, {Colour::Blue, "blue", "blue (cold)"}};
const std::span<const stream::EnumName<Colour>> colours(kColours);
}  // namespace

TEST_CASE("EnumNames: names, positions and lookups from one table", "[stream][enum]") {
  CHECK(std::string(stream::nameOf(colours, Colour::Blue)) == "blue");
  CHECK(std::string(stream::nameOf(colours, Colour::Unnamed)).empty());
  CHECK(stream::indexOf(colours, Colour::Green) == 1);
  CHECK(stream::indexOf(colours, Colour::Unnamed) == -1);
  CHECK(stream::findByName(colours, "RED") == Colour::Red);
  CHECK(!stream::findByName(colours, "purple"));
  CHECK(stream::nameList(colours) == "red, green, blue");
  CHECK(stream::nameList(colours, "|") == "red|green|blue");
}

TEST_CASE("EnumNames: parseName returns the value or names the text and the choices", "[stream][enum]") {
  CHECK(stream::parseName(colours, "Blue", "parseColour", "colour") == Colour::Blue);
  CHECK_THROWS_AS(stream::parseName(colours, "teal", "parseColour", "colour"), std::invalid_argument);
  CHECK_THROWS_WITH(stream::parseName(colours, "teal", "parseColour", "colour"),
                    "parseColour: \"teal\" is not a colour (red, green, blue)");
}
