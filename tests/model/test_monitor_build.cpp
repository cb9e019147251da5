// MonitorConfig -> MonitorModel (host/model/monitor_build.hpp): nodes, faces, the Yee regions the
// device transforms, on_wall, the refusals that need the grid, UPML warnings, host bytes.
#include <doctest/doctest.h>

#include <array>
#include <complex>
#include <cstdlib>
#include <string>
#include <vector>

#include "config/load_config.hpp"
#include "errors.hpp"
#include "model/input_limits.hpp"
#include "model/monitor_build.hpp"
#include "model/simulation_model.hpp"
#include "monitors/mode_file.hpp"
#include "model_helpers.hpp"

using namespace clfdtd;

namespace {

using I3 = std::array<int, 3>;

// model_helpers.hpp's 20^3 grid of 1 cm cells (5 UPML layers) with one monitor.
RunConfig with_monitor(MonitorKind kind, Vec3 lo, Vec3 hi) {
  RunConfig cfg = small_dipole_config();
  cfg.sources[0].amplitude = 1e-12;
  MonitorConfig m;
  m.name = "m";
  m.kind = kind;
  m.box_lo = lo;
  m.box_hi = hi;
  m.frequencies_hz = {1e9, 2e9};
  if (kind == MonitorKind::Dft) m.fields = {Component::Ez, Component::Hx};
  cfg.monitors.push_back(m);
  cfg.lines["monitor.m.box"] = 30;
  cfg.lines["monitor.m.frequencies"] = 31;
  return cfg;
}

bool same_region(const DftRegion& r, Component c, I3 lo, I3 hi) {
  return r.component == c && r.lo == lo && r.hi == hi;
}

std::string build_error(const RunConfig& cfg, const std::string& key, int line) {
  try {
    SimulationModel::build(cfg);
  } catch (const ConfigError& e) {
    CHECK(e.key() == key);
    CHECK(e.line() == line);
    return e.expected();
  }
  FAIL("expected a ConfigError on " << key);
  return "";
}

}  // namespace

TEST_CASE("box corners round to the nearest node, within the grid") {
  const GridGeometry g = derive_grid_geometry(small_dipole_config());
  CHECK(box_nodes(Vec3{0.054, 0.056, 0.2}, g) == I3{5, 6, 20});
  CHECK(box_nodes(Vec3{0, 0.0049, 0.0051}, g) == I3{0, 0, 1});
}

TEST_CASE("a closed flux box: six faces, x then y then z, low (normal -1) before high (+1)") {
  const RunConfig cfg = with_monitor(MonitorKind::Flux, {0.07, 0.07, 0.07}, {0.13, 0.12, 0.11});
  const SimulationModel m = SimulationModel::build(cfg);
  REQUIRE(m.monitors.size() == 1);
  const MonitorModel& mon = m.monitors[0];
  CHECK(mon.name == "m");
  CHECK(mon.lo == I3{7, 7, 7});
  CHECK(mon.hi == I3{13, 12, 11});
  CHECK(mon.frequencies_hz == std::vector<double>{1e9, 2e9});
  REQUIRE(mon.faces.size() == 6);
  const int axis[] = {0, 0, 1, 1, 2, 2}, plane[] = {7, 13, 7, 12, 7, 11},
            normal[] = {-1, 1, -1, 1, -1, 1};
  for (int f = 0; f < 6; ++f) {
    INFO("face " << f);
    CHECK(mon.faces[f].axis == axis[f]);
    CHECK(mon.faces[f].plane == plane[f]);
    CHECK(mon.faces[f].normal == normal[f]);
    CHECK_FALSE(mon.faces[f].on_wall);
    I3 lo = mon.lo, hi = mon.hi;
    lo[axis[f]] = hi[axis[f]] = plane[f];
    CHECK(mon.faces[f].lo == lo);
    CHECK(mon.faces[f].hi == hi);
  }
  // x-low face (axis 0, plane 7; tangential y 7..12, z 7..11): E_y, E_z, H_y, H_z.
  REQUIRE(mon.regions.size() == 24);
  CHECK(same_region(mon.regions[0], Component::Ey, {7, 7, 7}, {8, 12, 12}));
  CHECK(same_region(mon.regions[1], Component::Ez, {7, 7, 7}, {8, 13, 11}));
  CHECK(same_region(mon.regions[2], Component::Hy, {6, 7, 7}, {8, 13, 11}));
  CHECK(same_region(mon.regions[3], Component::Hz, {6, 7, 7}, {8, 12, 12}));
  // z-high face (axis 2, plane 11; tangential x 7..13, y 7..12): E_x, E_y, H_x, H_y.
  CHECK(same_region(mon.regions[20], Component::Ex, {7, 7, 11}, {13, 13, 12}));
  CHECK(same_region(mon.regions[21], Component::Ey, {7, 7, 11}, {14, 12, 12}));
  CHECK(same_region(mon.regions[22], Component::Hx, {7, 7, 10}, {14, 12, 12}));
  CHECK(same_region(mon.regions[23], Component::Hy, {7, 7, 10}, {13, 13, 12}));
  std::size_t points = 0;
  for (const auto& r : mon.regions) points += r.count();
  CHECK(mon.points() == points);
  CHECK(warnings_of(m).empty());
}

