// Every failing CUDA runtime call leaves the backend as a DeviceError naming the call, the error
// code's name and the runtime's message, the way cl_error.hpp does for OpenCL; an allocation
// failure is an OutOfMemoryError (same exit code 4).
#pragma once
#include <cuda_runtime_api.h>

#include <string>

namespace clfdtd {

// "cudaErrorMemoryAllocation (2): out of memory".
std::string cuda_error_text(cudaError_t e);

// Throws "<context>: <call> failed with cudaErrorNoDevice (100): no CUDA-capable device is
// detected" unless e == cudaSuccess. Clears the runtime's last-error state first, so a reported
// launch error is not reported twice.
void cuda_check(cudaError_t e, const char* call, const std::string& context);

}  // namespace clfdtd
