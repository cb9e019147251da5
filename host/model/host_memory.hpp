// Host memory: what this process may still allocate, and the check every engine makes before it
// allocates (the reference engine's double fields, a CPU OpenCL device's buffers, which live in
// host memory, the model's own tables). Without it the kernel's OOM killer ends a run unannounced.
//
// Available = the least of
//   MemAvailable in /proc/meminfo (the whole machine),
//   the cgroup's memory.max (v2) or memory.limit_in_bytes (v1) less its usage, for this process's
//     cgroup and every parent (containers, systemd slices, CI runners),
//   CLFDTD_HOST_MEMORY_LIMIT (bytes, e.g. 8e9) less this process's resident memory: a user's own
//     cap on a shared machine, and how the tests exercise the refusal.
#pragma once
#include <cstddef>
#include <string>

namespace clfdtd {

struct HostMemory {
  std::size_t available = 0;  // bytes this process may still allocate; SIZE_MAX when unknown
  std::string limited_by;     // which of the three gave `available` ("" when unknown)
};

// Reads the three sources now. Throws ConfigError when CLFDTD_HOST_MEMORY_LIMIT is set but is not
// a number of bytes > 0.
HostMemory host_memory_available();

// Throws OutOfMemoryError "not enough host memory for <what>: needs N bytes (X MiB), available M
// bytes (Y MiB, <limited_by>)" when bytes_needed exceeds host_memory_available().
void check_host_memory(std::size_t bytes_needed, const std::string& what);

}  // namespace clfdtd