TEST_CASE("a flux plane: one face at the zero extent, normal +axis") {
  const RunConfig cfg = with_monitor(MonitorKind::Flux, {0.06, 0.08, 0.1}, {0.14, 0.08, 0.12});
  const MonitorModel mon = SimulationModel::build(cfg).monitors.at(0);
  REQUIRE(mon.faces.size() == 1);
  CHECK(mon.faces[0].axis == 1);
  CHECK(mon.faces[0].plane == 8);
  CHECK(mon.faces[0].normal == 1);
  CHECK(mon.faces[0].lo == I3{6, 8, 10});
  CHECK(mon.faces[0].hi == I3{14, 8, 12});
  // Tangential axes x (b) and z (c): E_x, E_z, H_x, H_z.
  REQUIRE(mon.regions.size() == 4);
  CHECK(same_region(mon.regions[0], Component::Ex, {6, 8, 10}, {14, 9, 13}));
  CHECK(same_region(mon.regions[1], Component::Ez, {6, 8, 10}, {15, 9, 12}));
  CHECK(same_region(mon.regions[2], Component::Hx, {6, 7, 10}, {15, 9, 12}));
  CHECK(same_region(mon.regions[3], Component::Hz, {6, 7, 10}, {14, 9, 13}));
}

TEST_CASE("faces on the outer wall: regions clipped to the grid, on_wall with a pec boundary") {
  RunConfig cfg = with_monitor(MonitorKind::Flux, {0, 0, 0}, {0.2, 0.2, 0.2});
  cfg.boundary.type = BoundaryType::Pec;
  cfg.boundary.layers = {0, 0, 0, 0, 0, 0};
  const SimulationModel m = SimulationModel::build(cfg);
  const MonitorModel& mon = m.monitors.at(0);
  REQUIRE(mon.faces.size() == 6);
  for (const MonitorFace& f : mon.faces) CHECK(f.on_wall);
  // x-low (plane 0): E rows at node 20 of the tangential axis are past the end; H at cell -1 too.
  // x-high (plane 20): tangential E on the wall lies past the end (it is zero): only H is left.
  const std::vector<DftRegion> low = face_regions(mon.faces[0], m.grid.n);
  REQUIRE(low.size() == 4);
  CHECK(same_region(low[0], Component::Ey, {0, 0, 0}, {1, 20, 20}));
  CHECK(same_region(low[2], Component::Hy, {0, 0, 0}, {1, 20, 20}));
  const std::vector<DftRegion> high = face_regions(mon.faces[1], m.grid.n);
  REQUIRE(high.size() == 2);
  CHECK(same_region(high[0], Component::Hy, {19, 0, 0}, {20, 20, 20}));
  CHECK(same_region(high[1], Component::Hz, {19, 0, 0}, {20, 20, 20}));
  CHECK(mon.regions.size() == 18);  // 3 low faces x 4 + 3 high faces x 2
  CHECK(warnings_of(m).empty());        // no UPML anywhere
}

