// Cylindrical keys: grid.coordinates, grid.modes, R Z sizes, dr dz cells, r phi z positions,
// (r z) object centres and sizes, r_hi z_lo z_hi layers, Er.. probe names, snapshot.phi_samples,
// and every cylindrical refusal with its file, line and key.
#include <doctest/doctest.h>

#include <cmath>

#include "config/load_config.hpp"
#include "errors.hpp"

using namespace clfdtd;

namespace {

// R = 0.1 m, Z = 0.2 m, 1 cm cells: lines 1-7 are the grid and time.
const std::string kHeadCyl =
    "[grid]\ncoordinates = cylindrical\nsize = 0.1 0.2\ncell_size = 0.01\n[time]\nsteps = 40\n"
    "[boundary]\n";  // 7 lines

ConfigError error_of_text(const std::string& text, const std::vector<std::string>& args = {}) {
  try {
    load_config_text(text, "c.ini", args);
  } catch (const ConfigError& e) {
    return e;
  }
  FAIL("no ConfigError for " << text);
  return ConfigError("", 0, "", "");
}

void check_error(const ConfigError& e, int line, const std::string& key, const std::string& text) {
  INFO(std::string(e.what()));
  CHECK(e.file() == "c.ini");
  CHECK(e.line() == line);
  CHECK(e.key() == key);
  CHECK(e.expected().find(text) != std::string::npos);
}

}  // namespace

TEST_CASE("a cylindrical model: R Z, dr dz, modes, layers, r phi z positions, ring and sphere") {
  const RunConfig cfg = load_config_text(
      "[grid]\ncoordinates = cylindrical\nsize = 0.1 0.2\ncell_size = 0.01 0.02\nmodes = 2 0 1\n"
      "[time]\nsteps = 40\n[boundary]\nlayers = 3 4 5\n"
      "[object.ring]\nshape = box\ncenter = 0.05 0.1\nsize = 0.02 0.04\nmaterial = pec\n"
      "[object.ball]\nshape = sphere\ncenter = 0 0.1\nradius = 0.03\nmaterial = vacuum\n"
      "[object.rod]\nshape = cylinder\ncenter = 0 0.1\nradius = 0.01\nlength = 0.05\nmaterial = pec\n"
      "[source.s]\ntype = current\naxis = phi\nposition = 0.03 45 0.1\nfrequency = 3e9\n"
      "[probe.p]\nposition = 0.07 -90 0.04\nfields = Er Hphi Ez\n[probe.all]\nposition = 0 0 0.1\n"
      "[snapshot]\nsteps = 10\nphi_samples = 8\n",
      "c.ini", {});
  CHECK(cfg.grid.coordinates == Coordinates::Cylindrical);
  CHECK(cfg.grid.dims == 3);
  CHECK(cfg.grid.modes == std::vector<int>{0, 1, 2});
  CHECK(cfg.grid.size_m.x == 0.1);
  CHECK(cfg.grid.size_m.y == 1.0);
  CHECK(cfg.grid.size_m.z == 0.2);
  REQUIRE(cfg.grid.cell_size_m);
  CHECK(cfg.grid.cell_size_m->x == 0.01);
  CHECK(cfg.grid.cell_size_m->y == 1.0);
  CHECK(cfg.grid.cell_size_m->z == 0.02);
  CHECK(cfg.boundary.layers == std::array<int, 6>{0, 3, 0, 0, 4, 5});
  REQUIRE(cfg.objects.size() == 3);
  CHECK(cfg.objects[0].center.x == 0.05);
  CHECK(cfg.objects[0].center.y == 0);
  CHECK(cfg.objects[0].center.z == 0.1);
  CHECK(cfg.objects[0].size.x == 0.02);
  CHECK(cfg.objects[0].size.y == 0);
  CHECK(cfg.objects[0].size.z == 0.04);
  CHECK(cfg.objects[1].center.x == 0);
  REQUIRE(cfg.sources.size() == 1);
  CHECK(cfg.sources[0].axis == Axis::Y);  // phi
  CHECK(cfg.sources[0].position.x == 0.03);
  CHECK(cfg.sources[0].position.y == 45);  // degrees
  CHECK(cfg.sources[0].position.z == 0.1);
  REQUIRE(cfg.probes.size() == 2);
  CHECK(cfg.probes[0].position.y == -90);
  CHECK(cfg.probes[0].fields ==
        std::vector<Component>{Component::Ex, Component::Hy, Component::Ez});  // Er Hphi Ez
  CHECK(cfg.probes[1].fields.size() == 6);
  CHECK(cfg.snapshot.phi_samples == 8);
}

