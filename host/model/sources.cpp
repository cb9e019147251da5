// Patent step 1-1-4: point sources as current-density tables J[s] at (s + 1/2) dt.
#include "model/sources.hpp"

#include <cmath>

#include "model/field_layout.hpp"
#include "model/waveforms.hpp"

namespace clfdtd {

std::vector<SourceModel> build_sources(const std::vector<SourceConfig>& cfg, const GridGeometry& g) {
  std::vector<SourceModel> out;
  out.reserve(cfg.size());
  const double dv = g.d[0] * g.d[1] * g.d[2];
  for (const auto& s : cfg) {
    SourceModel m;
    m.name = s.name;
    m.component = static_cast<Component>(static_cast<int>(s.axis));  // Ex/Ey/Ez share Axis order
    m.cell = nearest_sample(m.component, s.position, g.n, g.d);
    m.j.resize(g.steps > 0 ? static_cast<std::size_t>(g.steps) : 0);
    for (std::size_t k = 0; k < m.j.size(); ++k) {
      const double t = static_cast<double>(k) * g.dt;
      // Per unit amplitude first, so the peak is known even where amplitude * it overflows.
      const double unit =
          s.kind == SourceKind::Dipole
              // Exact difference of p over the step: the charge deposited sums to p(t_end) / dV.
              ? (waveform_value(s, t + g.dt) - waveform_value(s, t)) / (g.dt * dv)
              : waveform_value(s, t + 0.5 * g.dt);
      m.j[k] = s.amplitude * unit;
      // Written so that a NaN sticks: the amplitude check then refuses the source.
      if (!(std::fabs(unit) <= m.peak_j_per_amplitude)) m.peak_j_per_amplitude = std::fabs(unit);
    }
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace clfdtd