TEST_CASE("on_wall needs 0 UPML layers on that face; a face in the layers is a warning") {
  RunConfig cfg = with_monitor(MonitorKind::FarField, {0, 0.06, 0.06}, {0.1, 0.14, 0.14});
  cfg.boundary.layers = {0, 5, 5, 5, 5, 5};  // bare PEC at x = 0 only
  SimulationModel m = SimulationModel::build(cfg);
  REQUIRE(m.monitors.at(0).faces.size() == 6);
  CHECK(m.monitors[0].faces[0].on_wall);  // x-low at x = 0
  for (int f = 1; f < 6; ++f) CHECK_FALSE(m.monitors[0].faces[f].on_wall);
  CHECK(warnings_of(m).empty());
  // The same box with layers at x = 0: its x-low face lies in them.
  cfg.boundary.layers = {5, 5, 5, 5, 5, 5};
  m = SimulationModel::build(cfg);
  CHECK_FALSE(m.monitors.at(0).faces[0].on_wall);
  // Every face but x-high reaches x < 5 cells (the x-low face, and the others' tangential span).
  REQUIRE(warnings_of(m).size() == 1);
  CHECK(warnings_of(m)[0] ==
        "monitor 'm': its faces x-low (x = 0 m), y-low (y = 0.06 m), y-high (y = 0.14 m), z-low "
        "(z = 0.06 m), z-high (z = 0.14 m) read fields inside the UPML layers; the far-field "
        "transform assumes free space there (keep the box at least one cell clear of the layers)");

}

TEST_CASE("UPML warning: a box on the layers' inner edge reads H inside them, one cell in does not") {
  RunConfig cfg = with_monitor(MonitorKind::Flux, {0.05, 0.05, 0.05}, {0.15, 0.15, 0.15});
  SimulationModel m = SimulationModel::build(cfg);
  REQUIRE(warnings_of(m).size() == 1);  // one line per monitor
  CHECK(warnings_of(m)[0].find("its faces x-low (x = 0.05 m), x-high (x = 0.15 m), y-low") !=
        std::string::npos);
  CHECK(warnings_of(m)[0].find(", z-high (z = 0.15 m) read fields inside the UPML layers; the flux "
                           "there is not the free-space one") != std::string::npos);
  // x from 0.05 m: only the x-low face reads H inside (cell 4); the other faces start at node 5.
  cfg.monitors[0].box_lo = Vec3{0.05, 0.06, 0.06};
  cfg.monitors[0].box_hi = Vec3{0.14, 0.14, 0.14};
  m = SimulationModel::build(cfg);
  REQUIRE(warnings_of(m).size() == 1);
  CHECK(warnings_of(m)[0].find("its face x-low (x = 0.05 m) reads fields inside") != std::string::npos);
  cfg.monitors[0].box_lo = Vec3{0.06, 0.06, 0.06};
  cfg.monitors[0].box_hi = Vec3{0.14, 0.14, 0.14};
  m = SimulationModel::build(cfg);
  CHECK(warnings_of(m).empty());
  // A plane across the whole domain crosses the side layers.
  cfg.monitors[0].box_lo = Vec3{0, 0, 0.1};
  cfg.monitors[0].box_hi = Vec3{0.2, 0.2, 0.1};
  m = SimulationModel::build(cfg);
  REQUIRE(warnings_of(m).size() == 1);
  CHECK(warnings_of(m)[0].find("its plane (z = 0.1 m) reads fields inside") != std::string::npos);
}

TEST_CASE("dft: one region per component in config order, a zero extent takes one cell") {
  RunConfig cfg = with_monitor(MonitorKind::Dft, {0.05, 0.06, 0.2}, {0.15, 0.09, 0.2});
  const SimulationModel m = SimulationModel::build(cfg);
  const MonitorModel& mon = m.monitors.at(0);
  CHECK(mon.faces.empty());
  REQUIRE(mon.regions.size() == 2);
  CHECK(same_region(mon.regions[0], Component::Ez, {5, 6, 19}, {15, 9, 20}));  // lo = n: cell n-1
  CHECK(same_region(mon.regions[1], Component::Hx, {5, 6, 19}, {15, 9, 20}));
  CHECK(mon.points() == 2 * 10 * 3);
  CHECK(warnings_of(m).empty());  // only flux and farfield faces are checked against the UPML
  // A box: every axis lo .. hi - 1; a plane at z = 0.1: the cell at index 10.
  const auto box = dft_regions({5, 6, 7}, {15, 9, 8}, m.grid.n, {Component::Hz});
  REQUIRE(box.size() == 1);
  CHECK(same_region(box[0], Component::Hz, {5, 6, 7}, {15, 9, 8}));
  const auto plane = dft_regions({5, 6, 10}, {15, 9, 10}, m.grid.n, {Component::Ex});
  CHECK(same_region(plane.at(0), Component::Ex, {5, 6, 10}, {15, 9, 11}));
}

