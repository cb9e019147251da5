// Lumped ports (model/ports.hpp): the port's conductivity at its sample, its current table, its
// E sample after the probes', the circuit it gives, and what the loader and the model refuse.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "config/load_config.hpp"
#include "errors.hpp"
#include "model/ports.hpp"
#include "model/simulation_model.hpp"
#include "model/waveforms.hpp"

using namespace clfdtd;

namespace {

// 20 x 20 x 20 cells of 1 x 1 x 0.8 cm, 4 UPML layers, a port across an Ez sample.
const std::string kModel = R"(
[grid]
size = 0.2 0.2 0.16
cell_size = 0.01 0.01 0.008
[time]
steps = 200                    # the whole pulse (the default band is its spectrum's)
[boundary]
type = upml
layers = 4
[material.lossy]
eps_r = 2
sigma = 0.5
[object.block]
shape = box
center = 0.1 0.1 0.035
size = 0.2 0.2 0.07
material = lossy
[source.feed]
type = port
axis = z
position = 0.1 0.1 0.084
waveform = gaussian_pulse
frequency = 2e9
amplitude = 3
resistance = 25
[probe.p]
position = 0.1 0.1 0.1
fields = Ez Hx
steps = 10 20
)";

SimulationModel build(const std::string& text, const std::vector<std::string>& args = {}) {
  return SimulationModel::build(load_config_text(text, "port.ini", args));
}

