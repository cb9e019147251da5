// resonances.csv (docs/MONITORS.md, "Resonances"): for each field of a probe with
// probe.<name>.resonances, the resonances that harmonic inversion (monitors/harmonic_inversion.hpp)
// finds in its band, from the series after the sources have ended, written at the end of a run:
//   probe,field,frequency_hz,decay_per_s,q,amplitude,unit,phase_rad,error,t0_s
// one row per resonance, increasing frequency per field; the field rings as
// amplitude exp(-decay (t - t0)) cos(2 pi frequency (t - t0) + phase), t0_s the time of the first
// sample analysed (E at n dt, H at (n - 1/2) dt); amplitude in `unit` (V/m or A/m).
#pragma once
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "model/simulation_model.hpp"
#include "monitors/harmonic_inversion.hpp"

namespace clfdtd {

inline constexpr const char* kResonanceFile = "resonances.csv";

// One analysed field, as run.json lists it.
struct ResonanceReport {
  std::size_t sample = 0;            // its index in ProbeSet::samples (probes.csv's column order)
  std::string probe, field;          // field: "Ez", ..., cylindrical "Er", "Ephi", ...
  std::array<double, 2> band_hz{};
  long from_step = 0, to_step = -1;  // the steps analysed (to_step < from_step: none)
  double t0_s = 0;                   // the time of the first
  std::optional<std::size_t> found;  // resonances found; none until the run's end
  std::vector<Resonance> resonances; // what was found (the CSV's rows)
};

// One per probes.csv sample whose probe has a band, in column order.
std::vector<ResonanceReport> resonance_reports(const SimulationModel& m);

// Before the run: a probe whose window after the sources end is too short for its band, or ends
// before they do.
std::vector<std::string> resonance_plan_warnings(const SimulationModel& m);

// After it: analyses series[k] (RunOutputs::resonance_series; the steps up to steps_done), writes
// <dir>/resonances.csv, sets each report's to_step and found; returns warnings (a series too short
// to analyse, one cut to the analysis' largest size). Nothing written without reports.
std::vector<std::string> write_resonance_file(const std::string& dir, const SimulationModel& m,
                                              const std::vector<std::vector<double>>& series,
                                              long steps_done, std::vector<ResonanceReport>& reports);

// A line per analysed field for the end of the run: its first few resonances.
std::vector<std::string> resonance_summary(const std::vector<ResonanceReport>& reports);

}  // namespace clfdtd
