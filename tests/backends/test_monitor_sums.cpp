// MonitorSums (backends/reference/monitor_sums.hpp), the monitors of the 2D reference engine, on
// a built 2D tm model with fields set by hand each step: each point of each region is the
// transform of its own cell's value (plane layout), with its component's time (E n dt, H
// (n - 1/2) dt) and the decimation's D dt weight; components the engine does not carry read zero;
// the projection is sum E . mode dx dy (1 m of depth) over the carried components only.
#include <doctest/doctest.h>

#include <cmath>
#include <complex>

#include "backends/reference/monitor_sums.hpp"
#include "errors.hpp"
#include "model/simulation_model.hpp"

using namespace clfdtd;

namespace {

RunConfig plane_tm() {
  RunConfig cfg;
  cfg.source_file = "plane.ini";
  cfg.grid.dims = 2;
  cfg.grid.size_m = Vec3{0.12, 0.1, 1.0};
  cfg.grid.cell_size_m = Vec3{0.01, 0.01, 1.0};
  cfg.time.steps = 30;
  cfg.boundary.layers = {2, 2, 2, 2, 0, 0};
  MonitorConfig dft;
  dft.name = "d";
  dft.kind = MonitorKind::Dft;
  dft.box_lo = Vec3{0.03, 0.02, 0};
  dft.box_hi = Vec3{0.07, 0.05, 0};
  dft.frequencies_hz = {1e9, 2.5e9};
  dft.fields = {Component::Hy, Component::Ez};
  dft.decimation = 3;
  cfg.monitors.push_back(dft);
  MonitorConfig flux = dft;
  flux.name = "f";
  flux.kind = MonitorKind::Flux;
  flux.fields.clear();
  flux.decimation = 1;
  cfg.monitors.push_back(flux);
  cfg.lines = {{"monitor.d.fields", 5}, {"monitor.d.decimation", 6}, {"monitor.f.decimation", 7}};
  return cfg;
}

double value_at(Component c, int i, int j, long n) {
  return std::sin(0.3 * n + 0.7 * i - 0.45 * j + static_cast<int>(c)) * (1 + 0.1 * i);
}

}  // namespace

TEST_CASE("MonitorSums on a 2D tm model: each point the transform of its own cell, D dt weights") {
  SimulationModel m = SimulationModel::build(plane_tm());
  REQUIRE(m.two_d());
  REQUIRE(m.monitors.size() == 2);
  REQUIRE(m.monitors[0].dft_every == 3);
  REQUIRE(m.monitors[1].dft_every == 1);
  // A modes monitor added by hand: mode 0 is 1 in Ez of cell (4, 3) and 1 in Ex everywhere
  // (Ex is not carried: it must not count); mode 1 is 2 in Ez of cell (5, 6).
  MonitorModel modes;
  modes.name = "p";
  modes.kind = MonitorKind::Modes;
  modes.nmodes = 2;
  const std::size_t cells = m.layout.cells();
  modes.modes.assign(2 * 3 * cells, 0.0f);
  for (std::size_t q = 0; q < cells; ++q) modes.modes[q] = 1.0f;  // mode 0, Ex
  modes.modes[2 * cells + m.layout.index(4, 3, 0)] = 1.0f;        // mode 0, Ez
  modes.modes[5 * cells + m.layout.index(5, 6, 0)] = 2.0f;        // mode 1, Ez
  m.monitors.push_back(modes);

  std::array<std::vector<double>, 6> f;
  for (Component c : m.active_components()) f[static_cast<int>(c)].assign(cells, 0.0);
  MonitorSums sums(m, 4, [&](Component c) -> const std::vector<double>* {
    return m.is_active(c) ? &f[static_cast<int>(c)] : nullptr;
  });
  const long steps = 30;
  for (long n = 0; n <= steps; ++n) {
    for (Component c : m.active_components())
      for (int i = 0; i < m.layout.nx; ++i)
        for (int j = 0; j < m.layout.ny; ++j) f[static_cast<int>(c)][m.layout.index(i, j, 0)] = value_at(c, i, j, n);
    sums.accumulate_dft(n);
    if (n == 7) sums.sample_modes(2, 1);
  }
  const double dt = m.grid.dt;
  for (int mi = 0; mi < 2; ++mi) {
    const MonitorModel& mon = m.monitors[static_cast<std::size_t>(mi)];
    std::vector<std::complex<double>> got;
    sums.read_dft(mi, got);
    REQUIRE(got.size() == mon.points() * mon.frequencies_hz.size());
    std::size_t point = 0;
    double worst = 0;
    for (const DftRegion& r : mon.regions)
      for (int i = r.lo[0]; i < r.hi[0]; ++i)
        for (int j = r.lo[1]; j < r.hi[1]; ++j, ++point)
          for (std::size_t fi = 0; fi < mon.frequencies_hz.size(); ++fi) {
            std::complex<double> want = 0;
            for (long n = 0; n <= steps; n += mon.dft_every) {
              const double t = dft_time(r.component, n, dt);
              want += value_at(r.component, i, j, n) *
                      std::polar(mon.dft_every * dt, -2 * M_PI * mon.frequencies_hz[fi] * t);
            }
            worst = std::max(worst, std::abs(got[point * mon.frequencies_hz.size() + fi] - want) /
                                        (steps * dt));
          }
    CHECK(point == mon.points());
    CHECK(worst < 1e-12);
  }
  std::vector<double> proj;
  sums.read_mode_batch(2, 2, proj);
  REQUIRE(proj.size() == 4);
  const double dv = 0.01 * 0.01 * 1.0;
  CHECK(proj[2] == doctest::Approx(value_at(Component::Ez, 4, 3, 7) * dv));
  CHECK(proj[3] == doctest::Approx(2 * value_at(Component::Ez, 5, 6, 7) * dv));

  std::vector<std::complex<double>> none;
  CHECK_THROWS_AS(sums.read_dft(2, none), DeviceError);     // a modes monitor
  CHECK_THROWS_AS(sums.sample_modes(0, 0), DeviceError);    // a dft monitor
  CHECK_THROWS_AS(sums.sample_modes(2, 4), DeviceError);    // slot past the batch
}
