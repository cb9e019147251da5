// Cylindrical flux monitors' keys: box = r0 z0 r1 z1 (a ring section, a disc or a tube), and the
// refusals of the other monitor types and of boxes that enclose no area.
#include <doctest/doctest.h>

#include "config/load_config.hpp"
#include "errors.hpp"

using namespace clfdtd;

namespace {

// R = 0.1 m, Z = 0.2 m, 1 cm cells; lines 1-7 grid, time, boundary; [monitor.f] on line 8,
// type on 9, box on 10, frequencies on 11.
const std::string kHead =
    "[grid]\ncoordinates = cylindrical\nsize = 0.1 0.2\ncell_size = 0.01\n[time]\nsteps = 40\n"
    "[boundary]\n[monitor.f]\n";

ConfigError error_of(const std::string& type, const std::string& box) {
  try {
    load_config_text(kHead + "type = " + type + "\nbox = " + box + "\nfrequencies = 1e9\n", "c.ini", {});
  } catch (const ConfigError& e) {
    return e;
  }
  FAIL("no ConfigError for type " << type << ", box " << box);
  return ConfigError("", 0, "", "");
}

void check_error(const ConfigError& e, int line, const std::string& key, const std::string& text) {
  INFO(std::string(e.what()));
  CHECK(e.line() == line);
  CHECK(e.key() == key);
  CHECK(e.expected().find(text) != std::string::npos);
}

}  // namespace

TEST_CASE("a cylindrical flux monitor: box = r0 z0 r1 z1 held as {r0, 0, z0} {r1, 0, z1}") {
  const RunConfig c =
      load_config_text(kHead + "type = flux\nbox = 0.02 0.05 0.06 0.15\nfrequencies = 1e9 2e9\n", "c.ini", {});
  REQUIRE(c.monitors.size() == 1);
  const MonitorConfig& m = c.monitors[0];
  CHECK(m.kind == MonitorKind::Flux);
  CHECK(m.box_lo.x == 0.02);
  CHECK(m.box_lo.y == 0);
  CHECK(m.box_lo.z == 0.05);
  CHECK(m.box_hi.x == 0.06);
  CHECK(m.box_hi.y == 0);
  CHECK(m.box_hi.z == 0.15);
  // A disc from the axis and a tube load too.
  CHECK_NOTHROW(load_config_text(kHead + "type = flux\nbox = 0 0.1 0.05 0.1\nfrequencies = 1e9\n", "c.ini", {}));
  CHECK_NOTHROW(load_config_text(kHead + "type = flux\nbox = 0.05 0 0.05 0.1\nfrequencies = 1e9\n", "c.ini", {}));
}

TEST_CASE("cylindrical monitor refusals: other types, six numbers, outside, no area") {
  for (const char* type : {"dft", "farfield"})
    check_error(error_of(type, "0 0 0.05 0.1"), 9, "monitor.f.type", "flux in a cylindrical model");
  check_error(error_of("flux", "0 0 0 0.05 0.1 0.1"), 10, "monitor.f.box", "four numbers r0 z0 r1 z1");
  check_error(error_of("flux", "0 0 0.11 0.1"), 10, "monitor.f.box", "0 <= r <= 0.1 m");
  check_error(error_of("flux", "0.05 0 0.02 0.1"), 10, "monitor.f.box", "r0 <= r1, z0 <= z1");
  check_error(error_of("flux", "0.05 0.1 0.05 0.1"), 10, "monitor.f.box", "a circle has no area");
  check_error(error_of("flux", "0 0 0 0.1"), 10, "monitor.f.box", "the axis has no area");
}
