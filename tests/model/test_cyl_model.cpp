// SimulationModel::build for cylindrical configs: the (nr, 1, nz) grid and its Courant step, ids of
// a ring and a sphere at known (r, z) samples with the z = 0 wall and no wall on the axis, the
// CPML layers, the sources' mode factors (off and on the axis), the probes' angle, the refusals
// that need the grid, and the device byte count.
#include <doctest/doctest.h>

#include <cmath>
#include <complex>

#include "config/load_config.hpp"
#include "errors.hpp"
#include "model/simulation_model.hpp"
#include "model/waveforms.hpp"
#include "model_helpers.hpp"

using namespace clfdtd;

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr std::uint8_t kPec = MaterialTable::kPec;
constexpr std::uint8_t kVac = MaterialTable::kVacuum;

// R = 0.1 m in 10 cells of 1 cm, Z = 0.2 m in 10 cells of 2 cm, modes 0 and 2.
const std::string kHead =
    "[grid]\ncoordinates = cylindrical\nsize = 0.1 0.2\ncell_size = 0.01 0.02\nmodes = 2 0\n"
    "[time]\nsteps = 20\n[boundary]\nlayers = 3 2 1\n";

SimulationModel build_cyl(const std::string& text) { return build_text(text, "c.ini"); }

ConfigError build_error(const std::string& text) {
  try {
    build_cyl(text);
  } catch (const ConfigError& e) {
    return e;
  }
  FAIL("no ConfigError for " << text);
  return ConfigError("", 0, "", "");
}

std::uint8_t id_at(const SimulationModel& m, Component c, int i, int k) {
  return m.id(c)[m.layout.index(i, 0, k)];
}

}  // namespace

TEST_CASE("cylindrical grid: n = {nr, 1, nz}, d = {dr, 1, dz}, dt from the largest mode") {
  const SimulationModel m = build_cyl(kHead);
  CHECK(m.cylindrical());
  CHECK_FALSE(m.two_d());
  CHECK(m.grid.dims == 3);
  CHECK(m.grid.n == std::array<int, 3>{10, 1, 10});
  CHECK(m.grid.d == std::array<double, 3>{0.01, 1.0, 0.02});
  CHECK(m.grid.modes == std::vector<int>{0, 2});
  // ((m_max + 1)^2 + 1/4) / dr^2: the m = 0 axis cell's spectral radius needs the 1/4.
  const double limit = 1 / (kC0 * std::sqrt((9 + 0.25) / (0.01 * 0.01) + 1 / (0.02 * 0.02)));
  CHECK(m.grid.dt == doctest::Approx(0.9 * limit).epsilon(1e-12));
  CHECK(m.layout.nx == 10);
  CHECK(m.layout.ny == 1);
  CHECK(m.layout.nz == 10);
  CHECK(m.layout.nzp() == 12);
  CHECK(m.cell_ids.size() == 100u);
  CHECK(m.active_components().size() == 6u);
  for (Component c : {Component::Ex, Component::Ey, Component::Ez}) CHECK(m.id(c).size() == 120u);
  CHECK(m.id(Component::Hz).empty());  // H ids only with a magnetic material
  CHECK(m.upml.layers == std::array<int, 6>{0, 3, 0, 0, 2, 1});
  // r slab 3 x 10 cells, z slabs (2 + 1) x 7 cells inside it.
  CHECK(m.upml.cells == 3u * 10 + 3u * 7);
  CHECK(m.upml.in_pml(7, 0, 5, m.grid.n));
  CHECK_FALSE(m.upml.in_pml(0, 0, 5, m.grid.n));  // no layer on the axis
  CHECK(m.upml.in_pml(0, 0, 1, m.grid.n));
}

