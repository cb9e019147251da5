// The auto-tuner's memory: the fastest kernel variant and work-group found by `clfdtd bench
// --tune` for one device and driver, kept in a small JSON file so that later runs with
// device.variant = auto (and no device.workgroup) use it. The file lives in $CLFDTD_CACHE_DIR,
// else $XDG_CACHE_HOME/clfdtd, else ~/.cache/clfdtd, and is named tuning.json.
#pragma once
#include <array>
#include <optional>
#include <string>

#include "config/run_config.hpp"

namespace clfdtd {

struct TunedChoice {
  KernelVariant variant = KernelVariant::Tile;
  std::array<int, 3> workgroup{};  // x y z as device.workgroup reads it
  double gcells_per_s = 0;         // what the tuner measured
  int n = 0;                       // on a vacuum cube with UPML of n^3 cells
};

// "opencl|<device name>|<driver version>|kernels <digest>": a new driver, or kernels changed by
// an update of clfdtd, are tuned anew (an old winner may have become the slowest shape: tile
// 1x1x32 did, docs/BENCHMARKS.md), and the old entry is simply no longer looked up.
std::string tuning_key(const std::string& backend, const std::string& device,
                       const std::string& driver);

// 12 hex digits fingerprinting the kernel sources this build embeds (cl_kernels/*.cl, *.h).
std::string kernel_sources_digest();

std::string tuning_file();  // the path described above

// The stored choice for `key`, or nullopt (no file, no entry, or an unreadable file: tuning is an
// optimisation, never a reason to fail a run).
std::optional<TunedChoice> lookup_tuning(const std::string& key);

// Adds or replaces the entry for `key`, writing through a temporary file and a rename.
// Throws std::runtime_error naming the file on a write failure.
void store_tuning(const std::string& key, const TunedChoice& choice);

const char* variant_name(KernelVariant v);  // "auto", "tile", "onepass", "rows"

}  // namespace clfdtd
