// Resonance windows: see resonance_window.hpp.
#include "model/resonance_window.hpp"

#include <algorithm>
#include <cmath>

#include "model/input_limits.hpp"
#include "model/number_text.hpp"
#include "model/waveforms.hpp"

namespace clfdtd {

namespace {

// The last index of a table of `rows` values per step whose value exceeds the share of the
// table's peak; -1 when none does.
long last_active(const std::vector<double>& table, std::size_t rows) {
  if (rows == 0 || table.empty()) return -1;
  double peak = 0;
  for (double v : table) peak = std::max(peak, std::fabs(v));
  if (!(peak > 0)) return -1;
  const double floor = kSourceQuietShare * peak;
  for (std::size_t i = table.size(); i-- > 0;)
    if (std::fabs(table[i]) > floor) return static_cast<long>(i / rows);
  return -1;
}

// A waveguide port's injection: its line rings at the guide's cutoff long after the pulse (a
// dispersive tail below any band worth analysing), so it ends when its waveform has, delayed as
// the injection's peak is behind the waveform's (the line's drive sits a few cells before the
// port's plane).
long guided_last_active(const PlaneWaveModel& w, long steps, double dt) {
  std::vector<double> drive(static_cast<std::size_t>(std::max(0L, steps)));
  for (std::size_t s = 0; s < drive.size(); ++s)
    drive[s] = waveform_value(w.source, static_cast<double>(s) * dt);
  const long last = last_active(drive, 1);
  if (last < 0) return -1;
  const auto peak_at = [](const std::vector<double>& v, std::size_t stride) {
    std::size_t best = 0;
    for (std::size_t i = 0; i < v.size(); i += stride)
      if (std::fabs(v[i]) > std::fabs(v[best])) best = i;
    return static_cast<long>(best / stride);
  };
  const std::size_t rows = static_cast<std::size_t>(w.row_width());
  const long delay = peak_at(w.table, rows) - peak_at(drive, 1);
  return last + std::max(0L, delay);
}

}  // namespace

long sources_quiet_step(const SimulationModel& m) {
  long last = -1;
  for (const SourceModel& s : m.sources) last = std::max(last, last_active(s.j, 1));
  for (const PlaneWaveModel& w : m.plane_waves)
    last = std::max(last, w.guided_port ? guided_last_active(w, m.grid.steps, m.grid.dt)
                                        : last_active(w.table, static_cast<std::size_t>(w.row_width())));
  if (last < 0) return 0;
  // Table entry s drives step s (J at (s + 1/2) dt; an incident E at s dt and H at (s + 1/2) dt):
  // E at (s + 1) dt has taken it, and H at (s + 3/2) dt, probe step s + 2.
  return std::min(last + 2, m.grid.steps + 1);
}

void plan_resonances(const RunConfig& cfg, SimulationModel& m) {
  bool any = false;
  for (const ProbeModel& p : m.probes.probes) any = any || p.resonances_hz.has_value();
  if (!any) return;
  const double cutoff = grid_cutoff_frequency_hz(cfg, m.grid);
  const long quiet = sources_quiet_step(m);
  for (ProbeModel& p : m.probes.probes) {
    if (!p.resonances_hz) continue;
    if ((*p.resonances_hz)[1] > cutoff)
      throw cfg.error_at("probe." + p.name + ".resonances",
                         "a band within (0, " + number_text(cutoff) +
                             "] Hz, the highest frequency a wave on this grid can have (asin(courant) "
                             "/ (pi dt)), got up to " + number_text((*p.resonances_hz)[1]));
    p.resonance_from = std::max(p.n1, quiet);
  }
}

}  // namespace clfdtd