TEST_CASE("cylindrical ids: a ring and a sphere at their (r, z) samples, walls and padding") {
  const SimulationModel m = build_cyl(
      kHead + "[material.glass]\neps_r = 4\n"
              "[object.ring]\nshape = box\ncenter = 0.05 0.1\nsize = 0.02 0.04\nmaterial = glass\n"
              "[object.ball]\nshape = sphere\ncenter = 0 0.1\nradius = 0.03\nmaterial = pec\n");
  const std::uint8_t glass = static_cast<std::uint8_t>(m.materials.find("glass"));
  using C = Component;
  // The ring r 0.04..0.06, z 0.08..0.12. Er at ((i + 1/2) dr, k dz).
  CHECK(id_at(m, C::Ex, 3, 5) == kVac);    // r 0.035
  CHECK(id_at(m, C::Ex, 4, 5) == glass);   // r 0.045
  CHECK(id_at(m, C::Ex, 5, 4) == glass);   // r 0.055, z 0.08 (the face counts as inside)
  CHECK(id_at(m, C::Ex, 5, 6) == glass);   // z 0.12
  CHECK(id_at(m, C::Ex, 5, 7) == kVac);    // z 0.14
  CHECK(id_at(m, C::Ex, 6, 5) == kVac);    // r 0.065
  // Ez at (i dr, (k + 1/2) dz): r 0.04 and 0.06 are on the ring's faces.
  CHECK(id_at(m, C::Ez, 4, 4) == glass);   // z 0.09
  CHECK(id_at(m, C::Ez, 6, 5) == glass);   // z 0.11
  CHECK(id_at(m, C::Ez, 7, 5) == kVac);
  CHECK(id_at(m, C::Ez, 5, 3) == kVac);    // z 0.07
  // The sphere of radius 0.03 about (0, 0.1), z 0.07 .. 0.13 on the axis. Ez on the axis is PEC
  // where the sphere holds its whole edge: z 0.08 .. 0.10 and 0.10 .. 0.12, not 0.06 .. 0.08.
  CHECK(id_at(m, C::Ez, 0, 3) == kVac);    // z 0.07, on the surface: half its edge outside
  CHECK(id_at(m, C::Ez, 0, 4) == kPec);    // z 0.09
  CHECK(id_at(m, C::Ez, 0, 5) == kPec);    // z 0.11
  CHECK(id_at(m, C::Ez, 0, 2) == kVac);    // z 0.05
  CHECK(id_at(m, C::Ez, 0, 6) == kVac);    // z 0.13
  // Ephi at (i dr, k dz): (0.03, 0.1) on the surface, (0.03, 0.08) outside, (0, 0.08) inside.
  CHECK(id_at(m, C::Ey, 3, 5) == kPec);
  CHECK(id_at(m, C::Ey, 3, 4) == kVac);
  CHECK(id_at(m, C::Ey, 0, 4) == kPec);
  // Cell centres ((i + 1/2) dr, (k + 1/2) dz), cell_ids[i * nz + k].
  CHECK(m.cell_ids[4 * 10 + 4] == glass);  // (0.045, 0.09)
  CHECK(m.cell_ids[0 * 10 + 4] == kPec);   // (0.005, 0.09)
  CHECK(m.cell_ids[9 * 10 + 9] == kVac);
  // The wall z = 0: Er and Ephi at k = 0 are PEC, Ez not; the axis is no wall.
  for (int i = 0; i < 10; ++i) {
    CHECK(id_at(m, C::Ex, i, 0) == kPec);
    CHECK(id_at(m, C::Ey, i, 0) == kPec);
    CHECK(id_at(m, C::Ez, i, 0) == kVac);
    for (int k = 10; k < 12; ++k) {  // E padding
      CHECK(id_at(m, C::Ex, i, k) == kPec);
      CHECK(id_at(m, C::Ez, i, k) == kPec);
    }
  }
  CHECK(id_at(m, C::Ey, 0, 8) == kVac);
  CHECK(id_at(m, C::Ez, 0, 8) == kVac);
  CHECK(m.id(C::Hx).empty());  // no magnetic material
}

