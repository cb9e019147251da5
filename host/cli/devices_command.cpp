// `clfdtd devices`: what this build can run on. The OpenCL table comes from cl_devices.cpp, the
// CUDA table (CUDA builds) from cuda_devices.cpp; the reference engine is always there.
#include <cstdio>

#include "cli/commands.hpp"
#ifdef CLFDTD_HAVE_OPENCL
#include "backends/opencl/cl_devices.hpp"
#endif
#ifdef CLFDTD_HAVE_CUDA
#include "backends/cuda/cuda_devices.hpp"
#endif

namespace clfdtd::cli {

int devices_command() {
#ifdef CLFDTD_HAVE_OPENCL
  const auto devices = list_cl_devices();
  if (devices.empty()) {
    std::printf("OpenCL: no platform or device found (is an ICD such as pocl-opencl-icd installed?)\n");
  } else {
    std::printf("OpenCL devices (--device=INDEX, gpu, cpu or part of a name; * = default):\n%s",
                format_device_table(devices).c_str());
  }
#else
  std::printf("OpenCL: not in this build (-DCLFDTD_OPENCL=OFF)\n");
#endif
#ifdef CLFDTD_HAVE_CUDA
  const auto cuda = list_cuda_devices();
  if (cuda.devices.empty()) {
    std::printf("\nCUDA: %s", format_cuda_device_table(cuda).c_str());
  } else {
    std::printf("\nCUDA devices (--backend=cuda with --device=INDEX, gpu or part of a name; "
                "* = default):\n%s",
                format_cuda_device_table(cuda).c_str());
  }
#else
  std::printf("\nCUDA: not in this build (configure with -DCLFDTD_CUDA=ON)\n");
#endif
  std::printf("\nAlways available: --backend=reference, the host CPU in double precision "
              "(slow; for cross-checking small models)\n");
  return 0;
}

}  // namespace clfdtd::cli
