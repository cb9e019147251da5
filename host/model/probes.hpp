// Patent step 4.4 (time series at points of interest). Each probe records its chosen components,
// each at that component's Yee sample nearest to the probe point, for steps n1..n2 (step 0 is the
// initial state; step s holds E at s*dt and H at (s - 1/2)*dt).
#pragma once
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "config/run_config.hpp"
#include "model/grid_geometry.hpp"

namespace clfdtd {

struct ProbeSample {
  int probe = 0;               // index into ProbeSet::probes
  Component component = Component::Ez;
  std::array<int, 3> cell{};
  Vec3 position_m;             // where the sample actually sits
  double phi_rad = 0;          // cylindrical: the probe's angle; value = sum_q Re(F_q e^{i m_q phi})
};

struct ProbeModel {
  std::string name;
  long n1 = 0, n2 = 0;         // inclusive step window
  // probe.<name>.resonances: the band (Hz), and the first step of the series analysed, the later
  // of n1 and the step the sources have ended (model/resonance_window.hpp)
  std::optional<std::array<double, 2>> resonances_hz;
  long resonance_from = 0;
};

struct ProbeSet {
  std::vector<ProbeModel> probes;
  std::vector<ProbeSample> samples;   // CSV column order: probes in file order, fields in given order
  long first_step = 0, last_step = -1;  // union of the windows (empty when last < first)
  // The last port_samples samples are the ports' (model/ports.hpp), recorded every step for
  // ports/<name>.csv and not written to probes.csv, whose rows are then those of the [probe.*]
  // sections' own union of windows, csv_first_step .. csv_last_step.
  std::size_t port_samples = 0;
  long csv_first_step = 0, csv_last_step = -1;
  std::size_t csv_samples() const { return samples.size() - port_samples; }
  bool empty() const { return samples.empty(); }
  bool active(long step) const { return !samples.empty() && step >= first_step && step <= last_step; }
};

ProbeSet build_probes(const std::vector<ProbeConfig>& cfg, const GridGeometry& g);

}  // namespace clfdtd
