// Catch2 v2 main for every texstream test executable.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
