// Patent step 3 ("load the FDTD program file"): one OpenCL program compiled for one device, its
// build log carried by the error (the OpenCL device, host/device/opencl, builds the embedded
// kernels through it).
#pragma once
#include <CL/opencl.hpp>
#include <string>

namespace clfdtd {

// Compiles `source` for `device`; a failure throws DeviceError carrying the full build log.
cl::Program build_program(const cl::Context& context, const cl::Device& device,
                          const std::string& source, const std::string& options);

}  // namespace clfdtd
