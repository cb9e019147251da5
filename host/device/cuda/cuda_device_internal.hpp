// What other files of host/device/cuda/ need of a CudaDevice (cuda_device.cpp): its GPU, its
// stream and the pointer of a buffer, for work the device API does not name (cuda_peer.cpp).
#pragma once
#include <cuda_runtime_api.h>

#include "device/device.hpp"

namespace clfdtd::device::cuda_detail {

struct CudaQueue {
  int ordinal = -1;               // the CUDA device
  cudaStream_t stream = nullptr;  // the device's one stream: every operation goes there
};

bool is_cuda(const Device& dev);
// DeviceError naming `call` when `dev` is not a CUDA device.
CudaQueue queue_of(Device& dev, const char* call);
// The device pointer of a CUDA buffer; DeviceError naming `call` when it is not one.
void* pointer_of(const Buffer& b, const char* call);
// Makes `ordinal` the calling thread's current device.
void make_current(int ordinal, const char* context);

}  // namespace clfdtd::device::cuda_detail