TEST_CASE("cylindrical source mode factors: off the axis and an on-axis z source") {
  const SimulationModel m = build_cyl(
      kHead + "[source.off]\ntype = current\nposition = 0.03 30 0.105\nfrequency = 1e9\n"
              "[source.axis]\ntype = current\nposition = 0 0 0.1\nfrequency = 1e9\n"
              "[source.dip]\naxis = r\nposition = 0.057 -90 0.1\nfrequency = 1e9\n");
  REQUIRE(m.sources.size() == 3);
  const SourceModel& off = m.sources[0];
  CHECK(off.component == Component::Ez);
  CHECK(off.cell == std::array<int, 3>{3, 0, 5});  // r 0.03, z 0.11
  REQUIRE(off.mode_factor.size() == 2);
  // dr dr dz / (2 pi r dr dz) = dr / (2 pi r) = 1 / (6 pi); m = 2: twice that, e^{-i 2 pi/6}.
  const double base = 0.01 / (2 * kPi * 0.03);
  CHECK(off.mode_factor[0].real() == doctest::Approx(base).epsilon(1e-12));
  CHECK(off.mode_factor[0].imag() == doctest::Approx(0).epsilon(1e-12));
  const std::complex<double> f2 = 2 * base * std::exp(std::complex<double>(0, -2 * kPi / 6));
  CHECK(off.mode_factor[1].real() == doctest::Approx(f2.real()).epsilon(1e-12));
  CHECK(off.mode_factor[1].imag() == doctest::Approx(f2.imag()).epsilon(1e-12));
  // On the axis: the disc pi (dr/2)^2 dz, so dr dr dz / V = 4 / pi for m = 0; Ez_2 is 0 there.
  const SourceModel& axis = m.sources[1];
  CHECK(axis.cell[0] == 0);
  CHECK(axis.mode_factor[0].real() == doctest::Approx(4 / kPi).epsilon(1e-12));
  CHECK(axis.mode_factor[0].imag() == 0);
  CHECK(axis.mode_factor[1] == std::complex<double>(0, 0));
  // An r-directed dipole at r = 0.057: Er sample i = 5 at r 0.055; the table is that of a point
  // dipole in a cell dr dr dz.
  const SourceModel& dip = m.sources[2];
  CHECK(dip.component == Component::Ex);
  CHECK(dip.cell[0] == 5);
  const double r_s = 0.055;
  const std::complex<double> d2 =
      2 * (0.01 / (2 * kPi * r_s)) * std::exp(std::complex<double>(0, 2 * 2 * kPi / 4));
  CHECK(dip.mode_factor[1].real() == doctest::Approx(d2.real()).epsilon(1e-12));
  CHECK(dip.mode_factor[1].imag() == doctest::Approx(d2.imag()).epsilon(1e-9));
  SourceConfig sc;
  sc.kind = SourceKind::Dipole;
  sc.frequency_hz = 1e9;
  const double dt = m.grid.dt;
  const double expect = (waveform_value(sc, 4 * dt) - waveform_value(sc, 3 * dt)) /
                        (dt * 0.01 * 0.01 * 0.02);
  REQUIRE(expect != 0);
  CHECK(dip.j[3] / expect == doctest::Approx(1).epsilon(1e-12));
}

TEST_CASE("cylindrical probes: the nearest (r, z) sample and the angle in radians") {
  const SimulationModel m =
      build_cyl(kHead + "[probe.p]\nposition = 0.052 45 0.104\nfields = Er Hphi\n");
  REQUIRE(m.probes.samples.size() == 2);
  const ProbeSample& er = m.probes.samples[0];
  CHECK(er.component == Component::Ex);
  CHECK(er.cell == std::array<int, 3>{5, 0, 5});  // r 0.055, z 0.1
  CHECK(er.phi_rad == doctest::Approx(kPi / 4).epsilon(1e-12));
  CHECK(er.position_m.x == doctest::Approx(0.055));
  CHECK(er.position_m.y == 0);
  CHECK(er.position_m.z == doctest::Approx(0.1));
  const ProbeSample& hphi = m.probes.samples[1];
  CHECK(hphi.component == Component::Hy);
  CHECK(hphi.cell == std::array<int, 3>{5, 0, 5});  // r 0.055, z 0.11
}

