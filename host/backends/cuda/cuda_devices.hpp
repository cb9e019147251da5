// Patent step 3 ("choose the processor type") for the CUDA backend: the CUDA devices the runtime
// sees, the table `clfdtd devices` prints, and the chooser behind device.select (same rules as
// the OpenCL chooser; every CUDA device is a GPU).
#pragma once
#include <string>
#include <vector>

namespace clfdtd {

struct CudaDeviceInfo {
  int index = 0;  // CUDA device ordinal (after CUDA_VISIBLE_DEVICES)
  std::string name;
  int cc_major = 0, cc_minor = 0;  // compute capability, e.g. 9.0
  unsigned long long global_mem_bytes = 0;
  unsigned sm_count = 0;
  unsigned clock_mhz = 0;
  std::string pci;  // bus id, e.g. "0000:18:00.0"
};

struct CudaDeviceList {
  std::vector<CudaDeviceInfo> devices;
  std::string problem;         // why the list is empty ("" when devices were found)
  int driver_version = 0;      // CUDA API version the driver supports, e.g. 13000; 0 = no driver
  int runtime_version = 0;     // of the runtime linked into clfdtd
};

// All devices; no driver or no device gives an empty list and a reason, never an exception.
CudaDeviceList list_cuda_devices();

// "13.0" for 13000.
std::string cuda_version_text(int version);

// A fixed-width table with a header; the device "" would choose is marked with '*'. An empty list
// gives one line with the reason.
std::string format_cuda_device_table(const CudaDeviceList& list);

// Position in list.devices of the device `select` names: "" or "gpu" the best (most SMs * clock),
// "2" CUDA device 2, otherwise a case-insensitive part of the name. Throws ConfigError (key
// device.select, listing the devices) when nothing matches and DeviceError (with the reason)
// when there is no CUDA device at all.
int choose_cuda_device(const CudaDeviceList& list, const std::string& select);

}  // namespace clfdtd