TEST_CASE("cylindrical defaults: modes 0, one cell size for dr and dz, one layer value, axis z") {
  const RunConfig cfg = load_config_text(
      kHeadCyl + "layers = 6\n[source.s]\ntype = current\nposition = 0 0 0.1\nfrequency = 3e9\n"
                 "[source.r]\naxis = r\nposition = 0.02 0 0.1\nfrequency = 3e9\n",
      "c.ini", {});
  CHECK(cfg.grid.modes == std::vector<int>{0});
  CHECK(cfg.grid.cell_size_m->x == 0.01);
  CHECK(cfg.grid.cell_size_m->z == 0.01);
  CHECK(cfg.boundary.layers == std::array<int, 6>{0, 6, 0, 0, 6, 6});
  CHECK(cfg.sources[0].axis == Axis::Z);
  CHECK(cfg.sources[1].axis == Axis::X);  // r
  CHECK(cfg.snapshot.phi_samples == 0);
  // No layers key: the default 10 on r_hi, z_lo, z_hi, none on the axis.
  const RunConfig d = load_config_text(kHeadCyl, "c.ini", {});
  CHECK(d.boundary.layers == std::array<int, 6>{0, 10, 0, 0, 10, 10});
  // The command line sets the modes too.
  const RunConfig c = load_config_text(kHeadCyl, "c.ini", {"--grid.modes=3 1"});
  CHECK(c.grid.modes == std::vector<int>{1, 3});
}

TEST_CASE("cylindrical grid refusals: modes, sizes, 2D keys, layers, variant, monitors") {
  const std::string head =
      "[grid]\ncoordinates = cylindrical\nsize = 0.1 0.2\ncell_size = 0.01\n";  // 4 lines
  check_error(error_of_text(head + "modes = 0 1 1\n[time]\nsteps = 4\n"), 5, "grid.modes",
              "each angular order m once");
  check_error(error_of_text(head + "modes = -1\n[time]\nsteps = 4\n"), 5, "grid.modes", "[0, 1000]");
  check_error(error_of_text(head + "mode = te\n[time]\nsteps = 4\n"), 5, "grid.mode",
              "no grid.mode in a cylindrical model");
  check_error(error_of_text(head + "equation = wave\n[time]\nsteps = 4\n"), 5, "grid.equation",
              "no grid.equation in a cylindrical model");
  check_error(error_of_text("[grid]\ncoordinates = cylindrical\nsize = 0.1 0.2 0.3\ncell_size = "
                            "0.01\n[time]\nsteps = 4\n"),
              3, "grid.size", "two numbers R Z");
  check_error(error_of_text("[grid]\ncoordinates = cylindrical\nsize = 0.1 0.2\ncell_size = "
                            "0.01 0.01 0.01\n[time]\nsteps = 4\n"),
              4, "grid.cell_size", "1 or 2 numbers (dr dz)");
  check_error(error_of_text("[grid]\nsize = 0.1 0.2 0.3\ncell_size = 0.01\nmodes = 1\n[time]\nsteps = 4\n"),
              4, "grid.modes", "no grid.modes in a Cartesian model");
  check_error(error_of_text(kHeadCyl + "layers = 2 2\n"), 8, "boundary.layers", "integers");
  for (const char* layers : {"1 2 3 4", "1 2 3 4 5 6"})
    check_error(error_of_text(kHeadCyl + "layers = " + layers + "\n"), 8, "boundary.layers",
                "1 or 3 integers (r_hi z_lo z_hi)");
  check_error(error_of_text(kHeadCyl + "[device]\nvariant = onepass\n"), 9, "device.variant",
              "auto, tile or rows in a cylindrical model");
  check_error(error_of_text(kHeadCyl + "[monitor.f]\ntype = dft\nbox = 0 0 0.1 0.1\n"), 9,
              "monitor.f.type", "flux in a cylindrical model");
}