TEST_CASE("cylindrical refusals that need the grid") {
  // A phi-directed source whose nearest Ephi sample is on the axis.
  ConfigError e = build_error(kHead + "[source.s]\naxis = phi\nposition = 0.004 0 0.1\nfrequency = 1e9\n");
  CHECK(e.key() == "source.s.position");
  CHECK(e.line() == 12);
  CHECK(e.expected().find("off the axis for a phi-directed source") != std::string::npos);
  CHECK(e.expected().find("Ephi sample (0, 5) at (0, 0.1) m is on the axis") != std::string::npos);
  // An r-directed one there is fine: Er's nearest sample is at dr / 2.
  CHECK(build_cyl(kHead + "[source.s]\naxis = r\nposition = 0.004 0 0.1\nfrequency = 1e9\n")
            .sources[0].cell[0] == 0);
  // In the r layers.
  e = build_error(kHead + "[source.s]\nposition = 0.09 0 0.1\nfrequency = 1e9\n");
  CHECK(e.key() == "source.s.position");
  CHECK(e.expected().find("Ez sample (9, 5)") != std::string::npos);
  // Layers thicker than the grid, named by axis r.
  e = build_error(
      "[grid]\ncoordinates = cylindrical\nsize = 0.1 0.2\ncell_size = 0.01\n[time]\nsteps = 4\n"
      "[boundary]\nlayers = 10 2 2\n");
  CHECK(e.key() == "boundary.layers");
  CHECK(e.expected().find("along r that leave cells between them: 0 + 10 layers fill all 10 cells") !=
        std::string::npos);
  // A config made in code gets the same checks as a file.
  RunConfig cfg = load_config_text(kHead, "c.ini", {});
  cfg.grid.modes = {1, 1};
  CHECK_THROWS_AS(SimulationModel::build(cfg), ConfigError);
  cfg.grid.modes = {-1};
  CHECK_THROWS_AS(SimulationModel::build(cfg), ConfigError);
  cfg.grid.modes = {0};
  cfg.boundary.layers = {1, 3, 0, 0, 2, 1};
  CHECK_THROWS_AS(SimulationModel::build(cfg), ConfigError);
}

TEST_CASE("cylindrical device bytes: six complex fields per mode and cell, psi per slab cell") {
  const std::string one = "[grid]\ncoordinates = cylindrical\nsize = 0.1 0.2\ncell_size = 0.01\n"
                          "[time]\nsteps = 20\n[boundary]\nlayers = 3 2 1\n";
  const SimulationModel m1 = build_cyl(one);
  const SimulationModel m3 =
      SimulationModel::build(load_config_text(one, "c.ini", {"--grid.modes=0 1 2"}));
  // 10 x 20 cells (no padding); r slab 3 x 20 cells, z slabs 3 x 10: two more modes add
  // 2 x (48 B x 200 + 4 psi x 8 B x 90 + 16 floats of 1/r~ auxiliaries x 60).
  CHECK(m3.device_bytes(0) - m1.device_bytes(0) == 2u * (48 * 200 + 32 * 90 + 64 * 60));
  CHECK(m1.device_bytes(0) > 48u * 200);
  CHECK(m1.device_bytes(0, true) == m1.device_bytes(0));  // no onepass variant here
}

TEST_CASE("cylindrical host bytes: snapshots per mode and the phi reconstruction") {
  const std::string text = "[grid]\ncoordinates = cylindrical\nsize = 0.1 0.2\ncell_size = 0.01\n"
                           "[time]\nsteps = 20\n[boundary]\ntype = pec\n[snapshot]\nsteps = 10\n";
  const RunConfig one = load_config_text(text, "c.ini", {});
  const RunConfig three = load_config_text(text, "c.ini", {"--grid.modes=0 1 2"});
  const RunConfig phi = load_config_text(text, "c.ini", {"--snapshot.phi_samples=8"});
  const GridGeometry g1 = derive_grid_geometry(one), g3 = derive_grid_geometry(three);
  const std::size_t cells = 10 * 20;  // nz 20 is a whole number of float4 lanes
  CHECK(model_host_bytes(three, g3, false) - model_host_bytes(one, g1, false) == 2 * 48 * cells);
  CHECK(model_host_bytes(phi, derive_grid_geometry(phi), false) - model_host_bytes(one, g1, false) ==
        2 * 17 * 4 * cells * 9);  // 8 angles and the closing one
}

