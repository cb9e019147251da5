// `clfdtd devices`: what this build can run on: the devices of each device API compiled in
// (host/device/), then the reference engine, which is always there.
#include <cstdio>

#include "cli/commands.hpp"
#include "device/device.hpp"

namespace clfdtd::cli {

namespace {

void print_api(device::Api api, const char* title, const char* how, const char* missing) {
  const auto devices = device::list_devices(api);
  if (devices.empty()) {
    std::printf("%s: no device found (%s)\n", title, missing);
  } else {
    std::printf("%s devices (%s; * = default):\n%s", title, how,
                device::format_device_table(devices).c_str());
  }
}

}  // namespace

int devices_command() {
#ifdef CLFDTD_HAVE_OPENCL
  print_api(device::Api::OpenCL, "OpenCL", "--device=INDEX, gpu, cpu or part of a name",
            "is an ICD such as pocl-opencl-icd installed?");
#else
  std::printf("OpenCL: not in this build (-DCLFDTD_OPENCL=OFF)\n");
#endif
#ifdef CLFDTD_HAVE_CUDA
  std::printf("\n");
  print_api(device::Api::Cuda, "CUDA", "--backend=cuda with --device=INDEX, gpu or part of a name",
            "no NVIDIA driver or GPU");
#else
  std::printf("\nCUDA: not in this build (configure with -DCLFDTD_CUDA=ON)\n");
#endif
  std::printf("\nAlways available: --backend=reference, the host CPU in double precision "
              "(slow; for cross-checking small models)\n");
  return 0;
}

}  // namespace clfdtd::cli
