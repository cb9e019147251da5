// host/model/model_warnings.hpp: what a model that runs but may not be what its author meant is
// told, and that a sound model is told nothing.
#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "config/load_config.hpp"
#include "model/model_warnings.hpp"
#include "model/simulation_model.hpp"
#include "model/waveforms.hpp"

using namespace clfdtd;

namespace {

// 30^3 cells of 1 cm, 5 UPML layers, a 1 GHz pulse in the middle, 400 steps (past its end).
const std::string kGrid =
    "[grid]\nsize = 0.3 0.3 0.3\ncell_size = 0.01\n[time]\nsteps = 400\n[boundary]\nlayers = 5\n";
const std::string kSource = "[source.feed]\nposition = 0.15 0.15 0.15\nfrequency = 1e9\n";

std::vector<std::string> warnings(const std::string& text, const std::vector<std::string>& args = {}) {
  return SimulationModel::build(load_config_text(text, "w.ini", args)).warnings;
}

bool has(const std::vector<std::string>& w, const std::string& part) {
  for (const auto& s : w)
    if (s.find(part) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("a sound model gets no warning") {
  const std::string sphere =
      "[material.glass]\neps_r = 2.25\n[object.ball]\nshape = sphere\ncenter = 0.15 0.15 0.1\n"
      "radius = 0.03\nmaterial = glass\n[probe.p]\nposition = 0.15 0.2 0.15\nfields = Ez\n";
  CHECK(warnings(kGrid + kSource + sphere).empty());
}

TEST_CASE("an object that holds no field sample is named") {
  const std::string tiny =
      "[material.glass]\neps_r = 4\n[object.ball]\nshape = sphere\ncenter = 0.155 0.155 0.105\n"
      "radius = 0.002\nmaterial = glass\n";
  const auto w = warnings(kGrid + kSource + tiny);
  REQUIRE(w.size() == 1);
  CHECK(w[0].find("object 'ball' holds no field sample") != std::string::npos);
  // A thin plate between two sample planes too; one cell across is in.
  const std::string plate =
      "[material.glass]\neps_r = 4\n[object.plate]\nshape = box\ncenter = 0.15 0.15 0.1025\n"
      "size = 0.1 0.1 0.002\nmaterial = glass\n";
  CHECK(has(warnings(kGrid + kSource + plate), "object 'plate' holds no field sample"));
  CHECK(warnings(kGrid + kSource + tiny, {"--object.ball.radius=0.01"}).empty());
}

TEST_CASE("a material no object uses is named, with the nearest used name") {
  const std::string glass =
      "[material.glass]\neps_r = 4\n[object.ball]\nshape = sphere\ncenter = 0.15 0.15 0.1\n"
      "radius = 0.03\nmaterial = glass\n";
  const auto w = warnings(kGrid + kSource + glass, {"--material.glas.eps_r=9"});
  REQUIRE(w.size() == 1);
  CHECK(w[0] == "material 'glas' is used by no object (did you mean 'glass'?)");
  CHECK(warnings(kGrid + kSource + glass + "[material.spare]\neps_r = 3\n") ==
        std::vector<std::string>{"material 'spare' is used by no object"});
}

TEST_CASE("an extent that grid.size does not hold in whole cells is said past 1%") {
  // 0.3 / 0.015 = 20 cells; 0.31 / 0.015 = 20.67 -> 21 cells, 0.315 m (+1.6%).
  const auto w = warnings(kGrid + kSource, {"--grid.cell_size=0.015", "--grid.size=0.3 0.31 0.3"});
  REQUIRE(w.size() == 1);
  CHECK(w[0] == "grid.size along y is 0.31 m, 20.67 cells of 0.015 m: the grid has 21 cells, 0.315 m, "
                "and its outer walls lie there");
  // 0.302 -> 20.13 -> 20 cells, 0.3 m: 0.7%, not said.
  CHECK(warnings(kGrid + kSource, {"--grid.cell_size=0.015", "--grid.size=0.3 0.302 0.3"}).empty());
}

TEST_CASE("a source silent for the whole run: a frequency in GHz, a delay past the end") {
  auto w = warnings(kGrid + kSource, {"--source.feed.frequency=1.5", "--source.feed.bandwidth=1.5"});
  REQUIRE(w.size() == 1);
  CHECK(w[0].find("source 'feed' stays below 0.01 of its peak for the whole run") != std::string::npos);
  CHECK(w[0].find("gaussian_pulse at 1.5 Hz peaks at t = 1.698 s") != std::string::npos);
  w = warnings(kGrid + kSource, {"--source.feed.waveform=sine", "--source.feed.delay=1e-6"});
  REQUIRE(w.size() == 1);
  CHECK(w[0].find("sine at 1e+09 Hz switches on at t = 1e-06 s") != std::string::npos);
  // Past 1% before the last step: the pulse arrives, though late.
  CHECK(warnings(kGrid + kSource, {"--source.feed.delay=7e-9"}).empty());
}

TEST_CASE("no source, or none with an amplitude") {
  CHECK(warnings(kGrid) == std::vector<std::string>{"the model has no source: every field stays zero"});
  CHECK(warnings(kGrid + kSource, {"--source.feed.amplitude=0"}) ==
        std::vector<std::string>{"every source's amplitude is 0: every field stays zero"});
}

TEST_CASE("a source band the cells resolve with fewer than 5 cells a wavelength") {
  // A 1 cm cell: 5 cells a wavelength is 6 GHz in vacuum. A 5 GHz gaussian_pulse reaches
  // 5 + 0.76 x 5 = 8.8 GHz: 3.4 cells.
  auto w = warnings(kGrid + kSource, {"--source.feed.frequency=5e9"});
  REQUIRE(w.size() == 1);
  CHECK(w[0].find("source 'feed' carries frequencies up to 8.79e+09 Hz") != std::string::npos);
  CHECK(w[0].find("a wavelength in vacuum spans 3.4 cells of 0.01 m") != std::string::npos);
  // 2 GHz (3.5 GHz at the top) is fine in vacuum, not in eps_r = 9 (n = 3): 2.84 cells.
  CHECK(warnings(kGrid + kSource, {"--source.feed.frequency=2e9"}).empty());
  const std::string block =
      "[material.ceramic]\neps_r = 9\n[object.b]\nshape = box\ncenter = 0.15 0.15 0.06\n"
      "size = 0.3 0.3 0.04\nmaterial = ceramic\n";
  w = warnings(kGrid + kSource + block, {"--source.feed.frequency=2e9"});
  REQUIRE(w.size() == 1);
  CHECK(w[0].find("in material 'ceramic' (n = 3) spans 2.84 cells") != std::string::npos);
  // Poles count: eps_inf 1 with a Debye pole of static eps 9 (tau 1 ps: n near 3 throughout the
  // band) is as slow as the ceramic; with tau 1 ns the pole has relaxed long before 2 GHz, where
  // n is near 1 again, and the slowest point of the band lies lower: still resolved.
  const std::string debye =
      "[material.ceramic]\neps_r = 1\ndebye = 8 1e-12\n[object.b]\nshape = box\ncenter = 0.15 0.15 0.08\n"
      "size = 0.18 0.18 0.04\nmaterial = ceramic\n";  // clear of the 5 UPML layers
  w = warnings(kGrid + kSource + debye, {"--source.feed.frequency=2e9"});
  REQUIRE(w.size() == 1);
  CHECK(w[0].find("in material 'ceramic' (n = 3) spans 2.84 cells") != std::string::npos);
  CHECK(warnings(kGrid + kSource + debye, {"--source.feed.frequency=2e9", "--material.ceramic.debye=8 1e-9"}).empty());
  // A Drude metal (Re eps < 0 through the band: the field decays over a skin depth there, n is
  // huge but no wavelength travels) adds no warning; a plasma above its plasma frequency counts.
  const std::string metal =
      "[material.metal]\neps_r = 1\ndrude = 2e15 1e13\n[object.b]\nshape = box\ncenter = 0.15 0.15 0.08\n"
      "size = 0.18 0.18 0.04\nmaterial = metal\n";
  CHECK(warnings(kGrid + kSource + metal, {"--source.feed.frequency=2e9"}).empty());
  w = warnings(kGrid + kSource + metal, {"--source.feed.frequency=2e9", "--material.metal.eps_r=9",
                                          "--material.metal.drude=5e8 1e6"});
  REQUIRE(w.size() == 1);
  CHECK(w[0].find("in material 'metal'") != std::string::npos);
}

TEST_CASE("waveform_top_hz: each waveform's spectrum is a tenth of its peak there") {
  // |W(f)| by a direct transform of w(t) on a fine grid over the whole pulse.
  auto spectrum = [](const SourceConfig& s, double f) {
    const double t0 = s.delay_s.value_or(default_delay_s(s));
    const double dt = 1 / (200 * waveform_top_hz(s));
    std::complex<double> sum = 0;
    for (double t = 0; t < 2 * t0 + 40 / s.frequency_hz; t += dt)
      sum += waveform_value(s, t) * std::exp(std::complex<double>(0, -2 * M_PI * f * t)) * dt;
    return std::abs(sum);
  };
  for (WaveformKind kind : {WaveformKind::Gaussian, WaveformKind::GaussianPulse, WaveformKind::Ricker}) {
    SourceConfig s;
    s.waveform = kind;
    s.frequency_hz = 1e9;
    if (kind == WaveformKind::GaussianPulse) s.bandwidth_hz = 0.5e9;
    double peak = 0;
    for (double f = 0; f < 3e9; f += 5e6) peak = std::max(peak, spectrum(s, f));
    CAPTURE(static_cast<int>(kind));
    CHECK(spectrum(s, waveform_top_hz(s)) / peak == doctest::Approx(0.1).epsilon(0.01));
  }
}

TEST_CASE("a probe inside the UPML layers is named once") {
  const auto w = warnings(kGrid + kSource + "[probe.edge]\nposition = 0.02 0.15 0.15\nfields = Ez Hx\n");
  REQUIRE(w.size() == 1);
  CHECK(w[0].find("probe 'edge' samples inside the UPML layers") != std::string::npos);
}

TEST_CASE("a probe whose E sample lies in PEC is named once; beside the block, or H there, none") {
  const std::string block = "[object.block]\nshape = box\ncenter = 0.2 0.15 0.15\nsize = 0.04 0.04 0.04\n"
                            "material = pec\n";
  const auto w = warnings(kGrid + kSource + block + "[probe.in]\nposition = 0.2 0.15 0.15\nfields = Ex Ez Hy\n");
  REQUIRE(w.size() == 1);
  CHECK(w[0].rfind("probe 'in': its Ex sample at (", 0) == 0);
  CHECK(w[0].find(" lies in PEC (an object of material pec or the grid's wall), where E stays zero") !=
        std::string::npos);
  CHECK(warnings(kGrid + kSource + block + "[probe.out]\nposition = 0.15 0.15 0.15\nfields = Ez\n").empty());
  CHECK(warnings(kGrid + kSource + block + "[probe.h]\nposition = 0.2 0.15 0.15\nfields = Hy\n").empty());
}
