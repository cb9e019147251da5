// Patent step 3 ("choose the processor type") on CUDA: the devices the runtime sees, for the CUDA
// device (host/device/cuda), which lists and opens them.
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

}  // namespace clfdtd
