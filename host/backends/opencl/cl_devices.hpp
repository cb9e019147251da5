// Patent step 3 ("choose the processor type"): every OpenCL device of every platform under one flat
// index, the table `clfdtd devices` prints, and the chooser behind device.select.
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

// A fixed-width table with a header; the device "" would choose is marked with '*'.
std::string format_device_table(const std::vector<ClDeviceInfo>& devices);

// Position in `devices` of the device `select` names:
//   ""          the best: a GPU if any (most compute_units * clock_mhz), else a CPU, else any;
//   "3"         flat index 3;
//   "gpu"/"cpu" the best of that type;
//   otherwise   a case-insensitive part of the device or platform name (best match wins).
// Throws ConfigError(key "device.select") listing the devices when nothing matches, and
// DeviceError when there is no OpenCL device at all.
int choose_cl_device(const std::vector<ClDeviceInfo>& devices, const std::string& select);

// The cl::Device behind a flat index of list_cl_devices(). Throws DeviceError if it is gone.
cl::Device cl_device_at(int index);

}  // namespace clfdtd
