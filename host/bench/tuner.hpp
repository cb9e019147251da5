// The auto-tuner: every kernel variant with a list of work-group shapes on one device, timed on
// the vacuum cube with UPML; the fastest becomes the device's default (tuning_cache.hpp).
#pragma once
#include <functional>
#include <vector>

#include "backends/tuning_cache.hpp"
#include "bench/bench_runner.hpp"

namespace clfdtd {

// The shapes tried for one variant (x y z; z in float4s for tile and onepass, 1 for rows).
std::vector<std::array<int, 3>> tuning_candidates(KernelVariant v);

struct TuneOutcome {
  TunedChoice best;
  std::string key;             // tuning_key() of the device
  std::vector<BenchRow> rows;  // every candidate measured (duplicates after clamping skipped)
};

// Measures every candidate of every variant of `base` (its backend and device) on vacuum_upml of
// n^3 cells and stores the winner with store_tuning(). on_row is called after each measurement.
TuneOutcome tune_device(const DeviceConfig& base, int n, int repeats, double copy_gbs,
                        const std::function<void(const BenchRow&)>& on_row);

}  // namespace clfdtd
