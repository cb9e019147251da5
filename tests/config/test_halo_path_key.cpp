// device.halo_path: how MPI ranks exchange halos (docs/MPI.md, "Device-to-device"); whether the
// device path is possible is decided at run time (parallel/peer_halo.hpp).
#include <doctest/doctest.h>

#include "config/load_config.hpp"
#include "errors.hpp"

using namespace clfdtd;

namespace {
const std::string kHead = "[grid]\nsize = 1 1 1\nmax_frequency = 1e9\n[time]\nsteps = 100\n";
}

TEST_CASE("device.halo_path: auto by default, host or device when given, nothing else") {
  CHECK(load_config_text(kHead, "m.ini", {}).device.halo_path == HaloPath::Auto);
  const RunConfig c = load_config_text(kHead + "[device]\nhalo_path = device\n", "m.ini", {});
  CHECK(c.device.halo_path == HaloPath::Device);
  CHECK(c.line_of("device.halo_path") == 7);
  CHECK(load_config_text(kHead, "m.ini", {"--device.halo_path=host"}).device.halo_path ==
        HaloPath::Host);
  CHECK(load_config_text(kHead, "m.ini", {"--device.halo_path=auto"}).device.halo_path ==
        HaloPath::Auto);
  try {
    load_config_text(kHead + "[device]\nhalo_path = ipc\n", "m.ini", {});
    FAIL("halo_path = ipc was accepted");
  } catch (const ConfigError& e) {
    CHECK(e.key() == "device.halo_path");
    CHECK(std::string(e.what()).find("auto, host, device") != std::string::npos);
  }
}