TEST_CASE("a farfield box on both bare PEC walls of one axis is refused; on one wall it is not") {
  RunConfig cfg = with_monitor(MonitorKind::FarField, {0.05, 0.05, 0}, {0.15, 0.15, 0.2});
  cfg.boundary.layers = {5, 5, 5, 5, 0, 0};
  const std::string what = build_error(cfg, "monitor.m.box", 30);
  CHECK(what.find("at most one of the two walls across z") != std::string::npos);
  cfg.monitors[0].box_hi.z = 0.1;
  const SimulationModel m = SimulationModel::build(cfg);
  CHECK(m.monitors.at(0).faces.at(4).on_wall);
  CHECK_FALSE(m.monitors.at(0).faces.at(5).on_wall);
}

TEST_CASE("an extent that rounds to no cell and a frequency the grid cannot carry are refused") {
  RunConfig cfg = with_monitor(MonitorKind::Flux, {0.07, 0.07, 0.07}, {0.074, 0.13, 0.13});
  std::string what = build_error(cfg, "monitor.m.box", 30);
  INFO(what);
  CHECK(what.find("a box whose x extent spans at least one cell (0.01 m) or is zero: 0.07 to "
                  "0.074 m both round to node 7") != std::string::npos);
  cfg = with_monitor(MonitorKind::Flux, {0.07, 0.07, 0.07}, {0.13, 0.13, 0.13});
  const double cutoff = grid_cutoff_frequency_hz(cfg, derive_grid_geometry(cfg));
  cfg.monitors[0].frequencies_hz = {1e9, cutoff * 1.01};
  what = build_error(cfg, "monitor.m.frequencies", 31);
  CHECK(what.find("the highest a wave on this grid can have") != std::string::npos);
  cfg.monitors[0].frequencies_hz = {cutoff};
  CHECK_NOTHROW(SimulationModel::build(cfg));
}

TEST_CASE("host bytes count the transforms read back and the mode arrays") {
  RunConfig cfg = with_monitor(MonitorKind::Dft, {0.05, 0.05, 0.05}, {0.15, 0.15, 0.15});
  const GridGeometry g = derive_grid_geometry(cfg);
  const FieldLayout layout(g.n[0], g.n[1], g.n[2]);
  std::vector<std::string> warnings;
  std::vector<MonitorModel> monitors = build_monitors(cfg, g, warnings);
  REQUIRE(monitors.at(0).points() == 2 * 1000);
  CHECK(monitor_host_bytes(monitors, g, layout) == 2000 * 2 * 16);
  CHECK(model_host_bytes(cfg, g, false, monitors) ==
        model_host_bytes(cfg, g, false) + 2000 * 2 * 16);
  MonitorModel modes;
  modes.kind = MonitorKind::Modes;
  modes.nmodes = 7;
  monitors.push_back(modes);
  CHECK(monitor_host_bytes(monitors, g, layout) == 2000 * 2 * 16 + 7 * 3 * layout.cells() * 4);
}

TEST_CASE("host bytes count a farfield monitor's surface fields") {
  // 6 x 5 x 4 cells: faces of 5 x 4, 6 x 4 and 6 x 5 cell faces, two of each, 148 points; per
  // point a SurfacePoint (40 B) and per frequency E and H (48 B each), and the two frequencies'
  // arrays of E and H.
  RunConfig cfg = with_monitor(MonitorKind::FarField, {0.07, 0.07, 0.07}, {0.13, 0.12, 0.11});
  const GridGeometry g = derive_grid_geometry(cfg);
  const FieldLayout layout(g.n[0], g.n[1], g.n[2]);
  std::vector<std::string> warnings;
  const std::vector<MonitorModel> monitors = build_monitors(cfg, g, warnings);
  REQUIRE(monitors.size() == 1);
  CHECK(surface_point_count(monitors[0]) == 148);
  const std::size_t surface = 148 * 40 + 2 * 2 * (148 * 48 + sizeof(std::vector<std::array<std::complex<double>, 3>>));
  CHECK(monitor_host_bytes(monitors, g, layout) == monitors[0].points() * 2 * 16 + surface);
  CHECK(model_host_bytes(cfg, g, false, monitors) ==
        model_host_bytes(cfg, g, false) + monitors[0].points() * 2 * 16 + surface);
}

