// Cylindrical flux-monitor runs for the tests: a model from model-file text (the real loader and
// builder), run to the end on a backend, its monitors' flux; and the radiated power of a small
// current element of moment rate dp/dt = j dr dr dz (the source's table j, J at (s + 1/2) dt),
//   P(f) = mu0 (2 pi f)^2 |P'(f)|^2 / (12 pi c0),  P'(f) = sum_s (dp/dt)_s e^(-i 2 pi f t_s) dt,
// in the monitors' units (docs/MONITORS.md, "Flux").
#pragma once
#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "backends/backend.hpp"
#include "backends/monitor_helpers.hpp"
#include "config/load_config.hpp"
#include "model/simulation_model.hpp"
#include "monitors/cyl_flux.hpp"
#include "solver/time_loop.hpp"

namespace clfdtd::test {

inline SimulationModel cyl_model_of(const std::string& text) {
  return SimulationModel::build(load_config_text(text, "cyl_flux.ini", {}));
}

// Runs every step of m on `b` (the time loop: accumulate_dft after each) and returns each
// monitor's raw transform.
inline std::vector<std::vector<std::complex<double>>> run_dft(const SimulationModel& m, Backend& b) {
  ModeSink sink;
  LoopOptions opt;
  opt.progress_interval_s = 1e9;
  REQUIRE(run_time_loop(m, b, sink, nullptr, opt).finite);
  std::vector<std::vector<std::complex<double>>> out(m.monitors.size());
  for (std::size_t i = 0; i < m.monitors.size(); ++i) b.read_dft(static_cast<int>(i), out[i]);
  return out;
}

inline std::vector<double> dipole_power(const SimulationModel& m, const SourceModel& s,
                                        const std::vector<double>& freqs) {
  const double pi = std::acos(-1.0), dt = m.grid.dt;
  const double cell = m.grid.d[0] * m.grid.d[0] * m.grid.d[2];
  std::vector<double> out;
  for (double f : freqs) {
    std::complex<double> p(0.0);
    for (std::size_t n = 0; n < s.j.size(); ++n)
      p += s.j[n] * cell * std::polar(dt, -2 * pi * f * (static_cast<double>(n) + 0.5) * dt);
    out.push_back(kMu0 * std::pow(2 * pi * f, 2) * std::norm(p) / (12 * pi * kC0));
  }
  return out;
}

}  // namespace clfdtd::test
