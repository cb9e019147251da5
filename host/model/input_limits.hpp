// Limits on the input that need the derived grid (the option table's static ranges cannot say
// them): each refuses, before the big tables are allocated where it can, a value whose run could
// only overflow (steps), give NaN or infinity in float fields (source peak, UPML conductivity), or
// drive nothing the grid can carry (source frequency). Each failure is a ConfigError naming the key
// and the allowed range for this grid. docs/MODEL_KEYS.md lists them with the keys.
#pragma once
#include <cstddef>

#include "config/run_config.hpp"
#include "model/grid_geometry.hpp"
#include "model/sources.hpp"

namespace clfdtd {

// At most kMaxRunSteps steps, and steps x sources at most kMaxRunSteps (the kernels index the source
// table J[source * steps + step] with 32-bit integers). Checked before the source table exists.
void check_step_count(const RunConfig& cfg, const GridGeometry& g);

// UPML sigma_max at most kSigmaMaxFactor times its default 0.8 (m + 1) / (eta0 d) for the smallest
// cell: beyond, sigma dt / eps0 in the profile (cp = 2 kappa + sigma dt / eps0) is so large that
// cp * D overflows float before the layer absorbs anything it would not absorb at the default.
inline constexpr double kSigmaMaxFactor = 1000;
void check_upml_conductivity(const RunConfig& cfg, const GridGeometry& g);

// A source frequency the grid carries: at most asin(courant) / (pi dt), the highest frequency of a
// propagating wave on the Yee grid (sin(omega dt / 2) = courant at the grid's largest wavenumber);
// above it the source feeds only a non-propagating, cell-sized oscillation.
double grid_cutoff_frequency_hz(const RunConfig& cfg, const GridGeometry& g);
void check_source_frequencies(const RunConfig& cfg, const GridGeometry& g);

// A source's peak (delay, given or the waveform's default) at most kMaxDelayPeriods periods of its
// frequency after t = 0: a later one lies past the end of any run (at most 2^31 - 1 steps of at
// most half a period each, about 1.1e9 periods), and sin(2 pi f (t - delay)) loses its phase to
// round-off. Names the delay, or the bandwidth when the default delay 8 / (pi bandwidth) is it.
inline constexpr double kMaxDelayPeriods = 1e10;
void check_source_delays(const RunConfig& cfg);

// The peak field a source adds in one step, |J| dt / eps0 (V/m; eps_r >= 1 only lowers it), at
// most kMaxStepField x min(1, smallest cell / 1 m): float fields hold 3.4e38, and the kernels form
// curl E = dE / d, so a field of F V/m takes F / d. The limit keeps 8 decades of head room for the
// field to build up (resonance, sources adding in one cell).
inline constexpr double kMaxStepField = 1e30;
void check_source_amplitudes(const RunConfig& cfg, const GridGeometry& g,
                             const std::vector<SourceModel>& sources);

}  // namespace clfdtd