TEST_CASE("anisotropic materials: model.vti's three values counted; refused in a cylindrical model built in code") {
  // 3D, no snapshots: model.vti is the larger count, 13 B per cell, 49 B with anisotropy.
  const std::string text = "[grid]\nsize = 0.1 0.1 0.1\ncell_size = 0.01\n[time]\nsteps = 20\n"
                           "[boundary]\ntype = pec\n[material.m]\neps_r = 2\n";
  const RunConfig plain = load_config_text(text, "a.ini", {});
  const RunConfig axes = load_config_text(text, "a.ini", {"--material.m.eps_r=2 3 4"});
  const GridGeometry g = derive_grid_geometry(plain);
  CHECK(model_host_bytes(axes, g, false) - model_host_bytes(plain, g, false) == 36u * 1000);
  // The loader refuses the key in a cylindrical model; one built in code is refused by the build.
  RunConfig cyl = load_config_text("[grid]\ncoordinates = cylindrical\nsize = 0.1 0.2\ncell_size = 0.01\n"
                                   "[time]\nsteps = 20\n[boundary]\ntype = pec\n[material.m]\neps_r = 2\n",
                                   "c.ini", {});
  REQUIRE(cyl.materials.size() == 1);
  cyl.materials[0].eps_axes = {2, 3, 2};
  try {
    SimulationModel::build(cyl);
    FAIL("an anisotropic material in a cylindrical model was built");
  } catch (const ConfigError& e) {
    CHECK(e.key() == "material.m.eps_r");
    CHECK(e.expected().find("one value in a cylindrical model") != std::string::npos);
  }
}

TEST_CASE("cylindrical host bytes: a flux monitor's transforms per mode slot and part") {
  // The engines transform each region sample once per field plane (mode slot q, Re and Im):
  // read back, 2 x 3 slots x P points x 4 frequencies complex doubles.
  const std::string text =
      "[grid]\ncoordinates = cylindrical\nsize = 0.1 0.2\ncell_size = 0.01\nmodes = 0 1 2\n"
      "[time]\nsteps = 20\n[boundary]\ntype = pec\n"
      "[monitor.ring]\ntype = flux\nbox = 0.02 0.05 0.06 0.15\nfrequencies = 1e9 2e9 3e9 4e9\n";
  const RunConfig cfg = load_config_text(text, "c.ini", {});
  const SimulationModel m = SimulationModel::build(cfg);
  REQUIRE(m.monitors.size() == 1);
  const std::size_t points = m.monitors[0].points();
  REQUIRE(points > 0);
  CHECK(model_host_bytes(cfg, m.grid, false, m.monitors) - model_host_bytes(cfg, m.grid, false) ==
        2 * 3 * points * 4 * 2 * sizeof(double));
}

TEST_CASE("cylindrical limits use dr and dz only (no cell along phi)") {
  // Cells of 2 m: the sigma_max limit is 1000 x 0.8 (m+1) / (eta0 2 m), not that of a 1 m cell.
  const double limit = 1000 * 0.8 * 4 / (kEta0 * 2.0);
  const std::string text = "[grid]\ncoordinates = cylindrical\nsize = 40 40\ncell_size = 2\n"
                           "[time]\nsteps = 4\n[boundary]\nlayers = 3\n";
  CHECK_NOTHROW(SimulationModel::build(
      load_config_text(text, "c.ini", {"--boundary.sigma_max=" + std::to_string(0.99 * limit)})));
  const ConfigError e = build_error(text + "sigma_max = " + std::to_string(1.5 * limit) + "\n");
  CHECK(e.key() == "boundary.sigma_max");
}

TEST_CASE("an on-axis source with no m = 0 listed drives nothing: a warning says so") {
  const std::string src = "[source.s]\nposition = 0 0 0.1\nfrequency = 1e9\n";
  const SimulationModel m = SimulationModel::build(
      load_config_text(kHead + src, "c.ini", {"--grid.modes=1 2"}));
  REQUIRE(warnings_of(m).size() == 1);
  CHECK(warnings_of(m)[0].find("source 's' is on the axis") != std::string::npos);
  CHECK(warnings_of(build_cyl(kHead + src)).empty());  // modes 0 2: m = 0 takes it
}

