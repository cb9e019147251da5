// `clfdtd devices`: what this build can run on. The OpenCL table comes from cl_devices.cpp; the
// reference engine is always there.
#include <cstdio>

#include "cli/commands.hpp"
#ifdef CLFDTD_HAVE_OPENCL
#include "backends/opencl/cl_devices.hpp"
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
  std::printf("\nAlways available: --backend=reference, the host CPU in double precision "
              "(slow; for cross-checking small models)\n");
  return 0;
}

}  // namespace clfdtd::cli
