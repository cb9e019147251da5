// The device operations the direct (device-to-device) halo path needs (peer_halo.hpp): export a
// receive buffer to the neighbour, open the neighbour's, copy a packed plane into it on this
// device's queue, and wait for those copies. CUDA implements them (CUDA IPC,
// device/cuda/cuda_peer.hpp); OpenCL cannot (no device memory shared between processes).
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "device/device.hpp"

namespace clfdtd::parallel {

class PeerDevice {
public:
  virtual ~PeerDevice() = default;
  // Bytes a neighbour passes to open(); DeviceError when the buffer cannot be shared.
  virtual std::vector<unsigned char> export_buffer(const device::Buffer& buffer) = 0;
  // Opens a neighbour's export; returns its index for copy(). DeviceError when it cannot be
  // reached from this device (another node, no peer access).
  virtual std::size_t open(const std::vector<unsigned char>& exported) = 0;
  // Queues a copy of the first `bytes` of `src` into opened buffer `target`, after every
  // operation queued on this device before.
  virtual void copy(std::size_t target, const device::Buffer& src, std::size_t bytes) = 0;
  // Blocks until every copy queued so far has landed (not the launches queued after them).
  virtual void mark() = 0;
  virtual void wait_marked() = 0;
};

// The PeerDevice of `dev`, or nullptr with `why_not` saying why there is none (an OpenCL device,
// a build without CUDA).
std::unique_ptr<PeerDevice> make_peer_device(device::Device& dev, std::string& why_not);

}  // namespace clfdtd::parallel
