#include "output/dft_convergence.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "output/monitor_files.hpp"

namespace clfdtd {

DftConvergence::DftConvergence(const SimulationModel& m)
    : m_(m), taken_(m.monitors.size()), noise_floor_(m.monitors.size(), 0.0) {
  const bool any = std::any_of(m.monitors.begin(), m.monitors.end(), reads_dft_at_end);
  if (any && m.grid.steps >= 20) step_ = m.grid.steps - m.grid.steps / 20;
  // A monitor that sees no scatterer holds the plane waves' rounding (~1e-7 of them): measured
  // against itself it would always "move".
  for (std::size_t i = 0; i < m.monitors.size(); ++i)
    for (const PlaneWaveModel& w : m.plane_waves)
      for (double e : incident_magnitude(w, m.monitors[i].frequencies_hz, m.grid.dt))
        noise_floor_[i] = std::max(noise_floor_[i], kPlaneWaveNoiseShare * e);
}

void DftConvergence::take(Backend& backend) {
  for (std::size_t i = 0; i < m_.monitors.size(); ++i)
    if (reads_dft_at_end(m_.monitors[i])) backend.read_dft(static_cast<int>(i), taken_[i]);
}

std::optional<std::string> DftConvergence::compare(int monitor,
                                                   const std::vector<std::complex<double>>& end) const {
  const auto i = static_cast<std::size_t>(monitor);
  if (i >= taken_.size() || taken_[i].empty() || taken_[i].size() != end.size()) return std::nullopt;
  // A waveguide port's rows at or below its mode's cutoff carry no wave (the port writes nan
  // there): the evanescent field that lingers in them is not the run's to settle.
  const MonitorModel& mon = m_.monitors[i];
  std::vector<bool> counted(mon.frequencies_hz.size(), true);
  for (const WaveguidePortModel& p : m_.waveguide_ports)
    if (p.monitor == monitor)
      for (std::size_t f = 0; f < counted.size(); ++f) counted[f] = mon.frequencies_hz[f] > p.cutoff_hz * 1.001;
  const std::size_t nf = std::max<std::size_t>(1, counted.size());
  double largest = 0, moved = 0;
  for (std::size_t k = 0; k < end.size(); ++k) {
    if (!counted.empty() && !counted[k % nf]) continue;
    largest = std::max(largest, std::abs(end[k]));
    moved = std::max(moved, std::abs(end[k] - taken_[i][k]));
  }
  if (!(largest > noise_floor_[i]) || moved <= kDftSettledShare * largest) return std::nullopt;
  char share[32];
  std::snprintf(share, sizeof share, "%.2g%%", 100 * moved / largest);
  const bool port = m_.monitors[i].kind == MonitorKind::WaveguidePort;
  return std::string(port ? "waveguide port '" : "monitor '") + m_.monitors[i].name + "': its transform still moved by " + share +
         " of its largest value over the last 5% of the run (steps " + std::to_string(step_) + " to " +
         std::to_string(m_.grid.steps) + "), so the fields had not died down and its spectra come "
         "from a cut-off series; " + longer_run_advice(m_.grid);
}

}  // namespace clfdtd
