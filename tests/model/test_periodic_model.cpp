// boundary.periodic as the model file gives it: the axes read, no layers on them, and what a
// periodic model cannot hold refused naming the key (layers on a periodic face, a 2D or
// cylindrical model, a plane wave with a component along a periodic axis, a far-field monitor, a
// flux box that reaches one end of the period but not the other); the plane wave's box spans the
// period and its corrections lie on its faces across the other axes only.
#include <doctest/doctest.h>

#include <string>

#include "config/load_config.hpp"
#include "errors.hpp"
#include "model/simulation_model.hpp"
#include "model_helpers.hpp"

using namespace clfdtd;

namespace {

const std::string kGrid = "[grid]\nsize = 0.3 0.3 0.6\ncell_size = 0.01\n[time]\nsteps = 10\n";
const std::string kDipole = "[source.s]\nposition = 0.15 0.15 0.3\nfrequency = 1e9\n";

SimulationModel build(const std::string& text) { return build_text(text, "p.ini"); }
std::string error_of(const std::string& text) { return config_error_of(text, "p.ini"); }

}  // namespace

TEST_CASE("boundary.periodic: the axes, and layers only on the other faces") {
  const SimulationModel m = build(kGrid + "[boundary]\nperiodic = x y\nlayers = 6\n" + kDipole);
  CHECK(m.grid.periodic == std::array<bool, 3>{true, true, false});
  CHECK(m.upml.layers == std::array<int, 6>{0, 0, 0, 0, 6, 6});
  const SimulationModel none = build(kGrid + kDipole);
  // A probe or a source on the high end of a periodic axis is at its low end.
  const SimulationModel end = build(kGrid + "[boundary]\nperiodic = x\n" +
                                    "[source.s]\nposition = 0.3 0.15 0.3\nfrequency = 1e9\n"
                                    "[probe.p]\nposition = 0.3 0.15 0.3\nfields = Ey\n");
  CHECK(end.sources.at(0).cell[0] == 0);
  CHECK(end.probes.samples.at(0).cell[0] == 0);
  CHECK_FALSE(none.grid.any_periodic());
  // Explicit layers on a periodic face contradict it.
  const std::string e = error_of(kGrid + "[boundary]\nperiodic = x\nlayers = 4 4 6 6 6 6\n" + kDipole);
  CHECK(e.find("boundary.layers") != std::string::npos);
  CHECK(e.find("periodic axis x") != std::string::npos);
  CHECK(build(kGrid + "[boundary]\nperiodic = x\nlayers = 0 0 6 6 6 6\n" + kDipole).upml.layers[2] == 6);
  // 3D Cartesian only.
  CHECK(error_of("[grid]\nsize = 0.3 0.3\ncell_size = 0.01\n[time]\nsteps = 10\n"
                 "[boundary]\nperiodic = x\n[source.s]\nposition = 0.15 0.15\nfrequency = 1e9\n")
            .find("boundary.periodic") != std::string::npos);
  CHECK(error_of(kGrid + "[boundary]\nperiodic = x x\n" + kDipole).find("each word once") !=
        std::string::npos);
}

TEST_CASE("boundary.periodic: a plane wave spans the period, travels across it only") {
  const std::string wave =
      "[source.pw]\ntype = plane_wave\ndirection = +z\naxis = x\nposition = 0.15 0.15 0.3\n"
      "size = 0.02 0.02 0.2\nfrequency = 1e9\n";
  const SimulationModel m = build(kGrid + "[boundary]\nperiodic = x y\n" + wave);
  REQUIRE(m.plane_waves.size() == 1);
  const PlaneWaveModel& w = m.plane_waves[0];
  CHECK(w.lo[0] < 0);
  CHECK(w.hi[1] > m.grid.n[1]);
  // Every correction sits next to a z face (10 and 30), across all x and y of the period.
  std::array<bool, 2> x_ends{}, y_ends{};
  for (const auto* terms : {&w.h_terms, &w.e_terms})
    for (const PlaneWaveTerm& t : *terms) {
      CHECK((std::abs(t.cell[2] - 20) <= 1 || std::abs(t.cell[2] - 40) <= 1));
      CHECK(t.cell[0] >= 0);
      CHECK(t.cell[0] < m.grid.n[0]);
      if (t.cell[0] == 0) x_ends[0] = true;
      if (t.cell[0] == m.grid.n[0] - 1) x_ends[1] = true;
      if (t.cell[1] == 0) y_ends[0] = true;
      if (t.cell[1] == m.grid.n[1] - 1) y_ends[1] = true;
    }
  CHECK((x_ends[0] && x_ends[1] && y_ends[0] && y_ends[1]));
  std::string e = error_of(kGrid + "[boundary]\nperiodic = z\n" + wave);
  CHECK(e.find("source.pw.direction") != std::string::npos);
  CHECK(e.find("along z") != std::string::npos);
  std::string oblique = wave;
  oblique.replace(oblique.find("+z"), 2, "1 0 1");
  e = error_of(kGrid + "[boundary]\nperiodic = x y\n" + oblique);
  CHECK(e.find("component along x") != std::string::npos);
  // Oblique in the plane of the axes that are not periodic is fine.
  std::string in_plane = wave;
  in_plane.replace(in_plane.find("+z"), 2, "0 0.3 1");
  CHECK(build(kGrid + "[boundary]\nperiodic = x\n" + in_plane).plane_waves.size() == 1);
}

