// The auto-tuner's memory: the fastest kernel variant and work-group found by `clfdtd bench
// --tune` for one device and driver, one entry for models with UPML and one for models without
// (tblock steps two steps per pass only there), kept in a small JSON file so that later runs with
// device.variant = auto (and no device.workgroup) use them. The file lives in $CLFDTD_CACHE_DIR,
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
  int n = 0;                       // on an n^3 cube of `problem`
  // The bench problem measured: "vacuum_upml" (models with UPML; an entry without the field, as
  // files before the no-UPML entries hold, reads as this) or "pec_cube" (models without UPML).
  std::string problem = "vacuum_upml";
};

// "opencl|<device name>|<driver version>|kernels <digest>": a new driver, or kernels changed by
// an update of clfdtd, are tuned anew (an old winner may have become the slowest shape: tile
// 1x1x32 did, docs/BENCHMARKS.md), and the old entry is simply no longer looked up.
std::string tuning_key(const std::string& backend, const std::string& device,
                       const std::string& driver);

// 12 hex digits fingerprinting the kernel sources this build embeds (cl_kernels/*.cl, *.h).
std::string kernel_sources_digest();

// tuning_key(backend, device, driver) + "|3d without upml": the entry for models without UPML.
// The bare tuning_key holds the entry for models with UPML, the only 3D entry of a file written
// before this one existed: such a file reads as "the UPML entry only", and auto falls back to it.
std::string no_upml_tuning_key(const std::string& backend, const std::string& device,
                               const std::string& driver);

std::string tuning_file();  // the path described above

// The stored choice for `key`, or nullopt (no file, no entry, or an unreadable file: tuning is an
// optimisation, never a reason to fail a run).
std::optional<TunedChoice> lookup_tuning(const std::string& key);

// Adds or replaces the entry for `key`, writing through a temporary file and a rename.
// Throws std::runtime_error naming the file on a write failure.
void store_tuning(const std::string& key, const TunedChoice& choice);

const char* variant_name(KernelVariant v);  // "auto", "tile", "onepass", "rows"

// 2D entries (issue 19): the fastest work-group of one 2D kernel for one device and one kind of
// 2D model. The kernel itself stays the one device.variant picks; only its work-group is tuned.
struct TunedWorkgroup {
  std::string kernel;              // "plane-tile", "plane-rows", "wave-pairsum", "wave-cross", ...
  std::array<int, 3> workgroup{};  // x y z as device.workgroup reads it
  double gcells_per_s = 0;         // what the tuner measured
  int n = 0;                       // on an n x n plane with UPML (bench problem plane_<kind>)
  std::string problem;             // the bench problem measured, e.g. "plane_tm"
};

// tuning_key(backend, device, driver) + "|2d <kind>|<kernel>", kind "tm", "te" or "wave": a 3D
// lookup (the bare tuning_key) never finds a 2D entry, a 2D lookup never a 3D one, and tm, te and
// wave, or two kernels of one kind, never share an entry.
std::string plane_tuning_key(const std::string& backend, const std::string& device,
                             const std::string& driver, const std::string& kind,
                             const std::string& kernel);

// The stored 2D entry for `key` when it names `kernel`, or nullopt (as lookup_tuning).
std::optional<TunedWorkgroup> lookup_workgroup_tuning(const std::string& key,
                                                      const std::string& kernel);

// Adds or replaces the 2D entry for `key` (the other entries, 3D ones included, are kept).
// Throws std::runtime_error naming the file on a write failure.
void store_workgroup_tuning(const std::string& key, const TunedWorkgroup& choice);

}  // namespace clfdtd
