// output.energy: off by default, true/false from the file or the command line, anything else
// rejected with the key named; the model carries it to the backend.
#include <doctest/doctest.h>

#include "config/load_config.hpp"
#include "errors.hpp"

using namespace clfdtd;

namespace {
const std::string kModel =
    "[grid]\nsize = 0.01 0.01 0.01\ncell_size = 0.001\n[time]\nsteps = 5\n[boundary]\ntype = pec\n";
}  // namespace

TEST_CASE("output.energy is off by default and read from the file or the command line") {
  CHECK_FALSE(load_config_text(kModel, "m.ini", {}).output.energy);
  CHECK(load_config_text(kModel + "[output]\nenergy = true\n", "m.ini", {}).output.energy);
  CHECK_FALSE(load_config_text(kModel + "[output]\nenergy = false\n", "m.ini", {}).output.energy);
  CHECK(load_config_text(kModel, "m.ini", {"--output.energy=true"}).output.energy);
  CHECK(load_config_text(kModel, "m.ini", {"--output.energy=TRUE"}).output.energy);
}

TEST_CASE("output.energy rejects anything but true or false") {
  CHECK_THROWS_WITH_AS(load_config_text(kModel + "[output]\nenergy = yes\n", "m.ini", {}),
                       doctest::Contains("'output.energy': one of true, false"), ConfigError);
}
