#include "model/input_limits.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include "errors.hpp"
#include "model/number_text.hpp"
#include "model/plane_wave.hpp"
#include "model/port_box.hpp"
#include "model/sources.hpp"
#include "model/upml_profile.hpp"
#include "model/waveforms.hpp"

namespace clfdtd {

namespace {

constexpr double kPi = 3.14159265358979323846;

[[noreturn]] void fail(const RunConfig& cfg, const std::string& key, const std::string& what) {
  throw cfg.error_at(key, what);
}

// Cylindrical grids have no cell along phi (d[1] is a placeholder 1): only dr and dz count.
double smallest_cell(const GridGeometry& g) {
  return g.cylindrical ? std::min(g.d[0], g.d[2]) : std::min({g.d[0], g.d[1], g.d[2]});
}

}  // namespace

void check_step_count(const RunConfig& cfg, const GridGeometry& g) {
  // A port's box first: each of its samples carries a source table of its own.
  for (const SourceConfig& s : cfg.sources) {
    const PortBox box = port_box(s, g);
    if (box.cells.empty())
      fail(cfg, "source." + s.name + ".size",
           "a box of at most " + std::to_string(kMaxPortSamples) + " E samples, got " +
               std::to_string(box.along) + " along the axis x " + std::to_string(box.across) +
               " across it");
  }
  const long sources = std::max<long>(1, static_cast<long>(source_samples(cfg.sources, g)));
  long max_steps = kMaxRunSteps / sources;
  // The plane waves' incident table: a row of E and H values per step, 32-bit indexed too.
  GridGeometry one_step = g;
  one_step.steps = 1;
  const long row = static_cast<long>(plane_wave_table_values(cfg, one_step));
  if (row > 0 && g.steps > kMaxRunSteps / row) {
    const long most = kMaxRunSteps / row;
    const std::string why = " (steps x " + std::to_string(row) +
                            " values of the plane waves' incident table per step <= 2147483647)";
    if (cfg.time.steps)
      fail(cfg, "time.steps", "an integer in [1, " + std::to_string(most) + "]" + why + ", got " +
                                  std::to_string(*cfg.time.steps));
    fail(cfg, "time.duration", "a duration of at most " + std::to_string(most) + " steps of dt = " +
                                   number_text(g.dt, 3) + " s" + why);
  }
  if (g.steps <= max_steps) return;
  const std::string why =
      sources > 1 ? " (steps x " + std::to_string(sources) +
                        (static_cast<std::size_t>(sources) > cfg.sources.size()
                             ? " source samples (each sample of a port's box counts)"
                             : " sources") +
                        " <= 2147483647: the kernels index the source table with 32-bit "
                        "integers)"
                  : " (the kernels count steps with 32-bit integers)";
  if (cfg.time.steps) {
    fail(cfg, "time.steps", "an integer in [1, " + std::to_string(max_steps) + "]" + why +
                                ", got " + std::to_string(*cfg.time.steps));
  }
  const double wanted = *cfg.time.duration_s / g.dt;
  fail(cfg, "time.duration",
       "a duration in (0, " + number_text(static_cast<double>(max_steps) * g.dt, 3) + "] s, at most " +
           std::to_string(max_steps) + " steps of dt = " + number_text(g.dt, 3) + " s" + why + ", got " +
           number_text(*cfg.time.duration_s, 3) + " s = " + number_text(std::ceil(wanted), 3) + " steps");
}

void check_upml_conductivity(const RunConfig& cfg, const GridGeometry& g) {
  if (cfg.boundary.type != BoundaryType::Upml || !cfg.boundary.sigma_max) return;
  const double max = kSigmaMaxFactor * optimal_sigma_max(cfg.boundary.grading, smallest_cell(g));
  if (*cfg.boundary.sigma_max <= max) return;
  fail(cfg, "boundary.sigma_max",
       "a conductivity in [0, " + number_text(max, 3) + "] S/m on this grid (" + std::to_string(static_cast<int>(kSigmaMaxFactor)) +
           " x the default 0.8 (m+1) / (eta0 d) = " + number_text(max / kSigmaMaxFactor, 3) + " S/m), got " +
           number_text(*cfg.boundary.sigma_max, 3));
}

double grid_cutoff_frequency_hz(const RunConfig& cfg, const GridGeometry& g) {
  return std::asin(std::min(1.0, cfg.grid.courant)) / (kPi * g.dt);
}

void check_source_frequencies(const RunConfig& cfg, const GridGeometry& g) {
  const double cutoff = grid_cutoff_frequency_hz(cfg, g);
  for (const auto& s : waveform_sources(cfg)) {
    if (s.frequency_hz <= cutoff) continue;
    fail(cfg, "source." + s.name + ".frequency",
         "a frequency in (0, " + number_text(cutoff, 3) +
             "] Hz, the highest a wave on this grid can have (asin(courant) / (pi dt)); refine the "
             "grid (grid.max_frequency, grid.cell_size) for higher ones, got " +
             number_text(s.frequency_hz, 3));
  }
}

void check_source_delays(const RunConfig& cfg) {
  for (const auto& s : waveform_sources(cfg)) {
    const double delay = s.delay_s ? *s.delay_s : default_delay_s(s);
    if (delay * s.frequency_hz <= kMaxDelayPeriods) continue;
    if (s.delay_s) {
      fail(cfg, "source." + s.name + ".delay",
           "a delay in [0, " + number_text(kMaxDelayPeriods / s.frequency_hz, 3) +
               "] s, 1e10 periods of the source frequency, got " + number_text(*s.delay_s, 3));
    }
    fail(cfg, "source." + s.name + ".bandwidth",
         "a bandwidth of at least " + number_text(8 / (kPi * kMaxDelayPeriods) * s.frequency_hz, 3) +
             " Hz: the default delay 8 / (pi bandwidth) must stay within 1e10 periods of the "
             "source frequency, got " + number_text(s.bandwidth_hz.value_or(s.frequency_hz), 3));
  }
}

void check_source_amplitudes(const RunConfig& cfg, const GridGeometry& g,
                             const std::vector<SourceModel>& sources) {
  const double limit = kMaxStepField * std::min(1.0, smallest_cell(g));  // V/m per step
  const double field_per_j = g.dt / kEps0;  // V/m added by 1 A/m^2 in one step (vacuum)
  // A plane wave's (a waveguide port's) amplitude is its E: the same head room as a source's step.
  std::vector<SourceConfig> waves = cfg.plane_waves;
  waves.insert(waves.end(), cfg.waveguide_ports.begin(), cfg.waveguide_ports.end());
  for (const SourceConfig& c : waves) {
    if (std::fabs(c.amplitude) <= limit) continue;
    fail(cfg, "source." + c.name + ".amplitude",
         "an amplitude in [-" + number_text(limit, 3) + ", " + number_text(limit, 3) +
             "] V/m on this grid (float fields keep 8 decades of head room), got " +
             number_text(c.amplitude, 3));
  }
  for (std::size_t i = 0; i < sources.size() && i < cfg.sources.size(); ++i) {
    const SourceConfig& c = cfg.sources[i];
    if (c.kind == SourceKind::Port) {  // its conductivity L / (R A) (model/ports.hpp)
      const int a = static_cast<int>(c.axis);
      const double sigma = g.d[a] / (c.resistance_ohm * g.d[(a + 1) % 3] * g.d[(a + 2) % 3]);
      if (!std::isfinite(sigma))
        fail(cfg, "source." + c.name + ".resistance",
             "a resistance whose conductivity L / (R A) over the sample is finite, got " +
                 number_text(c.resistance_ohm, 3) + " ohm");
    }
    const double amplitude = std::fabs(cfg.sources[i].amplitude);
    const double unit = sources[i].peak_j_per_amplitude * field_per_j;
    if (amplitude * unit <= limit) continue;
    const std::string key = "source." + cfg.sources[i].name + ".amplitude";
    const std::string unit_name =
        cfg.sources[i].kind == SourceKind::Dipole ? " C*m"
        : cfg.sources[i].kind == SourceKind::Port ? " V"
                                                  : " A/m^2";
    if (!std::isfinite(unit)) fail(cfg, key, "a source whose current table is finite");
    fail(cfg, key,
         "an amplitude in [-" + number_text(limit / unit, 3) + ", " + number_text(limit / unit, 3) + "]" + unit_name +
             " on this grid: the field it adds in one step, |J| dt / eps0, must stay <= " +
             number_text(limit, 3) + " V/m (float fields), got " + number_text(cfg.sources[i].amplitude, 3));
  }
}

}  // namespace clfdtd