TEST_CASE("an error a command-line override caused names that key, not the file's line") {
  auto error_with = [](const std::string& text, const std::vector<std::string>& args) {
    try {
      SimulationModel::build(load_config_text(text, "c.ini", args));
    } catch (const ConfigError& e) {
      return e;
    }
    FAIL("no ConfigError for " << text);
    return ConfigError("", 0, "", "");
  };
  const std::string phi = kHead + "[source.s]\naxis = phi\nposition = 0.05 0 0.1\nfrequency = 1e9\n";
  ConfigError e = error_with(phi, {"--source.s.position=0 0 0.1"});
  CHECK(e.key() == "source.s.position");
  CHECK(e.line() == 0);
  CHECK(e.expected().find("r > 0 for a phi-directed source") == 0);
  // The same source put on the axis by the file: its axis is named, on its own line.
  std::string on_axis = phi;
  on_axis.replace(on_axis.find("0.05 0 0.1"), 10, "0 0 0.1");
  e = error_with(on_axis, {});
  CHECK(e.key() == "source.s.axis");
  CHECK(e.line() == 11);
  CHECK(e.expected().find("a phi-directed current has no direction there") != std::string::npos);
  // A cell from the command line that leaves no room between the layers names grid.cell_size.
  e = error_with(kHead, {"--grid.cell_size=0.05"});
  CHECK(e.key() == "grid.cell_size");
  CHECK(e.line() == 0);
  CHECK(e.expected().find("a grid with cells between the UPML layers along r: 0 + 3 layers fill all "
                          "2 cells") == 0);
  e = error_with(kHead, {"--grid.cell_size=0.05", "--boundary.layers=4 2 1"});
  CHECK(e.key() == "boundary.layers");
  // A cell from grid.max_frequency and a cells_per_wavelength override; UPML switched on over a
  // file's PEC boundary.
  const std::string cube = "[grid]\nsize = 0.1 0.1 0.1\nmax_frequency = 3e9\n[time]\nsteps = 4\n"
                           "[boundary]\ntype = pec\nlayers = 5\n";
  e = error_with(cube, {"--boundary.type=upml"});
  CHECK(e.key() == "boundary.type");
  CHECK(e.line() == 0);
  std::string upml = cube;
  upml.replace(upml.find("type = pec"), 10, "type = upml");
  e = error_with(upml, {"--grid.cells_per_wavelength=2"});
  CHECK(e.key() == "grid.cells_per_wavelength");
  CHECK(e.expected().find("grid.cells_per_wavelength = 2)") != std::string::npos);
}

TEST_CASE("cylindrical: a conductor's Er and Ez samples are PEC only where it holds the whole edge") {
  // A PEC rod on the axis of 0.6 cells' radius: Ez on the axis is PEC, Er from r = 0 to dr is
  // not (its midpoint lies inside, its outer end does not), Ephi at r = 0 (held) is. At 1.2
  // cells' radius that Er edge lies inside.
  const std::string rod = kHead +
                          "[object.rod]\nshape = cylinder\ncenter = 0 0.1\nradius = 0.006\n"
                          "length = 0.08\nmaterial = pec\n";
  const SimulationModel thin = build_cyl(rod);
  CHECK(id_at(thin, Component::Ez, 0, 5) == MaterialTable::kPec);
  CHECK(id_at(thin, Component::Ex, 0, 5) == MaterialTable::kVacuum);
  std::string thick = rod;
  thick.replace(thick.find("radius = 0.006"), 14, "radius = 0.012");
  CHECK(id_at(build_cyl(thick), Component::Ex, 0, 5) == MaterialTable::kPec);
  // A dielectric keeps the midpoint.
  std::string glass = rod;
  glass.replace(glass.find("material = pec"), 14, "material = g");
  glass += "[material.g]\neps_r = 4\n";
  CHECK(id_at(build_cyl(glass), Component::Ex, 0, 5) != MaterialTable::kVacuum);
}
