// Patent step 3 ("choose the processor type"): every OpenCL device of every platform under one flat
// index, for the OpenCL device (host/device/opencl), which lists and opens them.
#pragma once
#include <CL/opencl.hpp>
#include <string>
#include <vector>

namespace clfdtd {

struct ClDeviceInfo {
  int index = 0;  // flat over all platforms, in platform then device order
  std::string platform, name, vendor;
  std::string type;     // gpu | cpu | accelerator | other
  std::string version;  // CL_DEVICE_VERSION, e.g. "OpenCL 3.0 CUDA"
  std::string driver;   // CL_DRIVER_VERSION, e.g. "560.35.03" (keys the tuning cache)
  unsigned long long global_mem_bytes = 0, max_alloc_bytes = 0;
  unsigned compute_units = 0;
  unsigned clock_mhz = 0;
};

// All devices; no platform (or no ICD at all) gives an empty list, never an exception.
std::vector<ClDeviceInfo> list_cl_devices();

// The cl::Device behind a flat index of list_cl_devices(). Throws DeviceError if it is gone.
cl::Device cl_device_at(int index);

}  // namespace clfdtd
