// Waveguide ports as the model file gives them (model/waveguide_port.hpp): the mode key, the guide
// found in the mesh (domain walls or PEC objects), what the port cannot use refused naming the key,
// the grid's modes orthogonal on the cross-section, the propagation constant on the grid's
// dispersion, and what a port adds to the model (an injection for a driven one, a transform each).
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "config/load_config.hpp"
#include "errors.hpp"
#include "model/simulation_model.hpp"
#include "model_helpers.hpp"

using namespace clfdtd;

namespace {

constexpr double kPi = 3.14159265358979323846;

// A PEC tube with a 24 x 12 mm vacuum bore along z in a 40 x 30 x 100 mm domain of 1 mm cells.
const std::string kTube =
    "[grid]\nsize = 0.04 0.03 0.1\ncell_size = 0.001\n[time]\nsteps = 10\n[boundary]\nlayers = 8\n"
    "[object.metal]\nshape = box\ncenter = 0.02 0.015 0.05\nsize = 0.03 0.02 0.12\nmaterial = pec\n"
    "[object.bore]\nshape = box\ncenter = 0.02 0.015 0.05\nsize = 0.024 0.012 0.12\nmaterial = vacuum\n";
const std::string kPort =
    "[source.a]\ntype = waveguide\nposition = 0.02 0.015 0.03\ndirection = +z\nfrequency = 9e9\n";

SimulationModel build(const std::string& text) { return build_text(text, "w.ini"); }
std::string error_of(const std::string& text) { return config_error_of(text, "w.ini"); }

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("source.<name>.mode: te<m><n>, tm<m><n> or te<m>,<n>; te10 by default") {
  auto mode_of = [](const std::string& mode) {
    const RunConfig cfg = load_config_text(kTube + kPort + (mode.empty() ? "" : "mode = " + mode + "\n"), "w.ini", {});
    REQUIRE(cfg.waveguide_ports.size() == 1);
    const SourceConfig& s = cfg.waveguide_ports[0];
    return std::string(s.mode_te ? "te" : "tm") + " " + std::to_string(s.mode_m) + " " + std::to_string(s.mode_n);
  };
  CHECK(mode_of("") == "te 1 0");
  CHECK(mode_of("TM11") == "tm 1 1");
  CHECK(mode_of("te01") == "te 0 1");
  CHECK(mode_of("te12,3") == "te 12 3");
  for (const std::string bad : {"te00", "tm10", "tm01", "te1", "tx10", "te1,", "te123", "te-1,2"}) {
    CAPTURE(bad);
    CHECK(has(error_of(kTube + kPort + "mode = " + bad + "\n"), "source.a.mode"));
  }
  CHECK(has(error_of(kTube + "[source.d]\nposition = 0.02 0.015 0.03\nfrequency = 9e9\nmode = te10\n"),
            "no mode unless type = waveguide"));
  CHECK(has(error_of(kTube + kPort + "axis = y\n"), "no axis for a waveguide port"));
  CHECK(has(error_of(kTube + kPort + "size = 0.01 0.01 0\n"), "no size for a waveguide port of a te/tm mode"));
  CHECK(has(error_of(kTube + "[source.d]\nposition = 0.02 0.015 0.03\nfrequency = 9e9\nsize = 0.01 0.01 0.01\n"),
            "no size unless type = port, plane_wave or waveguide (a solved mode)"));
  CHECK(has(error_of(kTube + "[source.a]\ntype = waveguide\nposition = 0.02 0.015 0.03\nfrequency = 9e9\n"),
            "source.a.direction"));
  CHECK(has(error_of(kTube + "[source.a]\ntype = waveguide\nposition = 0.02 0.015 0.03\ndirection = 0 1 1\n"
                             "frequency = 9e9\n"),
            "+x, -x, +y, -y, +z or -z for a waveguide port"));
  CHECK(has(error_of("[grid]\nsize = 0.04 0.03\ncell_size = 0.001\n[time]\nsteps = 10\n"
                     "[source.a]\ntype = waveguide\nposition = 0.02 0.015\ndirection = +x\nfrequency = 9e9\n"),
            "waveguide in a 3D Cartesian model"));
}

TEST_CASE("a waveguide port finds its guide in the mesh: PEC objects or the domain's walls") {
  const SimulationModel m = build(kTube + kPort);
  REQUIRE(m.waveguide_ports.size() == 1);
  const WaveguidePortModel& p = m.waveguide_ports[0];
  CHECK(p.axis == 2);
  CHECK(p.sign == 1);
  CHECK(p.plane == 30);
  CHECK(p.u == 0);
  CHECK(p.v == 1);
  CHECK(p.lo == std::array<int, 2>{8, 9});
  CHECK(p.hi == std::array<int, 2>{32, 21});
  CHECK(p.fill == "vacuum");
  CHECK(p.mu == 1);
  CHECK(p.nv == 0);
  CHECK(p.cutoff_analytic_hz == doctest::Approx(299792458.0 / 0.048));
  // The grid's cutoff lies a little below (K_u < k_u): sin(pi f dt) = c dt K_u / 2.
  const double ku = 2 / 1e-3 * std::sin(kPi / 24 / 2);
  CHECK(std::sin(kPi * p.cutoff_hz * m.grid.dt) == doctest::Approx(299792458.0 * m.grid.dt * ku / 2).epsilon(1e-12));
  CHECK(p.cutoff_hz < p.cutoff_analytic_hz);
  CHECK(p.driven);
  // The injection (among plane_waves, marked) and the transform (among monitors, every step).
  REQUIRE(m.plane_waves.size() == 1);
  CHECK(m.plane_waves[0].guided_port);
  CHECK(m.plane_waves[0].row_width() == 2);
  for (const PlaneWaveTerm& t : m.plane_waves[0].e_terms) {
    CHECK(t.cell[2] == 30);
    CHECK(t.comp < 2);
  }
  for (const PlaneWaveTerm& t : m.plane_waves[0].h_terms) {
    CHECK(t.cell[2] == 29);
    CHECK((t.comp == 3 || t.comp == 4));
  }
  // TE10 has E_y and H_x only: 23 x 12 samples of each (the walls' nodes carry none).
  CHECK(m.plane_waves[0].e_terms.size() == 23 * 12);
  CHECK(m.plane_waves[0].h_terms.size() == 23 * 12);
  REQUIRE(m.monitors.size() == 1);
  const MonitorModel& mon = m.monitors[0];
  CHECK(mon.kind == MonitorKind::WaveguidePort);
  CHECK(mon.dft_every == 1);
  CHECK(mon.frequencies_hz == p.frequencies_hz);
  CHECK(p.frequencies_hz.size() == 201);
  CHECK(p.frequencies_hz.front() > p.cutoff_hz);
  REQUIRE(mon.regions.size() == 4);
  CHECK(mon.regions[0].component == Component::Ex);
  CHECK(mon.regions[2].component == Component::Hx);
  CHECK(mon.regions[2].lo[2] == 30);  // H half a cell into the model: cell 30 at z = 30.5 mm
  CHECK(mon.regions[1].count() == 24 * 12);

  // A receiving port facing -z: no injection, H half a cell towards -z; a tall guide's TE10 varies
  // along its longer side, y.
  const SimulationModel r = build(kTube + "[source.a]\ntype = waveguide\nposition = 0.02 0.015 0.05\n"
                                          "direction = -z\nfrequency = 9e9\namplitude = 0\nfrequencies = 8e9 9e9\n");
  CHECK(r.plane_waves.empty());
  CHECK(!r.waveguide_ports[0].driven);
  CHECK(r.monitors[0].regions[2].lo[2] == 49);
  CHECK(r.waveguide_ports[0].frequencies_hz == std::vector<double>{8e9, 9e9});
  const SimulationModel tall = build(
      "[grid]\nsize = 0.012 0.024 0.06\ncell_size = 0.001\n[time]\nsteps = 10\n[boundary]\nlayers = 0 0 0 0 8 8\n" +
      std::string("[source.a]\ntype = waveguide\nposition = 0.006 0.012 0.02\ndirection = +z\nfrequency = 9e9\n"));
  CHECK(tall.waveguide_ports[0].lo == std::array<int, 2>{0, 0});
  CHECK(tall.waveguide_ports[0].hi == std::array<int, 2>{12, 24});
  CHECK(tall.waveguide_ports[0].mu == 0);
  CHECK(tall.waveguide_ports[0].nv == 1);
  CHECK(tall.waveguide_ports[0].mode_text() == "TE10");
}

TEST_CASE("what a waveguide port cannot use is refused naming its key") {
  // No conductor before the UPML.
  CHECK(has(error_of("[grid]\nsize = 0.04 0.03 0.1\ncell_size = 0.001\n[time]\nsteps = 10\n[boundary]\nlayers = 8\n" + kPort),
            "reaches into them"));
  // A dielectric post across the bore at the plane.
  CHECK(has(error_of(kTube + "[material.d]\neps_r = 4\n[object.post]\nshape = box\ncenter = 0.02 0.015 0.03\n"
                             "size = 0.004 0.004 0.004\nmaterial = d\n" + kPort),
            "one material across the waveguide"));
  CHECK(has(error_of(kTube + "[object.pin]\nshape = box\ncenter = 0.02 0.015 0.03\nsize = 0.001 0.012 0.001\n"
                             "material = pec\n" + kPort),
            "source.a.position"));
  // A lossy filling.
  CHECK(has(error_of(kTube + "[material.l]\nsigma = 0.1\n[object.fill]\nshape = box\ncenter = 0.02 0.015 0.05\n"
                             "size = 0.024 0.012 0.12\nmaterial = l\n" + kPort),
            "lossless, non-dispersive"));
  // More half waves than the side has cells, and a mode above what the grid carries.
  CHECK(has(error_of(kTube + kPort + "mode = te0,12\n"), "a mode the guide's cells hold"));
  CHECK(has(error_of(kTube + kPort + "frequencies = 8e9 9e12\n"), "source.a.frequencies"));
  CHECK(has(error_of("[grid]\nsize = 0.04 0.03 0.1\ncell_size = 0.001\n[time]\nsteps = 10\n[boundary]\n"
                     "periodic = x\nlayers = 0 0 8 8 8 8\n" + kPort),
            "no waveguide port in a model with periodic axes"));
  // A receiving port alone has no band to take.
  CHECK(has(error_of(kTube + "[source.a]\ntype = waveguide\nposition = 0.02 0.015 0.05\ndirection = -z\n"
                             "frequency = 9e9\namplitude = 0\n"),
            "frequencies for a waveguide port with amplitude 0"));
  // A source frequency past what the grid carries (checked as every source's).
  CHECK(has(error_of(kTube + "[source.a]\ntype = waveguide\nposition = 0.02 0.015 0.03\ndirection = +z\nfrequency = 2e12\n"),
            "source.a.frequency"));
  // Too close to the domain's end.
  CHECK(has(error_of(kTube + "[source.a]\ntype = waveguide\nposition = 0.02 0.015 0.001\ndirection = +z\nfrequency = 9e9\n"),
            "2 cells from the domain's ends"));
}

TEST_CASE("the grid's waveguide modes are orthogonal on the cross-section; beta obeys the grid's "
          "dispersion") {
  const char* modes[] = {"te10", "te20", "te01", "te11", "tm11", "te21", "tm21", "te02"};
  std::vector<WaveguidePortModel> ports;
  SimulationModel first;
  for (const char* mode : modes) {
    SimulationModel m = build(kTube + kPort + "mode = " + mode + "\nfrequencies = 2e10\n");
    ports.push_back(m.waveguide_ports.at(0));
    if (ports.size() == 1) first = std::move(m);
  }
  const WaveguidePortModel& p0 = ports[0];
  const int cu = p0.hi[0] - p0.lo[0], cv = p0.hi[1] - p0.lo[1];
  auto dot = [&](const WaveguidePortModel& a, const WaveguidePortModel& b, bool is_h) {
    double s = 0;
    // The samples of the cross-section (those on the walls' nodes are zero in every mode).
    for (int c = 0; c < 2; ++c)
      for (int iu = 0; iu < cu; ++iu)
        for (int iv = 0; iv < cv; ++iv)
          s += mode_profile(a, is_h, c, iu, iv) * mode_profile(b, is_h, c, iu, iv);
    return s;
  };
  for (std::size_t i = 0; i < ports.size(); ++i)
    for (std::size_t j = 0; j < ports.size(); ++j) {
      CAPTURE(modes[i]);
      CAPTURE(modes[j]);
      for (bool is_h : {false, true}) {
        const double ij = dot(ports[i], ports[j], is_h);
        const double norm = std::sqrt(dot(ports[i], ports[i], is_h) * dot(ports[j], ports[j], is_h));
        if (i == j)
          CHECK(ij > 0);
        else
          CHECK(std::fabs(ij) < 1e-12 * norm);
      }
      // E and H of one mode carry the same weight (the power's normalisation takes that).
      if (i == j) CHECK(dot(ports[i], ports[i], true) == doctest::Approx(dot(ports[i], ports[i], false)));
    }
  // beta from (2 sin(beta d / 2) / d)^2 = Omega^2 eps mu - Kc^2, the TE impedance Omega mu / (that root).
  const GridGeometry& g = first.grid;
  const double f = 9e9, omega = 2 * std::sin(kPi * f * g.dt) / g.dt, d = g.d[2];
  const double kc2 = p0.ku_grid * p0.ku_grid + p0.kv_grid * p0.kv_grid;
  const ModeWave w = mode_wave(p0, g, f);
  const double bz = 2 / d * std::sin(w.beta.real() * d / 2);
  CHECK(w.beta.imag() == 0);
  CHECK(bz * bz == doctest::Approx(omega * omega / (299792458.0 * 299792458.0) - kc2).epsilon(1e-9));
  CHECK(w.impedance.real() == doctest::Approx(omega * 1.25663706212e-6 / bz).epsilon(1e-9));
  // Below cutoff: a decaying wave (beta = -i alpha), an imaginary impedance.
  const ModeWave below = mode_wave(p0, g, 5e9);
  CHECK(below.beta.real() == doctest::Approx(0));
  CHECK(below.beta.imag() < 0);
}

TEST_CASE("waveguide ports warn of a monitor across a driven port's plane and of a guide closed "
          "behind a port; a one-cell-wide guide is a guide; wide mode numbers print apart") {
  // The tube's bore runs into the UPML at both ends: no warning.
  CHECK(warnings_of(build(kTube + kPort)).empty());
  const SimulationModel flux = build(kTube + kPort + "[monitor.f]\ntype = flux\nbox = 0.01 0.01 0.02 0.03 0.02 0.06\n"
                                                     "frequencies = 9e9\n");
  REQUIRE(warnings_of(flux).size() == 1);
  CHECK(has(warnings_of(flux)[0], "monitor 'f' reaches within a cell of waveguide port 'a''s plane (z = 0.03 m)"));
  // A plane clear of the port's plane is fine.
  CHECK(warnings_of(build(kTube + kPort + "[monitor.f]\ntype = flux\nbox = 0.01 0.01 0.04 0.03 0.02 0.06\n"
                                                  "frequencies = 9e9\n")).empty());
  // A PEC cap across the bore 10 mm behind the port.
  const SimulationModel capped = build(kTube + "[object.cap]\nshape = box\ncenter = 0.02 0.015 0.02\n"
                                               "size = 0.03 0.02 0.002\nmaterial = pec\n" + kPort);
  REQUIRE(warnings_of(capped).size() == 1);
  CHECK(has(warnings_of(capped)[0], "waveguide port 'a': its guide does not run on behind it into the UPML (a conductor at z = 0.021 m"));
  // The domain's bare wall behind it.
  const SimulationModel walled = build(
      "[grid]\nsize = 0.024 0.012 0.06\ncell_size = 0.001\n[time]\nsteps = 10\n[boundary]\nlayers = 0 0 0 0 0 8\n" + kPort.substr(0, kPort.find("position")) +
      "position = 0.012 0.006 0.02\ndirection = +z\nfrequency = 9e9\n");
  REQUIRE(warnings_of(walled).size() == 1);
  CHECK(has(warnings_of(walled)[0], "the domain's wall at z = 0 m (no UPML on that face)"));
  // One cell across u, 16 along v: TE10 varies along v.
  const SimulationModel slit = build(
      "[grid]\nsize = 0.001 0.016 0.06\ncell_size = 0.001\n[time]\nsteps = 10\n[boundary]\nlayers = 0 0 0 0 8 8\n"
      "[source.a]\ntype = waveguide\nposition = 0.0005 0.008 0.02\ndirection = +z\nfrequency = 1.2e10\n");
  CHECK(slit.waveguide_ports[0].mu == 0);
  CHECK(slit.waveguide_ports[0].nv == 1);
  const SimulationModel wide = build(
      "[grid]\nsize = 0.03 0.004 0.06\ncell_size = 0.001\n[time]\nsteps = 10\n[boundary]\nlayers = 0 0 0 0 8 8\n"
      "[source.a]\ntype = waveguide\nposition = 0.015 0.002 0.02\ndirection = +z\nfrequency = 1.2e11\nmode = te12,1\n"
      "frequencies = 1.3e11\n");
  CHECK(wide.waveguide_ports[0].mode_text() == "TE12,1");
}
