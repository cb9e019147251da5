// 2D keys: grid.size with two numbers, grid.mode / grid.equation, two-number positions and sizes,
// four UPML layers, and every 2D refusal with its file, line and key.
#include <doctest/doctest.h>

#include "config/load_config.hpp"
#include "errors.hpp"

using namespace clfdtd;

namespace {

// A te plane of 20 x 10 cells: lines 1-6 are the grid and time.
const std::string kHead2d =
    "[grid]\nsize = 0.2 0.1\ncell_size = 0.01\n[time]\nsteps = 40\n[boundary]\n";  // 6 lines

ConfigError error_of_text(const std::string& text, const std::vector<std::string>& args = {}) {
  try {
    load_config_text(text, "p.ini", args);
  } catch (const ConfigError& e) {
    return e;
  }
  FAIL("no ConfigError for " << text);
  return ConfigError("", 0, "", "");
}

void check_error(const ConfigError& e, const std::string& file, int line, const std::string& key,
                 const std::string& text) {
  INFO(std::string(e.what()));
  CHECK(e.file() == file);
  CHECK(e.line() == line);
  CHECK(e.key() == key);
  CHECK(e.expected().find(text) != std::string::npos);
}

}  // namespace

TEST_CASE("a 2D model: two-number grid, positions and sizes, four layers, default probe fields") {
  const RunConfig cfg = load_config_text(
      "[grid]\nsize = 0.2 0.1\ncell_size = 0.01 0.02\nmode = te\n[time]\nsteps = 40\n"
      "[boundary]\nlayers = 3 4 2 1\n"
      "[object.r]\nshape = box\ncenter = 0.1 0.05\nsize = 0.04 0.02\nmaterial = pec\n"
      "[object.d]\nshape = sphere\ncenter = 0.15 0.05\nradius = 0.01\nmaterial = vacuum\n"
      "[source.s]\ntype = current\naxis = y\nposition = 0.06 0.05\nfrequency = 3e9\n"
      "[probe.p]\nposition = 0.07 0.04\n",
      "p.ini", {});
  CHECK(cfg.grid.dims == 2);
  CHECK(cfg.grid.mode == PlaneMode::Te);
  CHECK(cfg.grid.equation == Equation::Maxwell);
  CHECK(cfg.grid.size_m.x == 0.2);
  CHECK(cfg.grid.size_m.y == 0.1);
  CHECK(cfg.grid.size_m.z == 1.0);  // one metre of depth
  REQUIRE(cfg.grid.cell_size_m);
  CHECK(cfg.grid.cell_size_m->x == 0.01);
  CHECK(cfg.grid.cell_size_m->y == 0.02);
  CHECK(cfg.grid.cell_size_m->z == 1.0);
  CHECK(cfg.boundary.layers == std::array<int, 6>{3, 4, 2, 1, 0, 0});
  REQUIRE(cfg.objects.size() == 2);
  CHECK(cfg.objects[0].center.z == 0);
  CHECK(cfg.objects[0].size.x == 0.04);
  CHECK(cfg.objects[0].size.y == 0.02);
  CHECK(cfg.sources[0].axis == Axis::Y);
  CHECK(cfg.sources[0].position.y == 0.05);
  // A probe without fields records the model's components.
  CHECK(cfg.probes[0].fields ==
        std::vector<Component>{Component::Ex, Component::Ey, Component::Hz});

  // One layer count for all four faces; the wave equation (tm by default); square cells.
  const RunConfig w =
      load_config_text(kHead2d + "layers = 5\n[probe.p]\nposition = 0.1 0.05\n", "p.ini",
                       {"--grid.equation=wave"});
  CHECK(w.grid.mode == PlaneMode::Tm);
  CHECK(w.grid.equation == Equation::Wave);
  CHECK(w.boundary.layers == std::array<int, 6>{5, 5, 5, 5, 0, 0});
  CHECK(w.grid.cell_size_m->y == 0.01);
  CHECK(w.probes[0].fields == std::vector<Component>{Component::Ez});
}

TEST_CASE("2D keys refused with file, line and key") {
  struct Case {
    const char* body;  // after kHead2d (6 lines)
    int line;
    const char* key;
    const char* text;
  };
  const Case cases[] = {
      {"layers = 1 2 3 4 5 6\n", 7, "boundary.layers",
       "1 or 4 integers (x_lo x_hi y_lo y_hi) in a 2D model, got '1 2 3 4 5 6'"},
      {"[object.o]\nshape = box\ncenter = 0.1 0.05 0\nsize = 0.01 0.01\nmaterial = pec\n", 9,
       "object.o.center", "two numbers x y in a 2D model"},
      {"[object.o]\nshape = box\ncenter = 0.1 0.05\nsize = 0.01 0.01 0.01\nmaterial = pec\n", 10,
       "object.o.size", "two numbers x y in a 2D model"},
      {"[object.o]\nshape = cylinder\ncenter = 0.1 0.05\nradius = 0.01\nmaterial = pec\n", 8,
       "object.o.shape", "box, sphere or prism in a 2D model (cylinder, mesh and voxels are not meaningful in 2D)"},
      {"[object.o]\nshape = prism\ncenter = 0.1 0.05\nvertices = 0 0 0.01 0 0 0.01\nlength = 1\nmaterial = pec\n", 11,
       "object.o.length", "no length for a prism (cylinder, and prism in a 3D model only)"},
      {"[object.o]\nshape = box\ncenter = 0.3 0.05\nsize = 0.01 0.01\nmaterial = pec\n", 9,
       "object.o.center", "a point inside the domain [0, 0.2] x [0, 0.1] m"},
      {"[source.s]\naxis = x\nposition = 0.1 0.05\nfrequency = 1e9\n", 8, "source.s.axis",
       "z in a tm model (E is Ez), got x"},
      {"[probe.p]\nposition = 0.1 0.05\nfields = Ez Hz\n", 9, "probe.p.fields",
       "fields among Ez, Hx, Hy in a tm model, got Hz"},
      {"[device]\nvariant = onepass\n", 8, "device.variant", "onepass is 3D only"},
      {"[device]\nvariant = tblock\n", 8, "device.variant", "onepass is 3D only, tblock too"},
  };
  for (const auto& c : cases) {
    SUBCASE(c.body) { check_error(error_of_text(kHead2d + c.body), "p.ini", c.line, c.key, c.text); }
  }
}

