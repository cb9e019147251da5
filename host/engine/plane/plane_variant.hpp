// Which kernel variant and work-group the 2D Yee engine runs (contract: device.variant = auto |
// tile | rows; onepass is 3D only). auto: rows on a CPU, tile elsewhere (the 3D rule). The
// work-group is device.workgroup as asked, else the variant's default, clamped to the grid and
// the device's limits. Without device.workgroup the work-group `clfdtd bench --tune` found for the
// device, the mode (tm, te) and the kernel is taken (its 2D tuning cache entry, tuning_cache.hpp).
#pragma once
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "config/run_config.hpp"
#include "model/field_layout.hpp"

namespace clfdtd::engine {

// tile: (wx, wy4, 1), wx rows along x by wy4 float4s along y (NDRange dim0 = y float4s, dim1 = x).
constexpr std::array<int, 3> kPlaneTileWorkgroup{8, 16, 1};
// rows: (1, W, 1), W work-items per group, one per x row.
constexpr std::array<int, 3> kPlaneRowsWorkgroup{1, 64, 1};

// Tile or Rows. Throws ConfigError (key device.variant) for onepass.
KernelVariant resolve_plane_variant(const DeviceConfig& cfg, const std::string& device_type);

// The work-group of variant v: tile takes device.workgroup's X and Y as (wx, wy4), rows the
// product X * Y * Z as W; each clamped to at least 1, to the grid (nx rows, ny4 float4s), to the
// device's per-dimension limits (max_items in NDRange order) and, halving the larger axis, to
// max_group work-items.
std::array<int, 3> choose_plane_workgroup(KernelVariant v,
                                          const std::optional<std::array<int, 3>>& requested,
                                          const FieldLayout& layout, std::size_t max_group,
                                          const std::array<std::size_t, 3>& max_items);

// A work-group to ask choose_plane_workgroup (or the wave engine) for, and whether it came from the
// tuning cache (kernel_variant() then ends with " (tuned)").
struct WorkgroupRequest {
  std::optional<std::array<int, 3>> workgroup;
  bool tuned = false;
};

const char* plane_kernel_name(KernelVariant v);  // "plane-tile", "plane-rows"
const char* plane_kind_name(PlaneMode mode);     // "tm", "te": the tuning cache's 2D kind

// device.workgroup when given; else the tuned work-group of (backend, device, driver, mode's kind,
// variant v's kernel) when the cache holds one; else nullopt (the variant's default).
WorkgroupRequest plane_workgroup_request(const DeviceConfig& cfg, KernelVariant v, PlaneMode mode,
                                         const std::string& backend, const std::string& device,
                                         const std::string& driver);

// The shapes `clfdtd bench --tune` tries for variant v, the default first: tile (wx, wy4, 1),
// rows (1, W, 1).
std::vector<std::array<int, 3>> plane_tuning_candidates(KernelVariant v);

}  // namespace clfdtd::engine
