// Where a probe's resonance analysis (probe.<name>.resonances) starts: once the sources have
// ended, so that the series is the structure ringing on its own (a driven response would be
// taken for resonances at the drive's frequencies).
#pragma once
#include "config/run_config.hpp"
#include "model/simulation_model.hpp"

namespace clfdtd {

// A source has ended once its drive stays below this share of its own peak for the rest of the
// run (float32's resolution is about 1e-7).
inline constexpr double kSourceQuietShare = 1e-6;

// The first probe step whose E and H both come after the last drive above kSourceQuietShare of
// every source, lumped port and plane wave: their tables end two steps before it. A waveguide
// port's injection counts until its waveform's end, delayed as its injection is (its line's
// ringing at the guide's cutoff goes on, below the band). 0 without sources; steps + 1 when one
// drives until the end (a sine).
long sources_quiet_step(const SimulationModel& m);

// Sets each probe's resonance_from (the later of n1 and sources_quiet_step) and refuses a band
// past the highest frequency the grid carries (ConfigError naming probe.<name>.resonances).
void plan_resonances(const RunConfig& cfg, SimulationModel& m);

}  // namespace clfdtd
