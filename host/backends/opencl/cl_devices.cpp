// Patent step 3: enumerate OpenCL platforms and devices (device::choose_device chooses).
#include "backends/opencl/cl_devices.hpp"

#include <cctype>

#include "backends/opencl/cl_error.hpp"
#include "device/device_checks.hpp"
#include "errors.hpp"

namespace clfdtd {

namespace {

// Platforms and devices in a fixed order; a platform without devices contributes none.
std::vector<std::pair<cl::Platform, cl::Device>> enumerate() {
  std::vector<std::pair<cl::Platform, cl::Device>> out;
  std::vector<cl::Platform> platforms;
  try {
    cl::Platform::get(&platforms);
  } catch (const cl::Error&) {
    return out;  // no ICD / CL_PLATFORM_NOT_FOUND_KHR: simply no devices
  }
  for (const auto& p : platforms) {
    std::vector<cl::Device> devices;
    try {
      p.getDevices(CL_DEVICE_TYPE_ALL, &devices);
    } catch (const cl::Error&) {
      continue;  // CL_DEVICE_NOT_FOUND
    }
    for (const auto& d : devices) out.emplace_back(p, d);
  }
  return out;
}

std::string type_name(cl_device_type t) {
  if (t & CL_DEVICE_TYPE_GPU) return "gpu";
  if (t & CL_DEVICE_TYPE_CPU) return "cpu";
  if (t & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
  return "other";
}

}  // namespace

std::vector<ClDeviceInfo> list_cl_devices() {
  std::vector<ClDeviceInfo> out;
  const auto all = enumerate();
  for (std::size_t n = 0; n < all.size(); ++n) {
    const auto& [p, d] = all[n];
    ClDeviceInfo info;
    info.index = static_cast<int>(n);
    try {
      info.platform = device::trim_driver_text(p.getInfo<CL_PLATFORM_NAME>());
      info.name = device::trim_driver_text(d.getInfo<CL_DEVICE_NAME>());
      info.vendor = device::trim_driver_text(d.getInfo<CL_DEVICE_VENDOR>());
      info.type = type_name(d.getInfo<CL_DEVICE_TYPE>());
      info.version = device::trim_driver_text(d.getInfo<CL_DEVICE_VERSION>());
      info.driver = device::trim_driver_text(d.getInfo<CL_DRIVER_VERSION>());
      info.global_mem_bytes = d.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>();
      info.max_alloc_bytes = d.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>();
      info.compute_units = d.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>();
      info.clock_mhz = d.getInfo<CL_DEVICE_MAX_CLOCK_FREQUENCY>();
    } catch (const cl::Error& e) {
      throw_device_error(e, "querying OpenCL device " + std::to_string(n));
    }
    out.push_back(info);
  }
  return out;
}

cl::Device cl_device_at(int index) {
  const auto all = enumerate();
  if (index < 0 || static_cast<std::size_t>(index) >= all.size()) {
    throw DeviceError("OpenCL device " + std::to_string(index) + " is no longer available");
  }
  return all[static_cast<std::size_t>(index)].second;
}

}  // namespace clfdtd
