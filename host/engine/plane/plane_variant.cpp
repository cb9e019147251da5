// The 2D engine's variant and work-group: see plane_variant.hpp.
#include "engine/plane/plane_variant.hpp"

#include <algorithm>

#include "errors.hpp"

namespace clfdtd::engine {

KernelVariant resolve_plane_variant(const DeviceConfig& cfg, const std::string& device_type) {
  switch (cfg.variant) {
    case KernelVariant::OnePass:
      throw ConfigError("", 0, "device.variant",
                        "auto, tile or rows for a 2D model (onepass is a 3D kernel)");
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

}  // namespace clfdtd::engine
