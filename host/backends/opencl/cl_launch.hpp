// The memory check of the OpenCL backend, kept free of any device so tests can exercise it with
// made-up limits.
#pragma once
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "backends/opencl/cl_devices.hpp"
#include "engine/variant_choice.hpp"  // the work-group rules, shared with the GPU engine
#include "model/field_layout.hpp"

namespace clfdtd {

struct BufferNeed {
  std::string name;
  std::size_t bytes = 0;
};

// Throws OutOfMemoryError when total_bytes exceeds the device's global memory ("model needs X
// bytes (Y MiB), device <name> has Z bytes") or one buffer exceeds CL_DEVICE_MAX_MEM_ALLOC_SIZE.
void check_device_memory(std::size_t total_bytes, const std::vector<BufferNeed>& buffers,
                         const ClDeviceInfo& device);

}  // namespace clfdtd
