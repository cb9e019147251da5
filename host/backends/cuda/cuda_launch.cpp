// Block-shape choice, grid sizes and the memory check done before any allocation (patent step 3).
#include "backends/cuda/cuda_launch.hpp"

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

constexpr long long kMaxGridYZ = 65535;

}  // namespace

int choose_cuda_tile(const std::optional<std::array<int, 3>>& requested,
                     const std::vector<std::array<int, 3>>& compiled) {
  if (compiled.empty()) throw DeviceError("this CUDA build has no compiled block shapes");
  if (!requested) return 0;
  const auto it = std::find(compiled.begin(), compiled.end(), *requested);
  if (it != compiled.end()) return static_cast<int>(it - compiled.begin());
  std::string list;
  for (const auto& t : compiled) {
    list += (list.empty() ? "" : ", ") + std::to_string(t[0]) + " " + std::to_string(t[1]) + " " +
            std::to_string(t[2]);
  }
  const auto& r = *requested;
  throw ConfigError("", 0, "device.workgroup",
                    "for --backend=cuda one of the block shapes (x y z4) nvcc built: " + list +
                        " (got " + std::to_string(r[0]) + " " + std::to_string(r[1]) + " " +
                        std::to_string(r[2]) + "; add shapes with -DCLFDTD_CUDA_TILES=... at "
                        "build time)");
}

std::array<int, 3> choose_cuda_block(const std::optional<std::array<int, 3>>& requested,
                                     const std::array<int, 3>& fallback,
                                     const std::array<int, 3>& grid,
                                     const std::array<int, 3>& limits, int max_threads) {
  std::array<int, 3> b = requested ? *requested : fallback;
  for (int a = 0; a < 3; ++a) {
    b[a] = std::min({std::max(1, b[a]), std::max(1, grid[a]), std::max(1, limits[a])});
  }
  while (static_cast<long long>(b[0]) * b[1] * b[2] > std::max(1, max_threads)) {
    int* largest = &*std::max_element(b.begin(), b.end());
    *largest = (*largest + 1) / 2;
  }
  return b;
}

std::array<unsigned, 3> cuda_block_grid(const std::array<int, 3>& extent,
                                        const std::array<int, 3>& block) {
  auto blocks = [](long long n, long long b) { return std::max(1LL, (n + b - 1) / std::max(1LL, b)); };
  const long long gx = blocks(extent[2], block[2]), gy = blocks(extent[1], block[1]),
                  gz = blocks(extent[0], block[0]);
  if (gy > kMaxGridYZ || gz > kMaxGridYZ) {
    throw DeviceError("the grid needs " + std::to_string(gz) + " x " + std::to_string(gy) +
                      " blocks along x and y with the block shape " + std::to_string(block[0]) +
                      " " + std::to_string(block[1]) + " " + std::to_string(block[2]) +
                      ", more than CUDA's 65535; choose a shape with larger x and y "
                      "(device.workgroup)");
  }
  return {static_cast<unsigned>(gx), static_cast<unsigned>(gy), static_cast<unsigned>(gz)};
}

unsigned cuda_linear_blocks(std::size_t n, unsigned block) {
  return static_cast<unsigned>(std::max<std::size_t>(1, (n + block - 1) / block));
}

void check_cuda_memory(std::size_t needed_bytes, std::size_t free_bytes, std::size_t total_bytes,
                       const std::string& device) {
  if (needed_bytes <= free_bytes) return;
  throw OutOfMemoryError("model needs " + bytes_text(needed_bytes) + ", device " + device +
                         " has " + bytes_text(free_bytes) + " free of " +
                         bytes_text(total_bytes) +
                         " (cudaMemGetInfo); use a coarser grid or a larger device");
}

}  // namespace clfdtd
