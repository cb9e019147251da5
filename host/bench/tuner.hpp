// The auto-tuner: every kernel variant with a list of work-group shapes on one device, timed on
// the vacuum cube with UPML and on the PEC cube without it; each fastest becomes the device's
// default for models with UPML or without (tuning_cache.hpp). In 2D
// (tune_plane) the kernel stays the one device.variant picks and only its work-group is tuned.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "backends/tuning_cache.hpp"
#include "bench/bench_runner.hpp"

namespace clfdtd {

// The shapes tried for one variant (x y z; z in float4s for tile and onepass, 1 for rows).
std::vector<std::array<int, 3>> tuning_candidates(KernelVariant v);

struct TuneOutcome {
  TunedChoice best;            // models with UPML (vacuum_upml)
  std::string key;             // tuning_key() of the device
  TunedChoice best_no_upml;    // models without UPML (pec_cube)
  std::string key_no_upml;     // no_upml_tuning_key() of the device
  std::vector<BenchRow> rows;  // every candidate measured (duplicates after clamping skipped)
};

// Measures every candidate of `base`'s device (its backend and device) on n^3 cells: tile,
// onepass and rows on vacuum_upml (not tblock, which steps a model with UPML with the onepass
// kernels), then tile, onepass, tblock, and rows where the device is a CPU, on pec_cube. Stores
// each winner with store_tuning(), under key and key_no_upml. on_row is called after each
// measurement. steps: per repeat, as BenchCase::steps (0: about 0.25 s worth).
TuneOutcome tune_device(const DeviceConfig& base, int n, int repeats, double copy_gbs,
                        const std::function<void(const BenchRow&)>& on_row, long steps = 0);

struct PlaneTuneOutcome {
  std::vector<TunedWorkgroup> best;  // one per kernel tuned, each stored under its own key
  std::vector<std::string> keys;     // plane_tuning_key() of each, in the same order
  std::vector<BenchRow> rows;        // every candidate measured (duplicates after clamping skipped)
};

// Tunes the work-group of the 2D kernels that `variants` (auto, tile, rows) run for 2D problem
// `problem` (plane_tm, plane_te, plane_wave, or their _pec forms) on `base`'s device, on an
// n x n plane, and stores each kernel's fastest under plane_tuning_key(..., kind, kernel), kind
// tm, te or wave. plane_wave also tunes both wave-pairsum and wave-cross whatever `variants`
// says (the two forms of the tile variant's stencil; auto takes cross on a GPU). Throws
// ConfigError (key "bench --tune") for the reference backend, which has no work-groups.
PlaneTuneOutcome tune_plane(const DeviceConfig& base, const std::string& problem, int n,
                            const std::vector<KernelVariant>& variants, int repeats,
                            double copy_gbs, const std::function<void(const BenchRow&)>& on_row);

// The cylindrical engine's work-groups (issue 20): on cylindrical problem `problem` (cyl_cpml,
// cyl_pec) of n x n (r, z) cells, every shape of cyl_tuning_candidates() for each kernel the
// `variants` (auto, tile, rows) run on `base`'s device, the tile one in both stagings (cyl-tile
// and cyl-tile-local: device.cyl_staging picks one at run time, each finds its own entry), with
// base's device.cyl_align. Each kernel's fastest is stored under plane_tuning_key(..., "cyl",
// kernel). Throws ConfigError (key "bench --tune") for the reference backend.
PlaneTuneOutcome tune_cyl(const DeviceConfig& base, const std::string& problem, int n,
                          const std::vector<KernelVariant>& variants, int repeats, double copy_gbs,
                          const std::function<void(const BenchRow&)>& on_row);

}  // namespace clfdtd