TEST_CASE("the host-memory refusal counts the monitors") {
  // A dft of all six components over the whole 20^3 grid at 1000 frequencies: 768 MB read back.
  RunConfig cfg = with_monitor(MonitorKind::Dft, {0, 0, 0}, {0.2, 0.2, 0.2});
  cfg.monitors[0].fields = {Component::Ex, Component::Ey, Component::Ez,
                            Component::Hx, Component::Hy, Component::Hz};
  cfg.monitors[0].frequencies_hz.assign(1000, 1e9);
  ::setenv("CLFDTD_HOST_MEMORY_LIMIT", "5e8", 1);
  CHECK_THROWS_AS(SimulationModel::build(cfg), OutOfMemoryError);
  cfg.monitors[0].frequencies_hz.assign(10, 1e9);
  CHECK_NOTHROW(SimulationModel::build(cfg));
  ::unsetenv("CLFDTD_HOST_MEMORY_LIMIT");
}

namespace {
// models/cavity_modes.ini's grid (12 x 10 x 8 cells of 2 cm, pec) with a modes monitor.
RunConfig cavity_config(const std::string& modes_file) {
  RunConfig cfg = load_config("models/cavity_modes.ini", {"--time.steps=10"});
  cfg.monitors.at(0).modes_file = modes_file;
  return cfg;
}
}  // namespace

TEST_CASE("modes: the mode count from the file's header, the arrays in the fields' layout") {
  if (!mode_files_readable()) {
    MESSAGE("skipped: this build has no VTK to read modes files");
    return;
  }
  const SimulationModel m = SimulationModel::build(cavity_config("models/cavity_modes.vti"));
  const MonitorModel& mon = m.monitors.at(0);
  CHECK(mon.kind == MonitorKind::Modes);
  CHECK(mon.nmodes == 10);
  CHECK(mon.every == 1);
  CHECK(mon.lo == I3{0, 0, 0});
  CHECK(mon.hi == I3{12, 10, 8});
  CHECK(mon.regions.empty());
  REQUIRE(mon.modes.size() == 10 * 3 * m.layout.cells());
  // Unit norm: sum |mode|^2 dV = 1 (tools/cavity_modes normalises them so).
  const double dv = 0.02 * 0.02 * 0.02;
  double norm = 0;
  for (std::size_t i = 0; i < 3 * m.layout.cells(); ++i) norm += double(mon.modes[i]) * mon.modes[i];
  CHECK(norm * dv == doctest::Approx(1).epsilon(1e-4));
  CHECK(model_host_bytes(load_config("models/cavity_modes.ini", {}), m.grid, false, m.monitors) ==
        model_host_bytes(load_config("models/cavity_modes.ini", {}), m.grid, false) +
            10 * 3 * m.layout.cells() * sizeof(float));
}

TEST_CASE("modes: a missing file or one on another grid is refused naming the key") {
  try {
    SimulationModel::build(cavity_config("tests/data/no_such_modes.vti"));
    FAIL("no ConfigError");
  } catch (const ConfigError& e) {
    CHECK(e.key() == "monitor.modes.modes_file");
    CHECK(e.file() == "tests/data/no_such_modes.vti");
  }
  RunConfig cfg = cavity_config("models/cavity_modes.vti");
  cfg.grid.size_m = Vec3{0.26, 0.2, 0.16};  // 13 x 10 x 8 cells
  try {
    SimulationModel::build(cfg);
    FAIL("no ConfigError");
  } catch (const ConfigError& e) {
    INFO(e.what());
    CHECK(e.key() == "monitor.modes.modes_file");
  }
}
