// Patent step 3: enumerate CUDA devices (device::choose_device chooses).
#include "backends/cuda/cuda_devices.hpp"

#include <cuda_runtime_api.h>

#include <cctype>

#include "backends/cuda/cuda_error.hpp"
#include "errors.hpp"

namespace clfdtd {

namespace {

std::string lower(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

int attribute(cudaDeviceAttr a, int dev) {
  int v = 0;
  cuda_check(cudaDeviceGetAttribute(&v, a, dev), "cudaDeviceGetAttribute",
             "querying CUDA device " + std::to_string(dev));
  return v;
}

}  // namespace

std::string cuda_version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

CudaDeviceList list_cuda_devices() {
  CudaDeviceList out;
  cudaRuntimeGetVersion(&out.runtime_version);
  if (cudaDriverGetVersion(&out.driver_version) != cudaSuccess) out.driver_version = 0;
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    out.problem = "cudaGetDeviceCount failed with " + cuda_error_text(e);
    if (out.driver_version == 0) out.problem += " (no NVIDIA driver installed)";
    return out;
  }
  if (count == 0) {
    out.problem = "the CUDA runtime reports 0 devices";
    return out;
  }
  try {
    for (int n = 0; n < count; ++n) {
      CudaDeviceInfo d;
      d.index = n;
      cudaDeviceProp prop{};
      cuda_check(cudaGetDeviceProperties(&prop, n), "cudaGetDeviceProperties",
                 "querying CUDA device " + std::to_string(n));
      d.name = prop.name;
      d.global_mem_bytes = prop.totalGlobalMem;
      d.cc_major = attribute(cudaDevAttrComputeCapabilityMajor, n);
      d.cc_minor = attribute(cudaDevAttrComputeCapabilityMinor, n);
      d.sm_count = static_cast<unsigned>(attribute(cudaDevAttrMultiProcessorCount, n));
      d.clock_mhz = static_cast<unsigned>(attribute(cudaDevAttrClockRate, n) / 1000);
      char pci[32] = {};
      if (cudaDeviceGetPCIBusId(pci, sizeof pci, n) == cudaSuccess) d.pci = lower(pci);
      (void)cudaGetLastError();
      out.devices.push_back(d);
    }
  } catch (const DeviceError& err) {
    out.devices.clear();
    out.problem = err.what();
  }
  return out;
}

}  // namespace clfdtd
