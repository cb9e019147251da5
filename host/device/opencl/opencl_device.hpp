// The OpenCL implementation of the device API (device.hpp), through CLHPP. Devices are the flat
// list of every platform's devices (backends/opencl/cl_devices.hpp), so indices match
// `clfdtd devices` and device.select.
#pragma once
#include <memory>
#include <vector>

#include "device/device.hpp"

namespace clfdtd::device {

std::vector<DeviceInfo> list_opencl_devices();
std::unique_ptr<Device> open_opencl_device(int index);  // DeviceError if there is none

}  // namespace clfdtd::device
