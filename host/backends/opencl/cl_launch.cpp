// Work-group choice and the memory check done before any allocation (patent step 3).
#include "backends/opencl/cl_launch.hpp"

#include <algorithm>
#include <cstdio>

#include "errors.hpp"

namespace clfdtd {

namespace {

std::string bytes_text(unsigned long long bytes) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%llu bytes (%.1f MiB)", bytes,
                static_cast<double>(bytes) / (1024.0 * 1024.0));
  return buf;
}

}  // namespace

std::array<int, 3> choose_workgroup(const std::optional<std::array<int, 3>>& requested,
                                    const FieldLayout& layout, std::size_t max_group,
                                    const std::array<std::size_t, 3>& max_items) {
  return choose_workgroup(requested, kDefaultWorkgroup, {layout.nx, layout.ny, layout.nz4},
                          max_group, max_items);
}

std::array<int, 3> choose_workgroup(const std::optional<std::array<int, 3>>& requested,
                                    const std::array<int, 3>& fallback,
                                    const std::array<int, 3>& grid, std::size_t max_group,
                                    const std::array<std::size_t, 3>& max_items) {
  std::array<int, 3> wg = requested ? *requested : fallback;
  for (int a = 0; a < 3; ++a) {
    // max_items is in NDRange order (z4, y, x); wg in (x, y, z4).
    const auto limit = static_cast<long long>(std::max<std::size_t>(1, max_items[2 - a]));
    long long v = std::max(1, wg[a]);
    v = std::min<long long>(v, std::max(1, grid[a]));
    v = std::min(v, limit);
    wg[a] = static_cast<int>(v);
  }
  max_group = std::max<std::size_t>(1, max_group);
  while (static_cast<std::size_t>(wg[0]) * wg[1] * wg[2] > max_group) {
    int* largest = &*std::max_element(wg.begin(), wg.end());
    *largest = (*largest + 1) / 2;
  }
  return wg;
}

std::array<int, 3> choose_onepass_workgroup(const std::optional<std::array<int, 3>>& requested,
                                            const FieldLayout& layout, std::size_t max_group,
                                            const std::array<std::size_t, 3>& max_items) {
  std::array<int, 3> wg = requested ? *requested : kDefaultOnePassWorkgroup;
  wg[0] = std::clamp(wg[0], 1, std::max(1, layout.nx));
  const int grid[3] = {0, std::max(2, layout.ny), std::max(2, layout.nz4)};
  for (int a = 1; a < 3; ++a) {
    const int limit = static_cast<int>(std::min<std::size_t>(max_items[2 - a], 1 << 20));
    wg[a] = std::max(2, std::min({wg[a], grid[a], limit}));
  }
  while (static_cast<std::size_t>(wg[1]) * wg[2] > std::max<std::size_t>(4, max_group)) {
    int& larger = wg[1] >= wg[2] ? wg[1] : wg[2];
    larger = std::max(2, (larger + 1) / 2);
  }
  return wg;
}

void check_device_memory(std::size_t total_bytes, const std::vector<BufferNeed>& buffers,
                         const ClDeviceInfo& device) {
  if (total_bytes > device.global_mem_bytes) {
    throw OutOfMemoryError("model needs " + bytes_text(total_bytes) + ", device " + device.name +
                           " has " + bytes_text(device.global_mem_bytes) +
                           " (CL_DEVICE_GLOBAL_MEM_SIZE); use a coarser grid or a larger device");
  }
  for (const auto& b : buffers) {
    if (b.bytes > device.max_alloc_bytes) {
      throw OutOfMemoryError("buffer " + b.name + " needs " + bytes_text(b.bytes) + ", device " +
                             device.name + " allows " + bytes_text(device.max_alloc_bytes) +
                             " per buffer (CL_DEVICE_MAX_MEM_ALLOC_SIZE)");
    }
  }
}

}  // namespace clfdtd