std::string refusal(const std::string& text, const std::vector<std::string>& args = {}) {
  try {
    build(text, args);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a port: conductivity L / (R A) at its sample, J = V_s / (R A), its E recorded last") {
  const SimulationModel m = build(kModel);
  REQUIRE(m.ports.size() == 1);
  const PortModel& p = m.ports[0];
  CHECK(p.name == "feed");
  CHECK(p.component == Component::Ez);
  CHECK(p.cell == std::array<int, 3>{10, 10, 10});  // Ez at z = (k + 1/2) 0.008: 0.084 -> k = 10
  CHECK(p.length_m == doctest::Approx(0.008));
  CHECK(p.area_m2 == doctest::Approx(1e-4));
  const double sigma_port = 0.008 / (25 * 1e-4);  // 3.2 S/m
  const MaterialEntry& e = m.materials.entry(m.id(Component::Ez)[m.layout.index(10, 10, 10)]);
  CHECK(e.eps_r == 1);
  CHECK(e.sigma == doctest::Approx(sigma_port));
  // Its neighbours keep vacuum.
  CHECK(m.id(Component::Ez)[m.layout.index(10, 10, 11)] == MaterialTable::kVacuum);
  CHECK(m.id(Component::Ez)[m.layout.index(11, 10, 10)] == MaterialTable::kVacuum);

  // J = V_s / (R A) at (s + 1/2) dt; V_s = amplitude w(t).
  REQUIRE(m.sources.size() == 1);
  REQUIRE(p.v_source.size() == 200);
  const SourceConfig& sc = load_config_text(kModel, "port.ini", {}).sources[0];
  for (long s : {0L, 13L, 199L}) {
    const double v = 3 * waveform_value(sc, (s + 0.5) * m.grid.dt);
    CHECK(p.v_source[s] == doctest::Approx(v));
    CHECK(m.sources[0].j[s] == doctest::Approx(v / (25 * 1e-4)));
  }

  // The probe's two samples go to probes.csv; the port's E follows them and records every step.
  CHECK(m.probes.samples.size() == 3);
  CHECK(m.probes.port_samples == 1);
  CHECK(m.probes.csv_samples() == 2);
  CHECK(p.probe_samples == std::vector<std::size_t>{2});
  CHECK(m.probes.samples[2].cell == p.cell);
  CHECK(m.probes.samples[2].component == Component::Ez);
  CHECK(m.probes.first_step == 0);
  CHECK(m.probes.last_step == 200);
  CHECK(m.probes.csv_first_step == 10);
  CHECK(m.probes.csv_last_step == 20);

  // The default frequencies: 201 over the pulse's band, frequency +- bandwidth / 2 (bandwidth
  // = frequency = 2 GHz here), where its spectrum falls to 1/e of its peak.
  REQUIRE(p.frequencies_hz.size() == 201);
  CHECK(p.frequencies_hz.front() == doctest::Approx(1e9).epsilon(0.005));
  CHECK(p.frequencies_hz.back() == doctest::Approx(3e9).epsilon(0.005));
  CHECK(p.frequencies_hz[100] == doctest::Approx(2e9).epsilon(0.005));
}

TEST_CASE("a port on a lossy material adds its conductivity to the material's") {
  const SimulationModel m = build(kModel, {"--source.feed.position=0.1 0.1 0.06"});
  const PortModel& p = m.ports.at(0);
  const MaterialEntry& e = m.materials.entry(m.id(Component::Ez)[m.layout.index(p.cell[0], p.cell[1], p.cell[2])]);
  CHECK(e.eps_r == 2);
  CHECK(e.sigma == doctest::Approx(0.5 + 0.008 / (25 * 1e-4)));
}

TEST_CASE("a port in a dispersive material keeps its poles beside the port's conductivity") {
  const SimulationModel m = build(kModel, {"--source.feed.position=0.1 0.1 0.06",
                                           "--material.lossy.debye=10 1e-10",
                                           "--object.block.center=0.1 0.1 0.06",
                                           "--object.block.size=0.08 0.08 0.04"});
  const PortModel& p = m.ports.at(0);
  const MaterialEntry& e = m.materials.entry(m.id(Component::Ez)[m.layout.index(p.cell[0], p.cell[1], p.cell[2])]);
  CHECK(e.sigma == doctest::Approx(0.5 + 0.008 / (25 * 1e-4)));
  REQUIRE(e.poles.size() == 1);
  CHECK(e.poles[0].d == 10);
}

TEST_CASE("the port circuit: V = -L (E^n + E^(n+1)) / 2, I = (V_s - V) / R, Z = V / I") {
  PortModel p;
  p.length_m = 0.01;
  p.resistance_ohm = 50;
  p.v_source = {1.0, 2.0, -1.0};
  const PortSeries s = port_series(p, {0.0, -100.0, -300.0, 50.0}, 1e-12);
  REQUIRE(s.voltage_v.size() == 3);
  CHECK(s.time_s[1] == doctest::Approx(1.5e-12));
  CHECK(s.voltage_v[0] == doctest::Approx(0.5));
  CHECK(s.voltage_v[1] == doctest::Approx(2.0));
  CHECK(s.voltage_v[2] == doctest::Approx(1.25));
  CHECK(s.current_a[0] == doctest::Approx(0.5 / 50));
  CHECK(s.current_a[1] == doctest::Approx(0.0));
  CHECK(s.current_a[2] == doctest::Approx(-2.25 / 50));

  // A resistive load R_L: V = V_s R_L / (R + R_L) at every step gives Z = R_L, S11 = (R_L - R)/(R_L + R),
  // and delivers 1/2 |V|^2 / R_L.
  PortModel q;
  q.length_m = 0.01;
  q.resistance_ohm = 50;
  q.frequencies_hz = {1e9, 3e9};
  PortSeries r;
  r.dt = 1e-11;
  for (int n = 0; n < 400; ++n) {
    const double t = (n + 0.5) * r.dt;
    const double vs = std::exp(-std::pow((t - 1e-9) / 2e-10, 2)) * std::sin(2 * 3.14159265358979 * 2e9 * t);
    r.time_s.push_back(t);
    r.source_v.push_back(vs);
    r.voltage_v.push_back(vs * 150 / 200);
    r.current_a.push_back((vs - vs * 150 / 200) / 50);
  }
  const auto points = port_spectrum(q, r);
  REQUIRE(points.size() == 2);
  for (const PortPoint& pt : points) {
    CHECK(pt.z.real() == doctest::Approx(150));
    CHECK(std::abs(pt.z.imag()) < 1e-9);
    CHECK(pt.s11.real() == doctest::Approx(0.5));
    CHECK(pt.delivered > 0);
  }
}

TEST_CASE("ports: what the loader and the model refuse") {
  // Keys of ports only.
  std::string text = kModel;
  text.replace(text.find("type = port"), 11, "type = current");
  CHECK(refusal(text).find("no resistance unless type = port") != std::string::npos);
  CHECK(refusal(kModel, {"--source.feed.frequencies=1e9 1e11"}).find("frequencies in (0,") !=
        std::string::npos);
  // On PEC, in the UPML, two on one sample.
  CHECK(refusal(kModel + "[object.wire]\nshape = box\ncenter = 0.1 0.1 0.08\nsize = 0.1 0.1 0.04\nmaterial = pec\n")
            .find("a position off PEC") != std::string::npos);
  CHECK(refusal(kModel, {"--source.feed.position=0.1 0.1 0.01"}).find("outside the UPML") !=
        std::string::npos);
  CHECK(refusal(kModel + "[source.twin]\ntype = port\nposition = 0.1 0.1 0.084\nfrequency = 1e9\n")
            .find("a sample no other source drives (source 'twin'") != std::string::npos);
  // Port names name files: at most 200 characters, and not two that differ by case only.
  CHECK(refusal(kModel + "[source." + std::string(201, 'p') + "]\ntype = port\nposition = 0.1 0.12 0.084\nfrequency = 1e9\n")
            .find("a port name of at most 200 characters") != std::string::npos);
  CHECK(refusal(kModel + "[source.FEED]\ntype = port\nposition = 0.1 0.12 0.084\nfrequency = 1e9\n")
            .find("a port name that differs from 'feed' by more than case") != std::string::npos);
  // 3D only.
  CHECK(refusal("[grid]\nsize = 0.2 0.2\ncell_size = 0.01\n[time]\nsteps = 10\n[source.s]\ntype = port\n"
                "position = 0.1 0.1\nfrequency = 1e9\n")
            .find("ports are 3D only") != std::string::npos);
}

TEST_CASE("ports: another source on the sample, and an undriven port with nothing to take a band from") {
  CHECK(refusal(kModel + "[source.extra]\ntype = current\nposition = 0.1 0.1 0.084\nfrequency = 1e9\n")
            .find("a sample no other source drives (source 'extra'") != std::string::npos);
  CHECK(refusal(kModel, {"--source.feed.amplitude=0"})
            .find("frequencies for a port with amplitude 0 when no port is driven") != std::string::npos);
  const SimulationModel m = build(kModel, {"--source.feed.amplitude=0", "--source.feed.frequencies=1e9 2e9"});
  CHECK_FALSE(m.ports.at(0).driven);
  CHECK(m.ports.at(0).s21_from == -1);
  CHECK(m.ports.at(0).frequencies_hz.size() == 2);
}

TEST_CASE("ports: a resistance so small that its conductivity overflows is refused") {
  CHECK(refusal(kModel, {"--source.feed.resistance=1e-320", "--source.feed.amplitude=0",
                         "--source.feed.frequencies=1e9"})
            .find("a resistance whose conductivity L / (R A) over the sample is finite") !=
        std::string::npos);
}

TEST_CASE("ports over a box: samples in series and in parallel, each with the box's conductivity "
          "and current, recorded together") {
  // 3 node lines across x (0.09 .. 0.11) x 1 in y, and 2 cells along z (0.084 +- 0.008).
  const SimulationModel m = build(kModel, {"--source.feed.size=0.02 0 0.016"});
  REQUIRE(m.ports.size() == 1);
  const PortModel& p = m.ports[0];
  CHECK(p.along == 2);
  CHECK(p.across == 3);
  REQUIRE(p.cells.size() == 6);
  // Column by column, each along z: x nodes 9, 10, 11; z cells 10, 11 (0.076 and 0.092 round
  // to the planes 0.08 and 0.096).
  CHECK(p.cells[0] == std::array<int, 3>{9, 10, 10});
  CHECK(p.cells[1] == std::array<int, 3>{9, 10, 11});
  CHECK(p.cells[5] == std::array<int, 3>{11, 10, 11});
  CHECK(p.length_m == doctest::Approx(2 * 0.008));
  CHECK(p.area_m2 == doctest::Approx(3 * 0.01 * 0.01));
  // Every sample: the lossy block's 0.5 S/m is below z = 0.07, so vacuum plus L / (R A).
  for (const auto& cell : p.cells) {
    const MaterialEntry& e =
        m.materials.entry(m.id(Component::Ez)[m.layout.index(cell[0], cell[1], cell[2])]);
    CHECK(e.sigma == doctest::Approx(0.016 / (25 * 3e-4)));
  }
  // One source per sample: the configured one first (its first sample), the other five after
  // every configured source, each with the same table J = V_s / (R A_box).
  REQUIRE(m.sources.size() == 6);
  for (const SourceModel& s : m.sources) {
    CHECK(s.name == "feed");
    CHECK(s.j == m.sources[0].j);
  }
  CHECK(m.sources[0].cell == p.cells[0]);
  for (std::size_t k = 0; k < p.v_source.size(); k += 7)
    CHECK(m.sources[0].j[k] * 25 * 3e-4 == doctest::Approx(p.v_source[k]));
  // Recorded after the probe's two samples, all six.
  REQUIRE(p.probe_samples.size() == 6);
  CHECK(p.probe_samples.front() == 2);
  CHECK(m.probes.port_samples == 6);
  CHECK(m.probes.samples[p.probe_samples[3]].cell == p.cells[3]);
  // Both ends of every column are in vacuum: the model warns.
  bool warned = false;
  for (const std::string& w : m.warnings)
    warned = warned || w.find("port 'feed': 3 of its 3 sample columns end on no conductor") == 0;
  CHECK(warned);

  // Across the axis an extent under half a cell is the nearest node line, even where its two
  // faces would round to two (0.4 cell about x = 0.105, between the lines 0.10 and 0.11).
  const SimulationModel thin = build(kModel, {"--source.feed.position=0.105 0.1 0.084",
                                              "--source.feed.size=0.004 0 0.016"});
  CHECK(thin.ports[0].across == 1);
  CHECK(thin.ports[0].along == 2);
  // An extent of 0 keeps the nearest sample on that axis: size 0 0 0 is the one sample.
  const SimulationModel one = build(kModel, {"--source.feed.size=0 0 0"});
  CHECK(one.ports[0].cells == std::vector<std::array<int, 3>>{{10, 10, 10}});
  CHECK(one.sources.size() == 1);
  CHECK(one.warnings.empty());
  // The same source voltage V_s (3 V peak) whatever the box.
  REQUIRE(one.ports[0].v_source.size() == p.v_source.size());
  for (std::size_t k = 0; k < p.v_source.size(); ++k)
    CHECK(p.v_source[k] == doctest::Approx(one.ports[0].v_source[k]));
}

TEST_CASE("ports over a box: columns between conductors do not warn") {
  // PEC plates above and below a 2-cell gap: every column ends on PEC.
  const std::string plates = kModel +
                             "[object.top]\nshape = box\ncenter = 0.1 0.1 0.104\nsize = 0.06 0.06 0.016\nmaterial = pec\n"
                             "[object.bottom]\nshape = box\ncenter = 0.1 0.1 0.076\nsize = 0.06 0.06 0.008\nmaterial = pec\n";
  const SimulationModel m = build(plates, {"--source.feed.size=0.02 0.02 0.016"});
  CHECK(m.ports[0].across == 9);
  for (const std::string& w : m.warnings) {
    CHECK(w.find("end on no conductor") == std::string::npos);
    CHECK(w.find("longer than the port") == std::string::npos);
  }
}

namespace {
// The run's warning that a port feeds only part of its gap ("" if none).
std::string gap_warning(const SimulationModel& m) {
  std::string said;
  for (const std::string& w : m.warnings)
    if (w.find("longer than the port") != std::string::npos) said = w;
  return said;
}
}  // namespace

TEST_CASE("a port that feeds part of its gap warns, with the box that spans it") {
  // The same plates, the gap z 0.080 .. 0.096 two samples long; the default port is one sample
  // on the lower plate: the other sample sits unfed in series with it.
  const std::string plates = kModel +
                             "[object.top]\nshape = box\ncenter = 0.1 0.1 0.104\nsize = 0.06 0.06 0.016\nmaterial = pec\n"
                             "[object.bottom]\nshape = box\ncenter = 0.1 0.1 0.076\nsize = 0.06 0.06 0.008\nmaterial = pec\n";
  std::string said = gap_warning(build(plates, {}));
  CHECK(said.find("port 'feed': the gap it feeds is longer than the port: along z the conductors "
                  "are 2 samples apart and 1 of them is fed by no port; an unfed sample") == 0);
  CHECK(said.find("source.feed.position = 0.1 0.1 0.088, source.feed.size = 0 0 0.016") !=
        std::string::npos);
  // The top plate moved down onto the port's upper end: a one-sample gap, fed whole.
  std::string closed = plates;
  closed.replace(closed.find("center = 0.1 0.1 0.104\nsize = 0.06 0.06 0.016"), 45,
                 "center = 0.1 0.1 0.1\nsize = 0.06 0.06 0.024");
  CHECK(gap_warning(build(closed, {})).empty());
  // In space (no conductor near either end) a one-sample port is a source, not a short gap.
  CHECK(gap_warning(build(kModel, {})).empty());
}

TEST_CASE("a port's gap: centred in it, under a strip, in series with a port, beside the UPML") {
  // No lossy block: 20 z cells of 8 mm, UPML 4 layers. A plate over nodes 7 .. 9 (z 0.056 ..
  // 0.072); the port's default sample is Ez 10 (z 0.080 .. 0.088).
  std::string base = kModel;
  base.erase(base.find("[object.block]"), base.find("[source.feed]") - base.find("[object.block]"));
  const std::string bottom =
      "[object.bottom]\nshape = box\ncenter = 0.1 0.1 0.064\nsize = 0.06 0.06 0.016\nmaterial = pec\n";
  // Centred in a gap of three samples (a top plate from node 12): one unfed sample each side
  // (not a conductor at either end), and the box named is the gap's.
  const std::string three = base + bottom +
      "[object.top]\nshape = box\ncenter = 0.1 0.1 0.104\nsize = 0.06 0.06 0.016\nmaterial = pec\n";
  std::string said = gap_warning(build(three, {}));
  CHECK(said.find("along z the conductors are 3 samples apart and 2 of them are fed by no port") !=
        std::string::npos);
  CHECK(said.find("source.feed.position = 0.1 0.1 0.084, source.feed.size = 0 0 0.024") !=
        std::string::npos);
  // A strip thinner than a cell at node 11 (z 0.088) holds only Ex and Ey samples. A box port
  // from the plate to the strip (Ez 9, 10) spans its gap: no warning of either kind; the one
  // default sample (Ez 10) leaves Ez 9 unfed.
  const std::string strip = base + bottom +
      "[object.strip]\nshape = box\ncenter = 0.1 0.1 0.088\nsize = 0.06 0.02 0.0001\nmaterial = pec\n";
  const SimulationModel spanned = build(strip, {"--source.feed.position=0.1 0.1 0.08",
                                                "--source.feed.size=0.02 0 0.016"});
  CHECK(spanned.ports[0].along == 2);
  for (const std::string& w : spanned.warnings) {
    CHECK(w.find("longer than the port") == std::string::npos);
    CHECK(w.find("end on no conductor") == std::string::npos);
  }
  CHECK(gap_warning(build(strip, {})).find("source.feed.position = 0.1 0.1 0.08, "
                                           "source.feed.size = 0 0 0.016") != std::string::npos);
  // Two ports in series in that gap: each is one element of the pair, neither warns; as boxes
  // across the strip neither is said to end on no conductor.
  const std::string pair = strip + "[source.b]\ntype = port\naxis = z\nposition = 0.1 0.1 0.076\n"
                                   "waveform = gaussian_pulse\nfrequency = 2e9\namplitude = 0\n";
  for (const std::string& w : build(pair, {}).warnings)
    CHECK(w.find("longer than the port") == std::string::npos);
  for (const std::string& w : build(pair, {"--source.feed.size=0.02 0 0", "--source.b.size=0.02 0 0"}).warnings) {
    CHECK(w.find("longer than the port") == std::string::npos);
    CHECK(w.find("end on no conductor") == std::string::npos);
  }
  // The pair in the three-sample gap leaves one sample unfed: both warn, and no box is named
  // (it would overlap the other port).
  const std::string pair3 = three + "[source.b]\ntype = port\naxis = z\nposition = 0.1 0.1 0.076\n"
                                    "waveform = gaussian_pulse\nfrequency = 2e9\namplitude = 0\n";
  int short_ports = 0;
  for (const std::string& w : build(pair3, {}).warnings)
    if (w.find("1 of them is fed by no port") != std::string::npos) {
      ++short_ports;
      CHECK(w.find("source.feed.size =") == std::string::npos);
    }
  CHECK(short_ports == 2);
  // A lossy substrate filling the gap is no lumped element: its unfed sample is still warned.
  const std::string lossy = strip +
      "[material.fr4]\neps_r = 4.4\nsigma = 0.01\n"
      "[object.substrate]\nshape = box\ncenter = 0.1 0.1 0.08\nsize = 0.2 0.2 0.016\nmaterial = fr4\n";
  CHECK(gap_warning(build(lossy, {})).find("1 of them is fed by no port") != std::string::npos);
  // A plate ending at the UPML's inner face (node 16) with the port on it: past the port's upper
  // end lie the layers and the wall behind them, which is no gap to span.
  const std::string high = base +
      "[object.top]\nshape = box\ncenter = 0.1 0.1 0.112\nsize = 0.06 0.06 0.016\nmaterial = pec\n";
  CHECK(gap_warning(build(high, {"--source.feed.position=0.1 0.1 0.124"})).empty());
}

TEST_CASE("ports over a box: what is refused") {
  std::string text = kModel;
  text.replace(text.find("type = port"), 11, "type = current");
  text.erase(text.find("resistance = 25"), 15);
  CHECK(refusal(text, {"--source.feed.size=0 0 0.016"}).find("no size unless type = port") !=
        std::string::npos);
  CHECK(refusal(kModel, {"--source.feed.size=0 0.4 0"}).find("a box about the position inside the domain") !=
        std::string::npos);
  CHECK(refusal(kModel, {"--source.feed.size=0 0 -0.01"}).find("source.feed.size") != std::string::npos);
  CHECK(refusal(kModel, {"--source.feed.size=0 0"}).find("source.feed.size") != std::string::npos);
  // Into the UPML (4 cells: z < 0.032) and onto PEC: the box is named, not the position.
  CHECK(refusal(kModel, {"--source.feed.size=0 0 0.12"})
            .find("'source.feed.size': a box whose samples lie outside the UPML layers") !=
        std::string::npos);
  CHECK(refusal(kModel + "[object.wire]\nshape = box\ncenter = 0.1 0.1 0.1\nsize = 0.005 0.005 0.01\nmaterial = pec\n",
                {"--source.feed.size=0 0 0.04"})
            .find("'source.feed.size': a box whose samples lie off PEC") != std::string::npos);
  // Frequencies out of order, or twice: a Touchstone file lists them increasing, once each.
  CHECK(refusal(kModel, {"--source.feed.frequencies=2e9 1e9"})
            .find("frequencies in increasing order, each once (1e+09 follows 2e+09)") !=
        std::string::npos);
  CHECK(refusal(kModel, {"--source.feed.frequencies=1e9 1e9"}).find("increasing order") !=
        std::string::npos);
  // More than 1000 samples: 11 x 11 columns of 10.
  CHECK(refusal(kModel, {"--source.feed.size=0.1 0.1 0.08"})
            .find("a box of at most 1000 E samples, got 10 along the axis x 121 across it") !=
        std::string::npos);
  // Another source on one of its samples.
  CHECK(refusal(kModel + "[source.extra]\ntype = current\nposition = 0.11 0.1 0.09\nfrequency = 1e9\n",
                {"--source.feed.size=0.02 0 0.016"})
            .find("samples no other source drives (source 'extra' drives one of its Ez samples)") !=
        std::string::npos);
}
