// End-to-end checks of the clfdtd program's command line.
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

TEST_CASE("clfdtd --help exits 0") {
  const std::string cmd = std::string(CLFDTD_BIN) + " --help > /dev/null";
  CHECK(std::system(cmd.c_str()) == 0);
}
