// Decimated DFT monitors on the reference engine (model/dft_decimation.hpp): a monitor of
// decimation D adds, at the steps n % D == 0 only, D times what the every-step monitor adds there;
// and on a real run, a dipole's flux through a closed box with the automatic D equals the
// every-step flux within 1e-4 (the field's band lies below 1 / (2 D dt)).
#include <doctest/doctest.h>

#include <cmath>
#include <complex>

#include "backends/monitor_helpers.hpp"
#include "backends/physics_helpers.hpp"
#include "backends/reference/reference_backend.hpp"
#include "monitors/surface_fields.hpp"
#include "monitors/surface_sampling.hpp"
#include "solver/time_loop.hpp"

using namespace clfdtd;
using namespace clfdtd::test;

namespace {

constexpr double kD = 1e-3;

// 30^3 cells of 1 mm, 8 UPML layers, a Gaussian-pulse dipole at 15 GHz (20 cells per
// wavelength) in the middle, a closed flux box 5 cells around it at 0.5 .. 1.5 times 15 GHz.
RunConfig dipole_config(long steps) {
  RunConfig cfg = box_config({30, 30, 30}, kD, steps, BoundaryType::Upml, 8);
  cfg.sources = {point_source("feed", SourceKind::Dipole, Axis::Z, cells(15, 15, 15.5, kD),
                              WaveformKind::GaussianPulse, kC0 / (20 * kD), 1e-15)};
  MonitorConfig box;
  box.name = "box";
  box.kind = MonitorKind::Flux;
  box.box_lo = cells(10, 10, 10, kD);
  box.box_hi = cells(20, 20, 20, kD);
  for (double r : {0.5, 0.75, 1.0, 1.25, 1.5}) box.frequencies_hz.push_back(r * kC0 / (20 * kD));
  cfg.monitors.push_back(box);
  return cfg;
}

std::vector<double> run_flux(const SimulationModel& m) {
  ReferenceBackend ref(m);
  ModeSink sink;
  LoopOptions opt;
  opt.progress_interval_s = 1e9;
  REQUIRE(run_time_loop(m, ref, sink, nullptr, opt).finite);
  std::vector<std::complex<double>> dft;
  ref.read_dft(0, dft);
  return surface_flux(sample_surface(m.monitors[0], m.grid, dft));
}

}  // namespace

TEST_CASE("reference: decimation D adds D times the every-step increment at n % D == 0 only") {
  RunConfig cfg = dipole_config(40);
  SimulationModel m = SimulationModel::build(cfg);
  m.monitors.clear();
  const std::vector<DftRegion> regions = {region(Component::Ez, {12, 13, 14}, {17, 16, 17}),
                                          region(Component::Hx, {12, 13, 14}, {17, 16, 17})};
  m.monitors.push_back(dft_monitor("every", regions, {7e9, 15e9, 22e9}));
  m.monitors.push_back(dft_monitor("third", regions, {7e9, 15e9, 22e9}));
  m.monitors[1].dft_every = 3;
  ReferenceBackend ref(m);
  std::vector<std::complex<double>> before, after, third, want(m.monitors[0].points() * 3);
  for (long n = 0; n <= m.grid.steps; ++n) {
    if (n > 0) ref.step(n - 1);
    ref.read_dft(0, before);
    ref.accumulate_dft(n);
    ref.read_dft(0, after);
    if (n % 3 != 0) continue;
    for (std::size_t i = 0; i < want.size(); ++i) want[i] += 3.0 * (after[i] - before[i]);
  }
  ref.read_dft(1, third);
  REQUIRE(third.size() == want.size());
  double scale = 0, diff = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    scale = std::max(scale, std::abs(want[i]));
    diff = std::max(diff, std::abs(third[i] - want[i]));
  }
  REQUIRE(scale > 0);
  CHECK(diff <= 1e-12 * scale);
  // Not the every-step sum: the test would not notice a D that is ignored otherwise.
  ref.read_dft(0, after);
  double apart = 0;
  for (std::size_t i = 0; i < want.size(); ++i)
    apart = std::max(apart, std::abs(after[i] - third[i]));
  CHECK(apart > 1e-3 * scale);
}

TEST_CASE("a dipole's flux with the automatic decimation equals the every-step flux within 1e-4") {
  RunConfig cfg = dipole_config(500);
  const SimulationModel decimated = SimulationModel::build(cfg);
  const int every = decimated.monitors[0].dft_every;
  MESSAGE("automatic decimation: " << every);
  CHECK(every > 1);
  cfg.monitors[0].decimation = 1;
  const SimulationModel full = SimulationModel::build(cfg);
  REQUIRE(full.monitors[0].dft_every == 1);
  const std::vector<double> got = run_flux(decimated), want = run_flux(full);
  REQUIRE(got.size() == want.size());
  for (std::size_t f = 0; f < want.size(); ++f) {
    INFO("frequency " << decimated.monitors[0].frequencies_hz[f]);
    CHECK(want[f] > 0);
    const double rel = std::abs(got[f] - want[f]) / want[f];
    MESSAGE("flux " << want[f] << " J s, decimated relative difference " << rel);
    CHECK(rel < 1e-4);
  }
}
