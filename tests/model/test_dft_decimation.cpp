// The DFT monitors' decimation D (host/model/dft_decimation.hpp) on sources with known spectra:
// a Gaussian pulse's band ends where its spectrum falls to 1e-6 of the peak, so D follows from the
// formula; a sine still on at the end, or a pulse switched on at its peak, gives D = 1; the key
// monitor.<name>.decimation forces D, with a warning only where frequencies then alias.
#include <doctest/doctest.h>

#include <cmath>

#include "model/dft_decimation.hpp"
#include "model/simulation_model.hpp"
#include "model_helpers.hpp"

using namespace clfdtd;

namespace {

constexpr double kPi = 3.14159265358979323846;

// model_helpers.hpp's 20^3 grid of 1 cm cells (courant 0.9: dt = 17.3 ps), 600 steps, a
// Gaussian-pulse current at 1.1 GHz (bandwidth 1.1 GHz), a flux box at 1 and 2 GHz.
RunConfig pulse_config() {
  RunConfig cfg = small_dipole_config();
  cfg.time.steps = 600;
  SourceConfig& s = cfg.sources[0];
  s.kind = SourceKind::Current;
  s.waveform = WaveformKind::GaussianPulse;
  s.frequency_hz = 1.1e9;
  s.amplitude = 1;
  MonitorConfig m;
  m.name = "box";
  m.kind = MonitorKind::Flux;
  m.box_lo = Vec3{0.06, 0.06, 0.06};
  m.box_hi = Vec3{0.14, 0.14, 0.14};
  m.frequencies_hz = {1e9, 2e9};
  cfg.monitors.push_back(m);
  return cfg;
}

// The pulse sin(2 pi f0 t) exp(-(t / tau)^2), tau = 2 / (pi f0): its spectrum relative to the
// peak is exp(-(pi tau (f - f0))^2), 1e-6 at f0 + sqrt(ln 1e6) / (pi tau).
double pulse_top_hz(double f0) {
  const double tau = 2 / (kPi * f0);
  return f0 + std::sqrt(std::log(1e6)) / (kPi * tau);
}

}  // namespace

TEST_CASE("decimation: a Gaussian pulse's band gives D from the formula, > 1") {
  RunConfig cfg = pulse_config();
  const SimulationModel m = SimulationModel::build(cfg);
  const double dt = m.grid.dt;
  const SourceBand band = source_band(m.sources, dt);
  REQUIRE(band.limited);
  const double want = pulse_top_hz(1.1e9);  // 3.14 GHz
  // The analysis grid's spacing is 1 / (2 M dt), M >= 256: f_top within one step above.
  CHECK(band.top_hz >= want * 0.995);
  CHECK(band.top_hz <= want + 1.0 / (512 * dt));
  // 1 / (2.5 f_top dt) = 7.3 with the analytic f_top.
  const int expected = static_cast<int>(std::floor(1 / (2 * kDecimationMargin * want * dt)));
  CHECK(expected == 7);
  REQUIRE(m.monitors.size() == 1);
  CHECK(m.monitors[0].dft_every == expected);
  CHECK(m.warnings.empty());

  // A monitor frequency above the sources' band sets f_hi: 1 / (2.5 * 4 GHz * dt) = 5.8.
  CHECK(auto_dft_decimation(band, 4e9, dt) == 5);
  // The same pulse as a dipole: J = dp/dt weighs the high frequencies up a little.
  cfg.sources[0].kind = SourceKind::Dipole;
  cfg.sources[0].amplitude = 1e-12;
  const SimulationModel dipole = SimulationModel::build(cfg);
  CHECK(dipole.monitors[0].dft_every > 1);
  CHECK(dipole.monitors[0].dft_every <= expected);
}

TEST_CASE("decimation: without any source current only the monitor's frequencies count") {
  const double dt = 1e-11;
  SourceBand none;
  CHECK(auto_dft_decimation(none, 3e9, dt) == 13);  // 1 / (2.5 * 3e9 * 1e-11) = 13.3
  CHECK(auto_dft_decimation(none, 1e9, dt) == kMaxDftDecimation);  // 40, capped at 16
  CHECK(auto_dft_decimation(none, 3e10, dt) == 1);  // 1.3
  SourceBand open;
  open.limited = false;
  CHECK(auto_dft_decimation(open, 1e9, dt) == 1);
}

TEST_CASE("decimation: a sine still on at the end, a pulse switched on at its peak: D = 1") {
  RunConfig cfg = pulse_config();
  cfg.sources[0].waveform = WaveformKind::Sine;
  SimulationModel m = SimulationModel::build(cfg);
  SourceBand band = source_band(m.sources, m.grid.dt);
  CHECK_FALSE(band.limited);
  CHECK(band.why == "source 'feed' is still on at the run's last step");
  CHECK(m.monitors[0].dft_every == 1);

  // A Gaussian whose peak is at t = 0: the table starts at its peak, a step in J.
  cfg.sources[0].waveform = WaveformKind::Gaussian;
  cfg.sources[0].delay_s = 0.0;
  m = SimulationModel::build(cfg);
  band = source_band(m.sources, m.grid.dt);
  CHECK_FALSE(band.limited);
  CHECK(band.why.find("switched on or off abruptly") != std::string::npos);
  CHECK(m.monitors[0].dft_every == 1);

  // The same Gaussian delayed to 4 tau (its default) falls off: D > 1 again.
  cfg.sources[0].delay_s.reset();
  m = SimulationModel::build(cfg);
  CHECK(source_band(m.sources, m.grid.dt).limited);
  CHECK(m.monitors[0].dft_every > 1);
}

TEST_CASE("decimation: monitor.<name>.decimation forces D; a warning where frequencies alias") {
  RunConfig cfg = pulse_config();
  cfg.monitors[0].decimation = 3;
  SimulationModel m = SimulationModel::build(cfg);
  CHECK(m.monitors[0].dft_every == 3);
  CHECK(m.warnings.empty());
  // 8 > the automatic 7, yet 1 / (8 dt) = 7.2 GHz is above f_top + 2 GHz = 5.1 GHz: no alias.
  cfg.monitors[0].decimation = 8;
  m = SimulationModel::build(cfg);
  CHECK(m.monitors[0].dft_every == 8);
  CHECK(m.warnings.empty());
  // 1 / (12 dt) = 4.8 GHz is not: the pulse's top aliases onto the monitor's band.
  cfg.monitors[0].decimation = 12;
  m = SimulationModel::build(cfg);
  CHECK(m.monitors[0].dft_every == 12);
  REQUIRE(m.warnings.size() == 1);
  CHECK(m.warnings[0].find("monitor 'box': decimation 12 samples at ") == 0);
  CHECK(m.warnings[0].find("the automatic choice is 7") != std::string::npos);
  // A sine: any D > 1 aliases.
  cfg.sources[0].waveform = WaveformKind::Sine;
  cfg.monitors[0].decimation = 2;
  m = SimulationModel::build(cfg);
  CHECK(m.monitors[0].dft_every == 2);
  REQUIRE(m.warnings.size() == 1);
  CHECK(m.warnings[0].find("still on at the run's last step") != std::string::npos);
  cfg.monitors[0].decimation = 1;
  CHECK(SimulationModel::build(cfg).warnings.empty());
}
