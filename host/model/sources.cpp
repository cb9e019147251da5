// Patent step 1-1-4: point sources as current-density tables J[s] at (s + 1/2) dt.
#include "model/sources.hpp"

#include <cmath>

#include "model/field_layout.hpp"
#include "model/port_box.hpp"
#include "model/waveforms.hpp"

namespace clfdtd {

namespace {
constexpr double kPi = 3.14159265358979323846;
}  // namespace

std::vector<std::complex<double>> cyl_mode_factors(const GridGeometry& g, Component c,
                                                   const std::array<int, 3>& cell, double phi_rad) {
  const double dr = g.d[0], dz = g.d[2];
  const double r_s = sample_position(c, cell, g.d).x;
  const bool on_axis = r_s == 0;
  // The point source's J is that of one cell dr dr dz; spread over the ring (or the axis disc)
  // the same current gives the mode's current density.
  const double volume = on_axis ? kPi * 0.25 * dr * dr * dz : 2 * kPi * r_s * dr * dz;
  std::vector<std::complex<double>> out;
  for (int m : g.modes) {
    if (on_axis && (m > 0 || c != Component::Ez)) {
      out.emplace_back(0.0, 0.0);
      continue;
    }
    const double w = m == 0 ? 1.0 : 2.0;
    out.push_back(w * std::polar(dr * dr * dz / volume, -m * phi_rad));
  }
  return out;
}

std::vector<SourceModel> build_sources(const std::vector<SourceConfig>& cfg, const GridGeometry& g) {
  std::vector<SourceModel> out;
  out.reserve(cfg.size());
  // Cylindrical: the table is that of a point source in a cell dr dr dz (mode_factor spreads it).
  const double dv = g.cylindrical ? g.d[0] * g.d[0] * g.d[2] : g.d[0] * g.d[1] * g.d[2];
  std::vector<SourceModel> port_samples;  // a port box's samples past its first, appended last
  for (const auto& s : cfg) {
    SourceModel m;
    m.name = s.name;
    m.component = static_cast<Component>(static_cast<int>(s.axis));  // Ex/Ey/Ez share Axis order
    if (g.cylindrical) {
      // position = r, phi (degrees), z: the sample is found in (r, z), phi enters the factors.
      m.cell = nearest_sample(m.component, Vec3{s.position.x, 0, s.position.z}, g.n, g.d);
      m.mode_factor = cyl_mode_factors(g, m.component, m.cell, s.position.y * kPi / 180);
    } else {
      m.cell = nearest_sample(m.component, s.position, g.n, g.d, g.periodic);
    }
    // A port's box: the current V_s / R spreads over its columns' faces, A = across dv / L.
    PortBox box;
    if (s.kind == SourceKind::Port && s.size_m) {
      box = port_box(s, g);
      if (!box.cells.empty()) m.cell = box.cells.front();
    }
    const double port_length = g.d[static_cast<int>(s.axis)] / static_cast<double>(box.across);
    m.j.resize(g.steps > 0 ? static_cast<std::size_t>(g.steps) : 0);
    for (std::size_t k = 0; k < m.j.size(); ++k) {
      const double t = static_cast<double>(k) * g.dt;
      // Per unit amplitude first, so the peak is known even where amplitude * it overflows.
      const double unit =
          s.kind == SourceKind::Dipole
              // Exact difference of p over the step: the charge deposited sums to p(t_end) / dV.
              ? (waveform_value(s, t + g.dt) - waveform_value(s, t)) / (g.dt * dv)
          : s.kind == SourceKind::Port
              // V_s / (R A), A the sample's face across the axis (model/ports.hpp).
              ? waveform_value(s, t + 0.5 * g.dt) * port_length / (s.resistance_ohm * dv)
              : waveform_value(s, t + 0.5 * g.dt);
      m.j[k] = s.amplitude * unit;
      // Written so that a NaN sticks: the amplitude check then refuses the source.
      if (!(std::fabs(unit) <= m.peak_j_per_amplitude)) m.peak_j_per_amplitude = std::fabs(unit);
    }
    for (std::size_t k = 1; k < box.cells.size(); ++k) {
      SourceModel extra = m;
      extra.cell = box.cells[k];
      port_samples.push_back(std::move(extra));
    }
    out.push_back(std::move(m));
  }
  // After every configured source, so that out[i] stays cfg[i]'s (its first sample).
  for (SourceModel& extra : port_samples) out.push_back(std::move(extra));
  return out;
}

std::vector<SourceConfig> waveform_sources(const RunConfig& cfg) {
  std::vector<SourceConfig> all = cfg.sources;
  all.insert(all.end(), cfg.plane_waves.begin(), cfg.plane_waves.end());
  all.insert(all.end(), cfg.waveguide_ports.begin(), cfg.waveguide_ports.end());
  return all;
}

}  // namespace clfdtd
