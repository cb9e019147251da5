// CUDA error codes by name and message, straight from the runtime (cudaGetErrorName/String).
#include "backends/cuda/cuda_error.hpp"

#include "errors.hpp"

namespace clfdtd {

std::string cuda_error_text(cudaError_t e) {
  const char* name = cudaGetErrorName(e);
  const char* text = cudaGetErrorString(e);
  return std::string(name ? name : "cudaError") + " (" + std::to_string(static_cast<int>(e)) +
         "): " + (text ? text : "unknown error");
}

void cuda_check(cudaError_t e, const char* call, const std::string& context) {
  if (e == cudaSuccess) return;
  (void)cudaGetLastError();  // reset the non-sticky error state this call may have left
  const std::string what = context + ": " + call + " failed with " + cuda_error_text(e);
  if (e == cudaErrorMemoryAllocation) throw OutOfMemoryError(what);
  throw DeviceError(what);
}

}  // namespace clfdtd
