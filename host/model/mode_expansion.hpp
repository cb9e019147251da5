// mode_expansion monitors (docs/MONITORS.md): the run's transform on a plane split, at each of
// the monitor's frequencies, into the forward and backward waves of the guide's first modes, as
// clfdtd modes solves them on the model's own grid.
#pragma once
#include <complex>
#include <string>
#include <vector>

#include "config/run_config.hpp"
#include "model/cross_section.hpp"
#include "model/monitors.hpp"
#include "model/simulation_model.hpp"

namespace clfdtd {

// The monitor's window as the mode solver takes it.
ModeWindow expansion_window(const MonitorModel& mon);

// Before the run: each mode_expansion monitor's window must be one the solver takes (no lossy
// or dispersive material in it: a ConfigError at its box) and fit the host memory; returns a
// warning for a plane where the guide changes a cell before or after it.
std::vector<std::string> check_mode_expansions(const RunConfig& cfg, const SimulationModel& m);

// One mode at one frequency: its n_eff and beta, and its two waves at the plane (TwoWaves:
// |amplitude|^2 is what a flux monitor on the plane measures of each).
struct ExpandedMode {
  int mode = 0;                       // 1 = largest beta
  double n_eff = 0, beta = 0, u_fraction = 0;
  int degenerate = 1;
  std::complex<double> forward, backward;
};

// One frequency's modes: those found (up to mon.mode_count; none where none travels), or
// solved = false where the solve failed (out of memory, no convergence).
struct ExpansionAt {
  bool solved = false;
  std::vector<ExpandedMode> modes;
};

// Per frequency of the monitor.
std::vector<ExpansionAt> expand_on_modes(const SimulationModel& m, const MonitorModel& mon,
                                         const std::vector<std::complex<double>>& dft);

}  // namespace clfdtd