TEST_CASE("te and wave refusals; grid.mode and grid.equation only in 2D") {
  const std::string te = "[grid]\nsize = 0.2 0.1\ncell_size = 0.01\nmode = te\n[time]\nsteps = 40\n";
  // The default axis z: the error points at the source's section.
  check_error(error_of_text(te + "[source.s]\nposition = 0.1 0.05\nfrequency = 1e9\n"), "p.ini", 7,
              "source.s.axis",
              "x or y in a te model (E lies in the plane), got no axis (the default is z)");
  check_error(error_of_text(te + "[source.s]\nposition = 0.1 0.05\nfrequency = 1e9\naxis = z\n"),
              "p.ini", 10, "source.s.axis", "x or y in a te model (E lies in the plane), got z");
  // Plane waves: E in the plane in te, along z in tm; travelling in the plane.
  const std::string pw = "[source.w]\ntype = plane_wave\nposition = 0.1 0.05\nsize = 0.06 0.04\n"
                         "frequency = 1e9\n";
  check_error(error_of_text(te + pw + "direction = +x\n"), "p.ini", 7, "source.w.axis",
              "x or y in a te model (E lies in the plane), got no axis (the default is z)");
  check_error(error_of_text(te + pw + "axis = x\ndirection = +z\n"), "p.ini", 13, "source.w.direction",
              "+x, -x, +y or -y in a 2D model");
  const std::string tm = "[grid]\nsize = 0.2 0.1\ncell_size = 0.01\n[time]\nsteps = 40\n";
  check_error(error_of_text(tm + pw + "axis = y\ndirection = +x\n"), "p.ini", 11, "source.w.axis",
              "z in a tm model (E is Ez), got y");
  CHECK(load_config_text(te + pw + "axis = y\ndirection = -x\n", "p.ini", {}).plane_waves.size() == 1);
  check_error(error_of_text("[grid]\nsize = 0.2 0.1\ncell_size = 0.01\nmode = te\nequation = wave\n"
                            "[time]\nsteps = 40\n"),
              "p.ini", 5, "grid.equation", "maxwell with grid.mode = te (the wave equation is tm only)");

  const std::string wave =
      "[grid]\nsize = 0.2 0.1\ncell_size = 0.01\nequation = wave\n[time]\nsteps = 40\n";
  check_error(error_of_text(wave + "[material.f]\nmu_r = 2\n"), "p.ini", 8, "material.f.mu_r",
              "1 in a wave model");
  check_error(error_of_text(wave + "[output]\nenergy = true\n"), "p.ini", 8, "output.energy",
              "false in a wave model");
  check_error(error_of_text(wave + "[probe.p]\nposition = 0.1 0.05\nfields = Ez Hx\n"), "p.ini",
              9, "probe.p.fields", "fields among Ez in a wave (grid.equation = wave) model, got Hx");
  check_error(error_of_text(wave + "[monitor.m]\ntype = flux\nbox = 0.02 0.02 0.08 0.08\n"
                                   "frequencies = 1e9\n"),
              "p.ini", 8, "monitor.m.type", "dft or modes in a wave model (flux needs H");

  // 3D: the 2D keys and counts are refused.
  const std::string cube = "[grid]\nsize = 1 1 1\nmax_frequency = 1e9\n[time]\nsteps = 10\n";
  check_error(error_of_text(cube, {"--grid.mode=te"}), "", 0, "grid.mode",
              "no grid.mode in a 3D model (2D only: grid.size with two numbers)");
  check_error(error_of_text(cube + "[probe.p]\nposition = 0.5 0.5\n"), "p.ini", 7,
              "probe.p.position", "three numbers x y z in a 3D model");
  check_error(error_of_text(cube + "[boundary]\nlayers = 1 2 3 4\n"), "p.ini", 7,
              "boundary.layers", "1 or 6 integers");
  check_error(error_of_text("[grid]\nsize = 1 1\ncell_size = 0.1 0.1 0.1\n[time]\nsteps = 1\n"),
              "p.ini", 3, "grid.cell_size", "1 or 2 numbers (dx dy) in a 2D model");
}
