// [lumped.<name>]: the keys it reads, the inputs it refuses, and the terms a model gives its
// samples (model/lumped.hpp, docs/PORTS.md "Lumped elements").
#include <doctest/doctest.h>

#include <string>

#include "config/load_config.hpp"
#include "errors.hpp"
#include "model/simulation_model.hpp"

using namespace clfdtd;

namespace {

const std::string kGrid =
    "[grid]\nsize = 0.02 0.02 0.02\ncell_size = 0.001\n[time]\nsteps = 10\n[boundary]\nlayers = 4\n";

RunConfig load(const std::string& text, const std::string& grid = kGrid) {
  return load_config_text(grid + text, "lumped.ini", {});
}

std::string error_of(const std::string& text, const std::string& grid = kGrid) {
  try {
    SimulationModel::build(load(text, grid));
  } catch (const ConfigError& e) {
    return e.what();
  }
  FAIL("no ConfigError");
  return "";
}

bool says(const std::string& text, const std::string& part) {
  const std::string e = error_of(text);
  INFO(e);
  return e.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("lumped: keys read, circuit required for two or more values") {
  const RunConfig cfg = load("[lumped.load]\naxis = x\nposition = 0.01 0.01 0.01\nresistance = 50\n"
                             "[lumped.tank]\nposition = 0.012 0.01 0.01\nsize = 0 0.002 0.003\n"
                             "inductance = 1e-9\ncapacitance = 1e-12\ncircuit = parallel\n");
  REQUIRE(cfg.lumped.size() == 2);
  CHECK(cfg.lumped[0].name == "load");
  CHECK(cfg.lumped[0].axis == Axis::X);
  CHECK(*cfg.lumped[0].resistance_ohm == 50);
  CHECK(!cfg.lumped[0].inductance_h);
  CHECK(!cfg.lumped[0].size_m);
  CHECK(cfg.lumped[1].axis == Axis::Z);
  CHECK(cfg.lumped[1].circuit == LumpedCircuit::Parallel);
  CHECK(*cfg.lumped[1].capacitance_f == 1e-12);
  CHECK(says("[lumped.a]\nposition = 0.01 0.01 0.01\nresistance = 50\ninductance = 1e-9\n",
             "lumped.a.circuit"));
  CHECK(says("[lumped.a]\nposition = 0.01 0.01 0.01\n", "at least one of resistance"));
  CHECK(says("[lumped.a]\nposition = 0.01 0.01 0.01\nresistance = 0\n", "lumped.a.resistance"));
  CHECK(says("[lumped.a]\nposition = 0.01 0.01 0.01\ncapacitance = -1e-12\n", "lumped.a.capacitance"));
  CHECK(says("[lumped.a]\nposition = 0.01 0.01 0.01\nresistance = 5\ncircuit = star\n", "lumped.a.circuit"));
  CHECK(says("[lumped.a]\nposition = 0.01 0.01 0.03\nresistance = 5\n", "lumped.a.position"));
  CHECK(says("[lumped.a]\nposition = 0.01 0.01 0.01\nsize = 0 0 0.03\nresistance = 5\n", "lumped.a.size"));
  CHECK(says("[lumped.a]\nposition = 0.01 0.01 0.01\nresistanse = 5\n", "resistance"));
}

TEST_CASE("lumped: refused in 2D and cylindrical models, in the UPML, on PEC, on a source or another element") {
  const std::string plane = "[grid]\nsize = 0.02 0.02\ncell_size = 0.001\n[time]\nsteps = 10\n";
  CHECK(error_of("[lumped.a]\nposition = 0.01 0.01\nresistance = 5\n", plane).find("3D Cartesian") !=
        std::string::npos);
  const std::string cyl = "[grid]\ncoordinates = cylindrical\nsize = 0.02 0.02\ncell_size = 0.001\n"
                          "[time]\nsteps = 10\n";
  CHECK(error_of("[lumped.a]\nposition = 0.01 0 0.01\nresistance = 5\n", cyl).find("3D Cartesian") !=
        std::string::npos);
  CHECK(says("[lumped.a]\nposition = 0.01 0.01 0.01\nsize = 0.01 0.01 0.01\nresistance = 5\n",
             "at most 1000 E samples"));
  const std::string wall = "[grid]\nsize = 0.02 0.02 0.02\ncell_size = 0.001\n[time]\nsteps = 10\n"
                           "[boundary]\nlayers = 0 4 4 4 4 4\npmc = x\n";
  CHECK(error_of("[lumped.a]\nposition = 0.001 0.01 0.01\nsize = 0.002 0 0\nresistance = 5\n", wall)
            .find("a box on the magnetic wall x = 0") != std::string::npos);
  CHECK(SimulationModel::build(load("[lumped.a]\nposition = 0 0.01 0.01\nresistance = 5\n", wall)).lumped.size() == 1);
  CHECK(says("[lumped.a]\nposition = 0.01 0.01 0.002\nresistance = 5\n", "outside the UPML"));
  CHECK(says("[lumped.a]\nposition = 0.01 0.01 0.01\nsize = 0 0 0.014\nresistance = 5\n",
             "outside the UPML"));
  CHECK(says("[object.plate]\nshape = box\nmaterial = pec\ncenter = 0.01 0.01 0.01\nsize = 0.004 0.004 0.004\n"
             "[lumped.a]\nposition = 0.01 0.01 0.01\nresistance = 5\n",
             "off PEC"));
  CHECK(says("[source.s]\ntype = port\naxis = z\nposition = 0.01 0.01 0.01\nfrequency = 1e9\n"
             "[lumped.a]\nposition = 0.01 0.01 0.01\nsize = 0 0 0.004\nresistance = 5\n",
             "on no source's or port's sample"));
  CHECK(says("[lumped.a]\nposition = 0.01 0.01 0.01\nresistance = 5\n"
             "[lumped.b]\nposition = 0.01 0.01 0.0105\ncapacitance = 1e-12\n",
             "on no other element's sample"));
}

TEST_CASE("lumped: each circuit's terms on its samples (conductivity, permittivity, poles)") {
  // 3 samples along z in series, 2 x 2 node lines side by side: length 3 mm, area 4 mm^2.
  const std::string box = "position = 0.01 0.01 0.01\nsize = 0.001 0.001 0.003\n";
  const double length = 3e-3, area = 4e-6, k = length / (area * kEps0);
  auto element = [&](const std::string& values) {
    const SimulationModel m = SimulationModel::build(load("[lumped.e]\n" + box + values));
    REQUIRE(m.lumped.size() == 1);
    const LumpedModel& e = m.lumped[0];
    CHECK(e.along == 3);
    CHECK(e.across == 4);
    CHECK(e.cells.size() == 12);
    // Every sample holds the element's entry.
    const std::uint8_t id = m.id(Component::Ez)[m.layout.index(e.cells[0][0], e.cells[0][1], e.cells[0][2])];
    for (const auto& c : e.cells) CHECK(m.id(Component::Ez)[m.layout.index(c[0], c[1], c[2])] == id);
    CHECK(m.materials.entry(id).lumped == "e");
    return e;
  };
  LumpedModel r = element("resistance = 100\n");
  CHECK(r.sigma == doctest::Approx(length / (100 * area)));
  CHECK(r.poles.empty());
  LumpedModel c = element("capacitance = 2e-12\n");
  CHECK(c.delta_eps_r == doctest::Approx(2e-12 * k));
  LumpedModel rc = element("resistance = 100\ncapacitance = 2e-12\ncircuit = series\n");
  REQUIRE(rc.poles.size() == 1);  // Debye: tau = R C, delta_eps = C k
  CHECK(rc.poles[0].a == 0);
  CHECK(rc.poles[0].b == doctest::Approx(2e-10));
  CHECK(rc.poles[0].c == 1);
  CHECK(rc.poles[0].d == doctest::Approx(2e-12 * k));
  CHECK(rc.sigma == 0);
  LumpedModel rlc = element("resistance = 10\ninductance = 1e-9\ncapacitance = 2e-12\ncircuit = series\n");
  REQUIRE(rlc.poles.size() == 1);  // Lorentz: gamma = R / L, w0^2 = 1 / (L C), d = k / L
  CHECK(rlc.poles[0].a == 1);
  CHECK(rlc.poles[0].b == doctest::Approx(1e10));
  CHECK(rlc.poles[0].c == doctest::Approx(5e20));
  CHECK(rlc.poles[0].d == doctest::Approx(k / 1e-9));
  LumpedModel l = element("inductance = 1e-9\n");  // an undamped Drude pole
  REQUIRE(l.poles.size() == 1);
  CHECK(l.poles[0].a == 1);
  CHECK(l.poles[0].b == 0);
  CHECK(l.poles[0].c == 0);
  CHECK(l.poles[0].d == doctest::Approx(k / 1e-9));
  LumpedModel rl = element("resistance = 10\ninductance = 1e-9\ncircuit = series\n");  // Drude
  REQUIRE(rl.poles.size() == 1);
  CHECK(rl.poles[0].b == doctest::Approx(1e10));
  CHECK(rl.poles[0].c == 0);
  CHECK(rl.sigma == 0);
  LumpedModel lc = element("inductance = 1e-9\ncapacitance = 2e-12\ncircuit = series\n");  // Lorentz, b 0
  REQUIRE(lc.poles.size() == 1);
  CHECK(lc.poles[0].b == 0);
  CHECK(lc.poles[0].c == doctest::Approx(5e20));
  CHECK(lc.delta_eps_r == 0);
  LumpedModel par = element("resistance = 10\ninductance = 1e-9\ncapacitance = 2e-12\ncircuit = parallel\n");
  CHECK(par.sigma == doctest::Approx(length / (10 * area)));
  CHECK(par.delta_eps_r == doctest::Approx(2e-12 * k));
  REQUIRE(par.poles.size() == 1);  // the inductor: an undamped Drude pole
  CHECK(par.poles[0].b == 0);
  CHECK(par.poles[0].c == 0);
  CHECK(par.poles[0].d == doctest::Approx(k / 1e-9));
}

TEST_CASE("lumped: a Bloch-periodic model takes a resistor or capacitor, not an element with a pole") {
  const std::string bloch =
      "[grid]\nsize = 0.02 0.02 0.02\ncell_size = 0.001\n[time]\nsteps = 10\n[boundary]\n"
      "periodic = x y\nbloch_k = 100 0 0\nlayers = 4\n";
  const std::string at = "[lumped.a]\nposition = 0.01 0.01 0.01\n";
  CHECK(SimulationModel::build(load(at + "resistance = 50\ncapacitance = 1e-12\ncircuit = parallel\n", bloch))
            .lumped.size() == 1);
  CHECK(error_of(at + "inductance = 1e-9\n", bloch).find("lumped.a.inductance") != std::string::npos);
  CHECK(error_of(at + "resistance = 5\ncapacitance = 1e-12\ncircuit = series\n", bloch)
            .find("lumped.a.circuit") != std::string::npos);
}

// The element's terms add to the sample's material: its eps_r, sigma and poles stay, the
// element's come on top (a chip across a gap in a substrate).
TEST_CASE("lumped: a sample's material keeps its own terms under the element's") {
  const std::string host = "[material.metal]\neps_r = 2\nsigma = 0.5\ndrude = 3e9 1e8\n"
                           "[object.block]\nshape = box\nmaterial = metal\ncenter = 0.01 0.01 0.01\n"
                           "size = 0.006 0.006 0.006\n";
  const SimulationModel bare = SimulationModel::build(load(host));
  const SimulationModel m = SimulationModel::build(
      load(host + "[lumped.e]\nposition = 0.01 0.01 0.01\nresistance = 100\ninductance = 1e-9\n"
                  "capacitance = 2e-12\ncircuit = parallel\n"));
  const auto& c = m.lumped.at(0).cells.at(0);
  const std::size_t at = m.layout.index(c[0], c[1], c[2]);
  const MaterialEntry& before = bare.materials.entry(bare.id(Component::Ez)[at]);
  const MaterialEntry& after = m.materials.entry(m.id(Component::Ez)[at]);
  REQUIRE(before.poles.size() == 1);
  const LumpedModel& e = m.lumped[0];
  CHECK(after.lumped == "e");
  CHECK(after.name == "lumped e");
  CHECK(after.eps_r == doctest::Approx(before.eps_r + e.delta_eps_r));
  CHECK(after.sigma == doctest::Approx(before.sigma + e.sigma));
  REQUIRE(after.poles.size() == 2);
  CHECK(after.poles[0] == before.poles[0]);
  CHECK(after.poles[1] == e.poles[0]);
  // The samples next to it keep the host's entry.
  CHECK(m.id(Component::Ez)[m.layout.index(c[0] + 1, c[1], c[2])] == bare.id(Component::Ez)[m.layout.index(c[0] + 1, c[1], c[2])]);
}
