// Decimated DFT sampling of the flux, dft and farfield monitors (docs/MONITORS.md, decimation).
// A monitor with decimation D transforms every D-th step only:
//   X(f) = sum_{n = 0, D, 2D, ...} x(t_n) exp(-i 2 pi f t_n) D dt,
// which equals the every-step sum for a signal with no frequency above 1/(2 D dt) - f (no
// alias lands on f) and whose sum has converged (the fields have died away by the run's end).
// A linear run holds only the frequencies its sources have, so D is chosen from the sources'
// current tables: f_top is the highest frequency at which their spectrum is above
// kSourceBandLevel of its peak, f_hi = max(f_top, the monitor's highest frequency), and
// D = floor(1 / (2 kDecimationMargin f_hi dt)), between 1 and kMaxDftDecimation. A source whose
// spectrum does not fall off (still on at the run's last step, like a sine, or switched on
// abruptly) gives D = 1.
#pragma once
#include <string>
#include <vector>

#include "config/run_config.hpp"
#include "model/monitors.hpp"
#include "model/sources.hpp"

namespace clfdtd {

constexpr double kSourceBandLevel = 1e-6;  // of the spectrum's peak magnitude
constexpr double kDecimationMargin = 1.25;
constexpr int kMaxDftDecimation = 16;
// The spectrum is a direct DFT of each distinct table (its zero ends trimmed); longer tables, or
// more work in all, are not analysed and give D = 1 (the key forces another D).
constexpr long kMaxAnalysedSteps = 4096;
constexpr double kMaxAnalysisWork = 1 << 26;  // table samples x frequencies, all tables

struct SourceBand {
  bool limited = true;  // false: the spectrum does not fall below the level (or was not analysed)
  double top_hz = 0;    // limited: f_top (0 without any source current)
  std::string why;      // !limited: the source and the reason, for the warnings
};

// The sources' combined spectrum (per frequency the largest |J(f)| of any source) on a grid from
// 0 to 1 / (2 dt) with at most half the tables' resolution as spacing. Each table is trimmed at
// both ends by the samples whose |J| sums to at most 1e-9 of the table's; a table that still ends
// at the run's last step belongs to a source that is on when the run stops: not limited.
SourceBand source_band(const std::vector<SourceModel>& sources, double dt);

// D for a monitor whose highest frequency is monitor_top_hz (formula above).
int auto_dft_decimation(const SourceBand& band, double monitor_top_hz, double dt);

// Sets MonitorModel::dft_every of every flux, dft and farfield monitor: the config's
// monitor.<name>.decimation where given, else auto_dft_decimation. Adds a warning for a given D
// larger than the auto choice (frequencies of the sources then alias onto the monitor's).
void choose_dft_decimation(const RunConfig& cfg, const std::vector<SourceModel>& sources,
                           double dt, std::vector<MonitorModel>& monitors,
                           std::vector<std::string>& warnings);

}  // namespace clfdtd
