// The 2D engine's variant and work-group: see plane_variant.hpp.
#include "engine/plane/plane_variant.hpp"

#include <algorithm>

#include "backends/tuning_cache.hpp"
#include "errors.hpp"

namespace clfdtd::engine {

KernelVariant resolve_plane_variant(const DeviceConfig& cfg, const std::string& device_type) {
  switch (cfg.variant) {
    case KernelVariant::OnePass:
    case KernelVariant::TBlock:
      throw ConfigError("", 0, "device.variant",
                        "auto, tile or rows for a 2D model (onepass is a 3D kernel, tblock too)");
    case KernelVariant::Auto:
      return device_type == "cpu" ? KernelVariant::Rows : KernelVariant::Tile;
    default:
      return cfg.variant;
  }
}

std::array<int, 3> choose_plane_workgroup(KernelVariant v,
                                          const std::optional<std::array<int, 3>>& requested,
                                          const FieldLayout& layout, std::size_t max_group,
                                          const std::array<std::size_t, 3>& max_items) {
  max_group = std::max<std::size_t>(1, max_group);
  auto clamp = [](long long value, long long grid, std::size_t limit) {
    value = std::max(1LL, value);
    value = std::min(value, std::max(1LL, grid));
    return static_cast<int>(
        std::min<long long>(value, static_cast<long long>(std::max<std::size_t>(1, limit))));
  };
  if (v == KernelVariant::Rows) {
    long long w = kPlaneRowsWorkgroup[1];
    if (requested) w = static_cast<long long>((*requested)[0]) * (*requested)[1] * (*requested)[2];
    int items = clamp(w, layout.nx, std::min(max_items[0], max_group));
    return {1, items, 1};
  }
  const std::array<int, 3> want = requested ? *requested : kPlaneTileWorkgroup;
  int wx = clamp(want[0], layout.nx, max_items[1]);
  int wy4 = clamp(want[1], layout.ny4, max_items[0]);
  while (static_cast<std::size_t>(wx) * wy4 > max_group) {
    int& larger = wx >= wy4 ? wx : wy4;
    larger = (larger + 1) / 2;
  }
  return {wx, wy4, 1};
}

const char* plane_kernel_name(KernelVariant v) {
  return v == KernelVariant::Rows ? "plane-rows" : "plane-tile";
}

const char* plane_kind_name(PlaneMode mode) { return mode == PlaneMode::Te ? "te" : "tm"; }

WorkgroupRequest plane_workgroup_request(const DeviceConfig& cfg, KernelVariant v, PlaneMode mode,
                                         const std::string& backend, const std::string& device,
                                         const std::string& driver) {
  if (cfg.workgroup) return {cfg.workgroup, false};
  const std::string kernel = plane_kernel_name(v);
  const auto tuned = lookup_workgroup_tuning(
      plane_tuning_key(backend, device, driver, plane_kind_name(mode), kernel), kernel);
  if (!tuned) return {};
  return {tuned->workgroup, true};
}

std::vector<std::array<int, 3>> plane_tuning_candidates(KernelVariant v) {
  if (v == KernelVariant::Rows) {
    return {kPlaneRowsWorkgroup, {1, 8, 1}, {1, 16, 1}, {1, 32, 1}, {1, 128, 1}, {1, 256, 1}};
  }
  // Rows of the tile along x by float4s along y: from one long row (1 x 64) to squat tiles.
  return {kPlaneTileWorkgroup, {4, 16, 1}, {2, 32, 1}, {1, 64, 1}, {4, 32, 1}, {8, 8, 1},
          {16, 8, 1}, {8, 32, 1}, {16, 16, 1}, {32, 8, 1}, {4, 64, 1}, {2, 128, 1}};
}

}  // namespace clfdtd::engine
