// The memory check done before any allocation (patent step 3).
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
