// Catch2's main, in its own translation unit so it is compiled once per build tree.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