TEST_CASE("boundary.periodic: monitors span the period or stay clear of its ends") {
  const std::string head = kGrid + "[boundary]\nperiodic = x y\n" + kDipole;
  const SimulationModel plane =
      build(head + "[monitor.t]\ntype = flux\nbox = 0 0 0.45 0.3 0.3 0.45\nfrequencies = 1e9\n");
  REQUIRE(plane.monitors.size() == 1);
  CHECK(plane.monitors[0].faces.size() == 1);
  // A box across the whole period along x, inside along y: its x faces cancel and are left out.
  const SimulationModel box =
      build(head + "[monitor.b]\ntype = flux\nbox = 0 0.04 0.2 0.3 0.2 0.4\nfrequencies = 1e9\n");
  CHECK(box.monitors[0].faces.size() == 4);
  for (const MonitorFace& f : box.monitors[0].faces) CHECK(f.axis != 0);
  std::string e = error_of(head + "[monitor.b]\ntype = flux\nbox = 0 0.04 0.2 0.15 0.2 0.4\nfrequencies = 1e9\n");
  CHECK(e.find("monitor.b.box") != std::string::npos);
  CHECK(e.find("periodic axis x") != std::string::npos);
  // Across every period: no face is left to measure through.
  e = error_of("[grid]\nsize = 0.3 0.3 0.3\ncell_size = 0.01\n[time]\nsteps = 10\n"
               "[boundary]\nperiodic = x y z\n" + kDipole +
               "[monitor.all]\ntype = flux\nbox = 0 0 0 0.3 0.3 0.3\nfrequencies = 1e9\n");
  CHECK(e.find("monitor.all.box") != std::string::npos);
  e = error_of(head + "[monitor.f]\ntype = farfield\nbox = 0.04 0.04 0.2 0.2 0.2 0.4\nfrequencies = 1e9\n");
  CHECK(e.find("monitor.f.type") != std::string::npos);
}

TEST_CASE("boundary.periodic: objects repeat with the domain (a model moved across the ends meshes rolled)") {
  // A dielectric box, a PEC plate and a sphere, placed at x0, y0 and then moved by (7, 5) cells,
  // which takes each of them across the ends of x and y: every sample's material must move with
  // them, also where an object's surface lies on the period's end planes.
  auto model = [&](double sx, double sy) {
    std::string text = kGrid + "[boundary]\nperiodic = x y\n" + kDipole +
                       "[material.d]\neps_r = 4\n[material.m]\neps_r = 2\nsigma = 0.1\n";
    auto at = [&](double x, double y, double z) {
      return std::to_string(std::fmod(x + sx, 0.3)) + " " + std::to_string(std::fmod(y + sy, 0.3)) +
             " " + std::to_string(z);
    };
    text += "[object.a]\nshape = box\nmaterial = d\ncenter = " + at(0.27, 0.03, 0.3) +
            "\nsize = 0.06 0.04 0.1\n";
    text += "[object.b]\nshape = box\nmaterial = pec\ncenter = " + at(0.02, 0.2, 0.35) +
            "\nsize = 0.04 0.005 0.02\n";
    text += "[object.c]\nshape = sphere\nmaterial = m\ncenter = " + at(0.15, 0.285, 0.25) +
            "\nradius = 0.035\n";
    return build(text);
  };
  const SimulationModel a = model(0, 0), b = model(0.07, 0.05);
  const auto& n = a.grid.n;
  for (std::size_t c = 0; c < 6; ++c) {
    if (a.ids[c].empty()) continue;
    INFO("component " << c);
    std::size_t differ = 0, held = 0;
    for (int i = 0; i < n[0]; ++i)
      for (int j = 0; j < n[1]; ++j)
        for (int k = 0; k < n[2]; ++k) {
          const std::uint8_t x = a.ids[c][a.layout.index(i, j, k)];
          const std::uint8_t y = b.ids[c][b.layout.index((i + 7) % n[0], (j + 5) % n[1], k)];
          differ += x != y ? 1 : 0;
          held += x != MaterialTable::kVacuum ? 1 : 0;
        }
    CHECK(held > 300);
    CHECK(differ == 0);
  }
  // A slab drawn exactly one period wide meshes as one drawn wider: no seam at the ends.
  const std::string slab = kGrid + "[boundary]\nperiodic = x y\n" + kDipole +
                           "[material.d]\neps_r = 4\n[object.s]\nshape = box\nmaterial = d\n"
                           "center = 0.15 0.15 0.3\nsize = ";
  const SimulationModel exact = build(slab + "0.3 0.3 0.06\n"), wide = build(slab + "0.5 0.5 0.06\n");
  for (std::size_t c = 0; c < 3; ++c) CHECK(exact.ids[c] == wide.ids[c]);
}
