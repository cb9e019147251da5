// The wave engine's tuned work-group: see wave_workgroup.hpp.
#include "engine/wave/wave_workgroup.hpp"

#include "backends/tuning_cache.hpp"

namespace clfdtd::engine {

WorkgroupRequest wave_workgroup_request(const DeviceConfig& cfg, WaveKernel kernel,
                                        const std::string& backend, const std::string& device,
                                        const std::string& driver) {
  if (cfg.workgroup) return {cfg.workgroup, false};
  const std::string name = wave_kernel_name(kernel);
  const auto tuned =
      lookup_workgroup_tuning(plane_tuning_key(backend, device, driver, "wave", name), name);
  // The engine refuses a Z other than 1 as a bad device.workgroup; a cache entry must not fail a run.
  if (!tuned || tuned->workgroup[2] != 1) return {};
  return {tuned->workgroup, true};
}

std::vector<std::array<int, 3>> wave_tuning_candidates(WaveKernel kernel) {
  if (kernel == WaveKernel::Rows) {
    return {{1, 8, 1}, {1, 4, 1}, {1, 16, 1}, {1, 32, 1}, {1, 64, 1}, {1, 128, 1}};
  }
  // The engine's default 8 x 32 first; Y (along the rows, contiguous in memory) kept at 16 or
  // more so that a group's loads stay coalesced.
  return {{8, 32, 1}, {4, 32, 1}, {2, 64, 1}, {1, 128, 1}, {4, 64, 1}, {16, 16, 1},
          {8, 16, 1}, {16, 32, 1}, {2, 128, 1}, {1, 256, 1}, {32, 16, 1}};
}

}  // namespace clfdtd::engine
