// Patent step 3: enumerate CUDA devices and choose one.
#include "backends/cuda/cuda_devices.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <sstream>

#include "backends/cuda/cuda_error.hpp"
#include "errors.hpp"

namespace clfdtd {

namespace {

std::string lower(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

double score(const CudaDeviceInfo& d) {
  return static_cast<double>(d.sm_count) * std::max(1u, d.clock_mhz);
}

int best_of(const std::vector<CudaDeviceInfo>& devs, const std::vector<int>& candidates) {
  int best = -1;
  for (int c : candidates) {
    if (best < 0 || score(devs[c]) > score(devs[best])) best = c;
  }
  return best;
}

std::string mib(unsigned long long bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return buf;
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

std::string format_cuda_device_table(const CudaDeviceList& list) {
  if (list.devices.empty()) return "No CUDA device found: " + list.problem + "\n";
  const auto& devices = list.devices;
  std::vector<int> all(devices.size());
  for (std::size_t n = 0; n < devices.size(); ++n) all[n] = static_cast<int>(n);
  const int best = best_of(devices, all);
  std::ostringstream os;
  char line[512];
  std::snprintf(line, sizeof line, "  %-3s %-40s %-7s %12s %4s %6s  %s\n", "#", "device",
                "compute", "memory", "SMs", "MHz", "PCI bus");
  os << line;
  for (std::size_t n = 0; n < devices.size(); ++n) {
    const auto& d = devices[n];
    const std::string cc = std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor);
    std::snprintf(line, sizeof line, "%c %-3d %-40s %-7s %12s %4u %6u  %s\n",
                  static_cast<int>(n) == best ? '*' : ' ', d.index, d.name.c_str(), cc.c_str(),
                  mib(d.global_mem_bytes).c_str(), d.sm_count, d.clock_mhz, d.pci.c_str());
    os << line;
  }
  os << "* = chosen when device.select is empty; CUDA driver API "
     << cuda_version_text(list.driver_version) << ", runtime "
     << cuda_version_text(list.runtime_version) << "\n";
  return os.str();
}

int choose_cuda_device(const CudaDeviceList& list, const std::string& select) {
  const auto& devices = list.devices;
  if (devices.empty()) {
    throw DeviceError("no CUDA device found (" + list.problem +
                      "); use --backend=opencl or --backend=reference");
  }
  const std::string want = lower(trim(select));
  const bool numeric = !want.empty() && std::all_of(want.begin(), want.end(), [](char ch) {
    return std::isdigit(static_cast<unsigned char>(ch));
  });
  std::string number = want;  // "007" names device 7; no integer parsing, so no overflow
  if (numeric) number.erase(0, std::min(number.find_first_not_of('0'), number.size() - 1));
  std::vector<int> candidates;
  for (std::size_t n = 0; n < devices.size(); ++n) {
    const auto& d = devices[n];
    bool match;
    if (want.empty() || want == "gpu") {
      match = true;
    } else if (numeric) {
      match = std::to_string(d.index) == number;
    } else {
      match = lower(d.name).find(want) != std::string::npos;
    }
    if (match) candidates.push_back(static_cast<int>(n));
  }
  if (candidates.empty()) {
    std::string names;
    for (const auto& d : devices) {
      names += (names.empty() ? "" : "; ") + std::to_string(d.index) + " = " + d.name;
    }
    throw ConfigError("", 0, "device.select",
                      "a CUDA device index, gpu or part of a device name matching \"" + select +
                          "\"; available CUDA devices: " + names);
  }
  return best_of(devices, candidates);
}

}  // namespace clfdtd
