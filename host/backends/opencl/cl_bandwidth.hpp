// The roofline's ceiling: how fast this device copies memory, measured in the same run as the
// benchmark it is compared with (clfdtd bench).
#pragma once
#include <CL/opencl.hpp>

#include "backends/opencl/cl_devices.hpp"

namespace clfdtd {

// Bytes per second moved by clEnqueueCopyBuffer (each byte read once and written once, both
// counted) between two buffers of up to 512 MiB (less on small devices), the best of several
// copies timed with OpenCL profiling events (the queue must have profiling enabled).
double measure_copy_bandwidth(const cl::Context& context, cl::CommandQueue& queue,
                              const ClDeviceInfo& device);

}  // namespace clfdtd
