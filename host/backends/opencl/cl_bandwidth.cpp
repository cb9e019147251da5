// measure_copy_bandwidth: see cl_bandwidth.hpp.
#include "backends/opencl/cl_bandwidth.hpp"

#include <algorithm>

namespace clfdtd {

double measure_copy_bandwidth(const cl::Context& context, cl::CommandQueue& queue,
                              const ClDeviceInfo& device) {
  // Large enough to leave every cache behind, small enough to fit beside a model.
  std::size_t bytes = std::size_t{512} << 20;
  bytes = std::min<std::size_t>(bytes, device.max_alloc_bytes / 2);
  bytes = std::min<std::size_t>(bytes, device.global_mem_bytes / 8);
  bytes = std::max<std::size_t>(bytes / 4096 * 4096, 4096);
  cl::Buffer a(context, CL_MEM_READ_WRITE, bytes), b(context, CL_MEM_READ_WRITE, bytes);
  queue.enqueueFillBuffer(a, cl_float{1}, 0, bytes);
  queue.enqueueFillBuffer(b, cl_float{0}, 0, bytes);
  queue.finish();
  double best = 0;
  for (int rep = 0; rep < 6; ++rep) {  // the first copy pays for first-touch work
    cl::Event ev;
    queue.enqueueCopyBuffer(a, b, 0, 0, bytes, nullptr, &ev);
    ev.wait();
    const auto t0 = ev.getProfilingInfo<CL_PROFILING_COMMAND_START>();
    const auto t1 = ev.getProfilingInfo<CL_PROFILING_COMMAND_END>();
    if (rep > 0 && t1 > t0) best = std::max(best, 2.0 * bytes / (static_cast<double>(t1 - t0) * 1e-9));
  }
  return best;
}

}  // namespace clfdtd
