// The CUDA implementation of the device API (device.hpp): NVRTC compiles embedded_program_source()
// at run time with the program's defines, exactly as OpenCL builds it, and the CUDA runtime's
// library API (cudaLibraryLoadData, cudaLibraryGetKernel, cudaLaunchKernel) loads and launches
// it, so no driver library is linked and the program starts on machines without a GPU.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "device/device.hpp"

namespace clfdtd::device {

// CUDA devices (CUDA_VISIBLE_DEVICES ordinals); none without a driver or a GPU.
std::vector<DeviceInfo> list_cuda_devices();
std::unique_ptr<Device> open_cuda_device(int index);  // DeviceError if there is none

// What NVRTC compiles for a device of compute capability major.minor: "sm_<cc>" machine code
// when this NVRTC supports that architecture, else "compute_<a>" PTX of the newest supported
// architecture below it (the driver compiles that). DeviceError for devices older than NVRTC's
// oldest architecture.
std::string nvrtc_target(int cc_major, int cc_minor);

// embedded_program_source() compiled by NVRTC for `target` ("sm_90": a CUBIN; "compute_90":
// PTX) with `defines`; needs no GPU. DeviceError carries the options and NVRTC's log.
std::string compile_cuda_program(const Defines& defines, const std::string& target);
// The same for any source text (one embedded file alone, say).
std::string compile_cuda_source(const std::string& source, const Defines& defines,
                                const std::string& target);

}  // namespace clfdtd::device
