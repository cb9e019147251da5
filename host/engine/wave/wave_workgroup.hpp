// The wave engine's work-group when device.workgroup is not given: the one `clfdtd bench --tune`
// found for the device and the interior kernel (pair-sum, cross or rows), from the tuning cache's
// "2d wave" entries (tuning_cache.hpp); and the shapes the tuner tries for each kernel.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "config/run_config.hpp"
#include "engine/plane/plane_variant.hpp"
#include "engine/wave/wave_engine.hpp"

namespace clfdtd::engine {

// device.workgroup when given; else the tuned work-group of (backend, device, driver, "wave",
// kernel) when the cache holds one; else nullopt (the kernel's default).
WorkgroupRequest wave_workgroup_request(const DeviceConfig& cfg, WaveKernel kernel,
                                        const std::string& backend, const std::string& device,
                                        const std::string& driver);

// The shapes `clfdtd bench --tune` tries for `kernel`, the default first: pair-sum and cross
// (X along x, Y along y, 1), rows (1, X rows a group, 1).
std::vector<std::array<int, 3>> wave_tuning_candidates(WaveKernel kernel);

}  // namespace clfdtd::engine