TEST_CASE("cylindrical position refusals: outside 0 <= r <= R, 0 <= z <= Z, phi, axis words") {
  const std::string src = "[source.s]\nfrequency = 3e9\n";  // lines 8-9
  check_error(error_of_text(kHeadCyl + src + "position = 0.11 0 0.1\n"), 10, "source.s.position",
              "0 <= r <= 0.1 m and 0 <= z <= 0.2 m");
  check_error(error_of_text(kHeadCyl + src + "position = 0.05 0 -0.01\n"), 10, "source.s.position",
              "0 <= r <= 0.1 m");
  check_error(error_of_text(kHeadCyl + src + "position = 0.05 361 0.1\n"), 10, "source.s.position",
              "phi in [-360, 360] degrees");
  check_error(error_of_text(kHeadCyl + src + "position = 0.05 0.1\n"), 10, "source.s.position",
              "three numbers r phi z");
  check_error(error_of_text(kHeadCyl + src + "position = 0.05 0 0.1\naxis = x\n"), 11,
              "source.s.axis", "r, phi or z in a cylindrical model");
  check_error(error_of_text(kHeadCyl + src + "position = 0 0 0.1\naxis = phi\n"), 11,
              "source.s.axis", "z for a source on the axis");
  check_error(error_of_text(kHeadCyl + src + "position = 0 30 0.1\naxis = r\n"), 11,
              "source.s.axis", "z for a source on the axis");
  const std::string probe = "[probe.p]\n";  // line 8
  check_error(error_of_text(kHeadCyl + probe + "position = 0.05 -400 0.1\n"), 9, "probe.p.position",
              "phi in [-360, 360] degrees");
  check_error(error_of_text(kHeadCyl + probe + "position = 0.05 0 0.3\n"), 9, "probe.p.position",
              "0 <= z <= 0.2 m");
  check_error(error_of_text(kHeadCyl + probe + "position = 0.05 0 0.1\nfields = Ez Ex\n"), 10,
              "probe.p.fields", "Er Ephi Ez Hr Hphi Hz in a cylindrical model");
  // And the other way round: cylindrical words in a Cartesian model.
  const std::string cart = "[grid]\nsize = 0.1 0.1 0.1\ncell_size = 0.01\n[time]\nsteps = 4\n";
  check_error(error_of_text(cart + "[probe.p]\nposition = 0.05 0.05 0.05\nfields = Er\n"), 8,
              "probe.p.fields", "Ex Ey Ez Hx Hy Hz in a Cartesian model");
  check_error(error_of_text(cart + "[source.s]\nfrequency = 3e9\nposition = 0.05 0.05 0.05\naxis = "
                                   "phi\n"),
              9, "source.s.axis", "x, y or z in a Cartesian model");
  check_error(error_of_text(cart + "[snapshot]\nphi_samples = 4\n"), 7, "snapshot.phi_samples",
              "no snapshot.phi_samples in a Cartesian model");
}

TEST_CASE("cylindrical object and snapshot refusals") {
  check_error(error_of_text(kHeadCyl + "[object.b]\nshape = sphere\ncenter = 0.02 0.1\nradius = "
                                       "0.01\nmaterial = pec\n"),
              10, "object.b.center", "a centre on the axis, r = 0, for a sphere");
  check_error(error_of_text(kHeadCyl + "[object.p]\nshape = prism\ncenter = 0 0.1\nvertices = 0 0 "
                                       "0.01 0 0 0.01\nmaterial = pec\n"),
              9, "object.p.shape", "box, sphere or cylinder in a cylindrical model");
  check_error(error_of_text(kHeadCyl + "[object.c]\nshape = cylinder\ncenter = 0 0.1\nradius = "
                                       "0.01\nlength = 0.02\naxis = x\nmaterial = pec\n"),
              13, "object.c.axis", "z in a cylindrical model");
  check_error(error_of_text(kHeadCyl + "[object.r]\nshape = box\ncenter = 0.01 0.1\nsize = 0.04 "
                                       "0.02\nmaterial = pec\n"),
              11, "object.r.size", "r0 = center r - size r / 2 >= 0");
  check_error(error_of_text(kHeadCyl + "[object.r]\nshape = box\ncenter = 0.01 0 0.1\n"), 10,
              "object.r.center", "two numbers r z");
  check_error(error_of_text(kHeadCyl + "[snapshot]\nphi_samples = 3601\n"), 9,
              "snapshot.phi_samples", "[0, 3600]");
  check_error(error_of_text(kHeadCyl + "[snapshot]\nphi_samples = -1\n"), 9,
              "snapshot.phi_samples", "[0, 3600]");
  // A box from the axis outward is a solid cylinder: r0 = 0 is accepted.
  const RunConfig ok = load_config_text(
      kHeadCyl + "[object.r]\nshape = box\ncenter = 0.02 0.1\nsize = 0.04 0.02\nmaterial = pec\n",
      "c.ini", {});
  CHECK(ok.objects.size() == 1);
}
