// Which kernel variant and work-group the 2D Yee engine runs (contract: device.variant = auto |
// tile | rows; onepass is 3D only). auto: rows on a CPU, tile elsewhere (the 3D rule). The
// work-group is device.workgroup as asked, else the variant's default, clamped to the grid and
// the device's limits. The tuning cache (clfdtd bench --tune) holds 3D choices and is not read.
#pragma once
#include <array>
#include <cstddef>
#include <optional>
#include <string>

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

}  // namespace clfdtd::engine
