// device.decomposition: the MPI boxes along x y z (checked against the rank count at run time,
// parallel::decompose).
#include <doctest/doctest.h>

#include <array>

#include "config/load_config.hpp"

using namespace clfdtd;

namespace {
const std::string kHead = "[grid]\nsize = 1 1 1\nmax_frequency = 1e9\n[time]\nsteps = 100\n";
}

TEST_CASE("device.decomposition: automatic by default, three counts when given") {
  CHECK(load_config_text(kHead, "m.ini", {}).device.decomposition == std::array<int, 3>{0, 0, 0});
  const RunConfig c = load_config_text(kHead + "[device]\ndecomposition = 2 3 1\n", "m.ini", {});
  CHECK(c.device.decomposition == std::array<int, 3>{2, 3, 1});
  CHECK(c.line_of("device.decomposition") == 7);
  CHECK(load_config_text(kHead, "m.ini", {"--device.decomposition=0 0 0"}).device.decomposition ==
        std::array<int, 3>{0, 0, 0});
  CHECK(load_config_text(kHead, "m.ini", {"--device.decomposition=1 1 4"}).device.decomposition ==
        std::array<int, 3>{1, 1, 4});
}
